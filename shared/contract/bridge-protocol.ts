/**
 * The local channel between a bridge process (`mcp-approval-console bridge …`, main/bridge/) and
 * the running console (main/bridge/listener.ts): newline-delimited JSON, one message a line, over
 * a Unix domain socket (a named pipe on Windows). Every line either side reads is parsed with
 * these schemas; a line that does not parse closes the connection.
 *
 * The conversation: the bridge sends {@link BridgeHello} (with the token the console wrote to an
 * owner-only file) and waits for `welcome` or `refused`. Then, per server request it intercepted:
 * `request` → (`progress`)* → `result` | `error`; the bridge may send `cancel` meanwhile. Request
 * ids are the bridge's own counter, unrelated to any JSON-RPC id.
 */
import { z } from 'zod';

/** Version of this channel's messages; a console refuses a hello of another version. */
export const BRIDGE_PROTOCOL_VERSION = 2;

/** Largest line either side accepts, in bytes (above the console's 60 MB sampling cap). */
export const BRIDGE_MAX_LINE_BYTES = 64 * 1024 * 1024;

const era = z.enum(['legacy', 'modern']);
const requestId = z.number().int().nonnegative();

/** The agent host a bridged server runs under: its `clientInfo` from `initialize`. */
export const BridgeViaSchema = z.object({ host: z.string().min(1).max(200), version: z.string().max(100).optional() });
export type BridgeVia = z.infer<typeof BridgeViaSchema>;

/** First message of the bridge: who it is, for which server, and the token that proves it may ask. */
export const BridgeHelloSchema = z.object({
  type: z.literal('hello'),
  protocol: z.number().int(),
  token: z.string().min(1).max(200),
  /** The bridged server's id in the console (its name in mcp-servers.json, or `--name`). */
  serverId: z.string().min(1).max(200),
  /**
   * Ids earlier versions of the bridge derived for the same command line (`index` for
   * `node …/server-everything/dist/index.js`): rules and limits written under them apply to this server.
   */
  formerly: z.array(z.string().min(1).max(200)).max(10).optional(),
  /** The host's clientInfo; absent until the host initialized. */
  via: BridgeViaSchema.optional(),
  /** The bridge's process id, for the console's log. */
  pid: z.number().int().optional(),
});
export type BridgeHello = z.infer<typeof BridgeHelloSchema>;

/** A client request of the host's (`tools/call`, `prompts/get`, `resources/read`) a server request may belong to. */
export const BridgeCallSchema = z.object({
  /** The bridge's id for it (unique per bridge). */
  callId: z.string().min(1).max(200),
  kind: z.enum(['tools/call', 'prompts/get', 'resources/read']),
  /** Tool or prompt name, or resource URI. */
  name: z.string().max(2000),
  /** Its arguments as one short line. */
  args: z.string().max(2000).optional(),
});
export type BridgeCall = z.infer<typeof BridgeCallSchema>;

/**
 * A server request the bridge intercepted, for the console to answer. `params` are exactly as the
 * server sent them (the console validates them); `calls`: the host's client requests in flight
 * when it arrived — `exact` when the protocol says which one (an input round of 2026-07-28);
 * `progress`: the server gave a progressToken, so interim notes are welcome.
 */
export const BridgeRequestSchema = z.object({
  type: z.literal('request'),
  id: requestId,
  kind: z.enum(['sampling', 'elicitation', 'roots']),
  era,
  params: z.unknown(),
  via: BridgeViaSchema.optional(),
  calls: z.array(BridgeCallSchema).max(1000).optional(),
  exact: z.boolean().optional(),
  progress: z.boolean().optional(),
});
export type BridgeRequest = z.infer<typeof BridgeRequestSchema>;

/** The server stopped waiting for request `id`: it cancelled, timed out, or its connection closed. */
export const BridgeCancelSchema = z.object({
  type: z.literal('cancel'),
  id: requestId,
  cause: z.enum(['server_cancelled', 'server_timeout', 'connection_closed']),
  reason: z.string().max(2000).optional(),
});
export type BridgeCancel = z.infer<typeof BridgeCancelSchema>;

/**
 * The server sent `notifications/elicitation/complete` for a URL-mode elicitation the console
 * showed (the host has no URL elicitation): the console marks that item completed.
 */
export const BridgeElicitationCompleteSchema = z.object({ type: z.literal('elicitation_complete'), elicitationId: z.string().min(1).max(1000) });

/**
 * The bridged HTTP server at `url` needs an OAuth access token: the console answers from the
 * sign-in it holds for the server (`result` `{accessToken?}`; none when nobody signed in). With
 * `refresh` the server refused the last token (401; its `WWW-Authenticate` header): the console
 * refreshes first, or answers an error saying to sign in on its Servers screen.
 */
export const BridgeAuthSchema = z.object({
  type: z.literal('auth'),
  id: requestId,
  url: z.string().min(1).max(4000),
  refresh: z.object({ wwwAuthenticate: z.string().max(8000).optional() }).optional(),
});
export type BridgeAuth = z.infer<typeof BridgeAuthSchema>;

/** One protocol log entry of the bridged server's connection, as the bridge saw it (no message bodies). */
export const BridgeLogEntrySchema = z.object({
  /** `out`: the bridge sent it to the server (the host's, or the console's answer); `in`: the server sent it. */
  direction: z.enum(['out', 'in']),
  kind: z.enum(['request', 'response', 'error', 'notification']),
  method: z.string().max(200).optional(),
  id: z.union([z.string().max(200), z.number()]).optional(),
  /** JSON size in bytes (approximate). */
  size: z.number().int().min(0),
  error: z.object({ code: z.number(), message: z.string().max(500) }).optional(),
});

