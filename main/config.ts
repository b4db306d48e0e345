/**
 * The servers config file: `mcp-servers.json` in the user-data folder, in the `mcpServers` format
 * Claude Desktop uses: `{"mcpServers": {"NAME": {"command", "args", "env", "cwd"}}}` for stdio,
 * `{"url", "headers"}` for Streamable HTTP (`"type": "sse"` for the legacy SSE transport).
 *
 * Embedded default: when the file does not exist it is created with one server,
 * `@modelcontextprotocol/server-everything` over stdio, launched from node_modules (never fetched
 * at run time). A broken file is never overwritten: it is reported (with the line for JSON syntax
 * errors) and no servers are started from it. Edits from the UI and live reload of hand edits:
 * main/servers/ (config-file.ts, watcher.ts, manager.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/** File name of the servers config inside the user-data folder. */
export const SERVERS_CONFIG_FILE = 'mcp-servers.json';

const common = {
  disabled: z.boolean().optional(),
  /** Timeout in ms for client requests the person starts (tools/call …), which may wait on review. */
  timeoutMs: z.number().int().positive().optional(),
  /**
   * How long this server waits for the answer to its sampling and elicitation requests (ms), shown
   * as a countdown on each waiting item (time made visible). Default 60 000, the MCP SDKs'
   * default request timeout; 0 = the server never gives up. 2026-07-28 (MRTR) requests have no
   * server timer.
   */
  serverTimeoutMs: z.number().int().min(0).optional(),
  /** Rounds allowed in one sampling tool loop before the console ends it (S-LOOP-1); default 10. */
  maxToolRounds: z.number().int().min(1).max(1000).optional(),
  /** Largest sampling request accepted, in bytes of JSON (S-SIZE-1); default 25 MB, at most 60 MB. */
  maxRequestBytes: z.number().int().min(1024).max(60 * 1024 * 1024).optional(),
  /** Largest image or audio block accepted, in decoded bytes (S-SIZE-1); default 10 MB. */
  maxMediaBytes: z.number().int().min(1024).max(60 * 1024 * 1024).optional(),
  /**
   * Protocol era negotiation: 'auto' (default: the 2025 initialize, and 2026-07-28 through
   * server/discover only for a server that refuses it; the verdict is remembered), 'legacy' (2025
   * initialize only), or a pinned version such as '2026-07-28'. Tools that need the other era are
   * called on a second session in it (main/mcp/era-sessions.ts).
   */
  protocol: z.union([z.literal('legacy'), z.literal('auto'), z.string().regex(/^\d{4}-\d{2}-\d{2}$/)]).optional(),
};

/** A stdio server: the console spawns `command args…` with `env` in `cwd`. */
export const StdioServerConfigSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /**
   * Launch it with the console's provider gateway: `OPENAI_BASE_URL`, `OPENAI_API_KEY`,
   * `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_KEY` set to the gateway and a token of this server's,
   * so its own LLM calls are reviewed like sampling (main/gateway). Default off.
   */
  providerGateway: z.boolean().optional(),
  ...common,
});

/** An HTTP server: Streamable HTTP by default, legacy SSE with `"type": "sse"`. */
export const HttpServerConfigSchema = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'sse']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  ...common,
});

/** One entry under `mcpServers`. */
export const ServerConfigSchema = z.union([StdioServerConfigSchema, HttpServerConfigSchema]);
export type ServerConfig = z.infer<typeof ServerConfigSchema>;
export type StdioServerConfig = z.infer<typeof StdioServerConfigSchema>;
export type HttpServerConfig = z.infer<typeof HttpServerConfigSchema>;

/** The whole file. */
export const ServersFileSchema = z.looseObject({
  mcpServers: z.record(z.string().min(1), ServerConfigSchema),
});

/** Whether a config entry is a stdio server. */
export const isStdio = (c: ServerConfig): c is StdioServerConfig => 'command' in c;

/**
 * Absolute path of server-everything's entry point in this install's node_modules. In a packaged
 * desktop app that folder lies inside app.asar, which only Electron can read; the release build
 * unpacks it (electron-builder.yml `asarUnpack`), so the path is turned to `app.asar.unpacked`,
 * where the system Node that runs it there can read it. Unchanged anywhere else.
 */
export function serverEverythingEntry(): string {
  const require = createRequire(import.meta.url);
  const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  return entry.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/** The embedded default config: server-everything over stdio (`node` = the console's own Node). */
export function defaultServersConfig(): z.infer<typeof ServersFileSchema> {
  return { mcpServers: { everything: { command: 'node', args: [serverEverythingEntry(), 'stdio'] } } };
}

/** What loading produced: the servers to run, and problems to show the person. */
export interface LoadedServers {
  path: string;
  servers: Record<string, ServerConfig>;
  /** Readable problems ("mcp-servers.json line 4: Unexpected token …"); empty when all is well. */
  problems: string[];
  /** True when the file was just created from the embedded default. */
  createdDefault: boolean;
  /** The file's text as read (or written), so a watcher can tell later edits apart. */
  text: string;
}

/**
 * Reads (or creates) the servers config.
 * @param userDataDir the per-user folder; created if missing
 * @returns servers and problems; never throws for a bad file (I/O errors on create do throw)
 */
export function loadServersConfig(userDataDir: string): LoadedServers {
  const path = join(userDataDir, SERVERS_CONFIG_FILE);
  if (!existsSync(path)) {
    mkdirSync(userDataDir, { recursive: true });
    const config = defaultServersConfig();
    const text = `${JSON.stringify(config, null, 2)}\n`;
    writeFileSync(path, text, { mode: 0o600 });
    return { path, servers: config.mcpServers, problems: [], createdDefault: true, text };
  }
  const text = readFileSync(path, 'utf8');
  return { path, ...parseServersConfig(text, SERVERS_CONFIG_FILE), createdDefault: false, text };
}

/**
 * Parses the text of a servers config file.
 * @param text file contents
 * @param label file name used in messages
 */
export function parseServersConfig(text: string, label: string): { servers: Record<string, ServerConfig>; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { servers: {}, problems: [`${label}: ${describeJsonError(text, err)}`] };
  }
  const parsed = ServersFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${label}: ${i.path.join('.') || '(root)'}: ${i.message}`);
    return { servers: {}, problems };
  }
  return { servers: parsed.data.mcpServers, problems: [] };
}

/** "line 3, column 5: Unexpected token }" from a JSON.parse error. */
export function describeJsonError(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const pos = /position (\d+)/.exec(message);
  if (pos) {
    const offset = Number(pos[1]);
    const before = text.slice(0, offset).split('\n');
    return `line ${before.length}, column ${before.at(-1)!.length + 1}: ${message.replace(/ in JSON at position \d.*$/, '')}`;
  }
  return message;
}
