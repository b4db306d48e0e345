/**
 * "Route through the console": rewriting one server entry in an agent host's own config file so
 * that the host launches the console's sampling bridge in its place (`bridge -- <command> <args…>`
 * for a stdio entry, `bridge --url <url>` for an HTTP one), and undoing it. For hosts whose file
 * takes URLs with headers (VS Code, Cursor, Claude Code, Windsurf), the URL form instead points
 * the entry at the console's loopback Streamable HTTP serving of its own entry of the same name
 * (`http://127.0.0.1:<port>/mcp/<name>`, `Authorization: Bearer <token>`; main/bridge/http-serving.ts).
 *
 * The host's file is the person's: it is edited with `jsonc-parser` (comments, key order and
 * formatting elsewhere in the file stay byte for byte), written atomically with the previous
 * version kept as `<file>.bak`, and never written when it is broken or when it changed since the
 * person looked at it (the caller passes the SHA-256 of the text it showed). Undo puts the
 * original entry back, and refuses when the routed entry was edited meanwhile.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ApiError } from '../../shared/contract/api.js';
import type { ImportFormat } from '../../shared/contract/servers.js';
import { ui } from '../../shared/contract/ui-text.js';
import { BRIDGE_HEADERS_ENV } from '../bridge/headers.js';
import type { BridgeLauncher } from '../ports.js';
import { writeFileAtomic } from '../user-file.js';

export type { BridgeLauncher } from '../ports.js';

/** The word that marks a routed entry's arguments (after the launcher's own). */
const BRIDGE = 'bridge';

/** The SHA-256 (hex) of a file's text, as the caller saw it. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Where a host format keeps its servers: VS Code under `servers`, the others under `mcpServers`. */
export function serversKey(format: ImportFormat): 'servers' | 'mcpServers' {
  return format === 'vscode' ? 'servers' : 'mcpServers';
}

/**
 * The entry that launches the bridge in place of `entry`: a stdio entry keeps its `env`, `cwd`
 * and `envFile` (the host still provides them) and moves its command line after `--`; an HTTP or
 * SSE entry (`url`, or Windsurf's `serverUrl`) becomes `--url` (and `--sse` for SSE), its headers
 * moved into the environment as JSON (`MCP_CONSOLE_BRIDGE_HEADERS`: a command line is visible to
 * every user of the machine, an environment is not).
 * @throws ApiError invalid_input for an entry with neither `command` nor `url`, or one already routed
 */
export function routedEntry(entry: Record<string, unknown>, launcher: BridgeLauncher): Record<string, unknown> {
  if (isRouted(entry)) throw new ApiError('invalid_input', ui('route.alreadyRouted'));
  const keep = Object.fromEntries(Object.entries(entry).filter(([k]) => ['env', 'cwd', 'envFile'].includes(k)));
  if (typeof entry.command === 'string') {
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    return { ...(typeof entry.type === 'string' ? { type: 'stdio' } : {}), command: launcher.command, args: [...launcher.args, BRIDGE, '--', entry.command, ...args], ...keep };
  }
  const url = typeof entry.url === 'string' ? entry.url : entry.serverUrl; // Windsurf: serverUrl
  if (typeof url === 'string') {
    const headers = typeof entry.headers === 'object' && entry.headers !== null ? Object.fromEntries(Object.entries(entry.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)])) : {};
    const env = Object.keys(headers).length ? { env: { ...(keep.env as Record<string, unknown> | undefined), [BRIDGE_HEADERS_ENV]: JSON.stringify(headers) } } : {};
    const sse = entry.type === 'sse';
    return { ...(typeof entry.type === 'string' ? { type: 'stdio' } : {}), command: launcher.command, args: [...launcher.args, BRIDGE, '--url', url, ...(sse ? ['--sse'] : [])], ...keep, ...env };
  }
  throw new ApiError('invalid_input', ui('route.noTarget'));
}

/** Where the URL form points: the console's loopback serving, its token, and which servers it has. */
export interface UrlRouteTarget {
  /** `http://127.0.0.1:<port>` of the console's listener. */
  base: string;
  token: string;
  /** Whether the console's mcp-servers.json has an entry `name`. */
  served(name: string): boolean;
}

/** A URL that points at the console's loopback serving of a bridged server. */
const SERVED_URL = /^http:\/\/(?:127\.0\.0\.1|localhost):\d+\/mcp\//;

/**
 * The URL-form entry for the host's entry `name`: `url` (Windsurf: `serverUrl`) of the console's
 * serving of its server `name`, the token as an `Authorization` header, and `type: "http"` where
 * the host's format names the transport (VS Code, Claude Code).
 * @throws ApiError invalid_input for Claude Desktop (its file takes commands only) or a name the
 *   console does not have
 */
export function routedUrlEntry(format: ImportFormat, name: string, target: UrlRouteTarget): Record<string, unknown> {
  if (format === 'claude-desktop') throw new ApiError('invalid_input', ui('route.noUrlForm', { host: 'Claude Desktop' }));
  if (!target.served(name)) throw new ApiError('invalid_input', ui('route.notInConsole', { name }));
  const url = `${target.base}/mcp/${encodeURIComponent(name)}`;
  const headers = { Authorization: `Bearer ${target.token}` };
  if (format === 'windsurf') return { serverUrl: url, headers };
  if (format === 'cursor') return { url, headers };
  return { type: 'http', url, headers };
}