/**
 * What the bridged server did since the last report (sent at most once a second, only while the
 * channel is open): its protocol log entries and stderr lines, and the host's client requests
 * that started or ended meanwhile (`ended`) — the Servers screen shows them on the bridged
 * server's row, and its log.
 */
export const BridgeActivitySchema = z.object({
  type: z.literal('activity'),
  /** The host's clientInfo, once its `initialize` passed (the Servers screen names the host from then on). */
  via: BridgeViaSchema.optional(),
  protocol: z.array(BridgeLogEntrySchema).max(500),
  stderr: z.array(z.string().max(10_000)).max(200),
  calls: z.array(BridgeCallSchema.extend({ ended: z.boolean().optional() })).max(100),
});
export type BridgeActivity = z.infer<typeof BridgeActivitySchema>;

/**
 * Instead of a hello: the command line (`mcp-approval-console status|stop|open`) asks the console
 * about itself, with the same token. `status`: the console answers {@link ConsoleStatusSchema};
 * `stop`: it answers, then shuts down as on SIGTERM; `show`: it answers and shows its window (the
 * desktop app). The console closes the connection after its answer.
 */
export const BridgeControlSchema = z.object({
  type: z.literal('control'),
  protocol: z.number().int(),
  token: z.string().min(1).max(200),
  action: z.enum(['status', 'stop', 'show']),
});
export type BridgeControl = z.infer<typeof BridgeControlSchema>;

/** Every message the bridge sends. */
export const BridgeToConsoleSchema = z.discriminatedUnion('type', [BridgeControlSchema, BridgeHelloSchema, BridgeRequestSchema, BridgeCancelSchema, BridgeElicitationCompleteSchema, BridgeAuthSchema, BridgeActivitySchema]);
export type BridgeToConsole = z.infer<typeof BridgeToConsoleSchema>;

/** The console accepted the hello. */
export const BridgeWelcomeSchema = z.object({ type: z.literal('welcome'), protocol: z.number().int() });

/** The console refused the hello (wrong token, other version); it closes the connection next. */
export const BridgeRefusedSchema = z.object({ type: z.literal('refused'), message: z.string() });

/** The answer to request `id`, to send to the server as the JSON-RPC result. */
export const BridgeResultSchema = z.object({ type: z.literal('result'), id: requestId, result: z.record(z.string(), z.unknown()) });

/**
 * Request `id` failed: the JSON-RPC error to send to the server (-1 rejected by the person,
 * -32602 invalid params, -32601 not available, -32603 the console stopped, …).
 */
export const BridgeErrorSchema = z.object({ type: z.literal('error'), id: requestId, code: z.number().int(), message: z.string(), data: z.unknown().optional() });
export type BridgeError = z.infer<typeof BridgeErrorSchema>;

/** An interim note for request `id` (sent to the server as `notifications/progress`). */
export const BridgeProgressSchema = z.object({ type: z.literal('progress'), id: requestId, message: z.string() });

/**
 * The roots the console offers the bridged server changed (the person edited them): a bridge whose
 * host declares no roots tells the server `notifications/roots/list_changed`.
 */
export const BridgeRootsChangedSchema = z.object({ type: z.literal('roots_changed') });

/**
 * The person signed out of the bridged HTTP server in the console: the bridge drops the access
 * token it holds, so the server's next request asks the console again (and fails with "needs
 * sign-in" until someone signs in).
 */
export const BridgeSignedOutSchema = z.object({ type: z.literal('signed_out') });

/** One server of a running console, for `mcp-approval-console status`. */
export const ConsoleStatusServerSchema = z.object({
  id: z.string().max(200),
  /** A server of the console's own (mcp-servers.json) or one a host runs through the bridge. */
  source: z.enum(['console', 'bridge']),
  /** Connection status of a console server (`connected`, `error` …); `connected` for a bridged one. */
  status: z.string().max(50),
  /** The host a bridged server runs under, once known. */
  via: z.string().max(200).optional(),
});

/**
 * The console's answer to a {@link BridgeControlSchema}: the process, its host and data folder,
 * the page's address with its token (the web host, once it serves the page), its servers, how many
 * requests wait on a person, the provider gateway's address; `stopping` when it now shuts down,
 * `shown` when it showed its window.
 */
export const ConsoleStatusSchema = z.object({
  type: z.literal('status'),
  pid: z.number().int(),
  host: z.enum(['electron', 'web', 'test']),
  dataDir: z.string(),
  /** When the console started, epoch ms. */
  startedAt: z.number(),
  address: z.string().max(2000).optional(),
  servers: z.array(ConsoleStatusServerSchema).max(10_000),
  waiting: z.number().int().nonnegative(),
  gateway: z.string().max(2000).optional(),
  stopping: z.literal(true).optional(),
  shown: z.boolean().optional(),
});
export type ConsoleStatus = z.infer<typeof ConsoleStatusSchema>;

/** Every message the console sends. */
export const ConsoleToBridgeSchema = z.discriminatedUnion('type', [ConsoleStatusSchema, BridgeWelcomeSchema, BridgeRefusedSchema, BridgeResultSchema, BridgeErrorSchema, BridgeProgressSchema, BridgeRootsChangedSchema, BridgeSignedOutSchema]);
export type ConsoleToBridge = z.infer<typeof ConsoleToBridgeSchema>;

/**
 * Parses one line of the channel with `schema`.
 * @returns the message, or `undefined` when the line is not JSON or does not match
 */
export function parseChannelLine<T>(schema: z.ZodType<T>, line: string): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