/**
 * Whether an entry already goes through the console: its arguments hold `bridge` followed by `--`
 * or `--url`, or its URL is the console's loopback serving (`http://127.0.0.1:<port>/mcp/…`).
 */
export function isRouted(entry: Record<string, unknown>): boolean {
  const url = typeof entry.url === 'string' ? entry.url : entry.serverUrl;
  if (typeof url === 'string' && SERVED_URL.test(url)) return true;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  const at = args.indexOf(BRIDGE);
  return at >= 0 && (args[at + 1] === '--' || args[at + 1] === '--url');
}

/** A routed entry and the original it replaced, to undo (kept by the console, see route-store.ts). */
export interface RouteRecord {
  format: ImportFormat;
  path: string;
  name: string;
  /** The entry as it was before routing. */
  original: Record<string, unknown>;
  /** The entry written in its place. */
  routed: Record<string, unknown>;
  /** When it was routed, epoch ms. */
  at: number;
}

/** The host file's text and its servers, or the reason it cannot be edited. */
function readHostFile(path: string, format: ImportFormat): { text: string; servers: Record<string, unknown> } {
  if (!existsSync(path)) throw new ApiError('not_found', ui('route.noFile', { path }));
  const text = readFileSync(path, 'utf8');
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof data !== 'object' || data === null) {
    const why = errors.length ? `${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}` : 'not a JSON object';
    throw new ApiError('invalid_input', ui('route.brokenFile', { path, why }));
  }
  const servers = (data as Record<string, unknown>)[serversKey(format)];
  return { text, servers: typeof servers === 'object' && servers !== null ? (servers as Record<string, unknown>) : {} };
}

/** `text` with the entry `name` replaced by `value`, every other byte as it was. */
function withEntry(text: string, format: ImportFormat, name: string, value: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n( +|\t)\S/.exec(text)?.[1] ?? '  ';
  const formattingOptions = { insertSpaces: indent !== '\t', tabSize: indent === '\t' ? 1 : indent.length, eol };
  return applyEdits(text, modify(text, [serversKey(format), name], value, { formattingOptions }));
}

/**
 * Routes the host's entry `name` through the bridge: rewrites it in the host's file (the previous
 * file kept as `<file>.bak`) and returns the record to undo it. `how`: `command` (default) makes
 * the host launch the bridge; `url` points the entry at the console's loopback serving
 * ({@link routedUrlEntry}; `url` must then say where).
 * @param seen the SHA-256 of the file's text the person looked at; absent: no check (command line)
 * @throws ApiError not_found (no file, no such entry), invalid_input (the file is broken, the entry
 *   is already routed or has no command / URL, the URL form does not fit the host or the name),
 *   invalid_state (the file changed since `seen`; no launcher for the command form, no serving
 *   for the URL form)
 */
export function routeServer(opts: { path: string; format: ImportFormat; name: string; launcher?: BridgeLauncher; how?: 'command' | 'url'; url?: UrlRouteTarget; seen?: string; now: number }): RouteRecord {
  const { text, servers } = readHostFile(opts.path, opts.format);
  if (opts.seen !== undefined && textDigest(text) !== opts.seen) throw new ApiError('invalid_state', ui('route.fileChanged', { path: opts.path }));
  const original = servers[opts.name];
  if (typeof original !== 'object' || original === null) throw new ApiError('not_found', ui('route.noEntry', { name: opts.name, path: opts.path }));
  const routed = routedEntryBy(original as Record<string, unknown>, opts);
  writeFileAtomic(opts.path, withEntry(text, opts.format, opts.name, routed), text);
  return { format: opts.format, path: opts.path, name: opts.name, original: original as Record<string, unknown>, routed, at: opts.now };
}

/** The routed entry in the form asked for (see {@link routeServer}). */
function routedEntryBy(original: Record<string, unknown>, opts: Parameters<typeof routeServer>[0]): Record<string, unknown> {
  if (opts.how !== 'url') {
    if (!opts.launcher) throw new ApiError('invalid_state', ui('route.noLauncher'));
    return routedEntry(original, opts.launcher);
  }
  if (!opts.url) throw new ApiError('invalid_state', ui('route.noUrlServing'));
  if (isRouted(original)) throw new ApiError('invalid_input', ui('route.alreadyRouted'));
  return routedUrlEntry(opts.format, opts.name, opts.url);
}

/**
 * Puts the original entry back (the previous file kept as `<file>.bak`).
 * @throws ApiError not_found (no file, or the entry is gone), invalid_input (the file is broken),
 *   invalid_state (the routed entry was edited since it was written: the person's edit is kept)
 */
export function unrouteServer(record: RouteRecord): void {
  const { text, servers } = readHostFile(record.path, record.format);
  const current = servers[record.name];
  if (typeof current !== 'object' || current === null) throw new ApiError('not_found', ui('route.noEntry', { name: record.name, path: record.path }));
  if (JSON.stringify(current) !== JSON.stringify(record.routed)) throw new ApiError('invalid_state', ui('route.entryChanged', { name: record.name, path: record.path }));
  writeFileAtomic(record.path, withEntry(text, record.format, record.name, record.original), text);
}
