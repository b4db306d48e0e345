/**
 * Writing `mcp-servers.json` from the Servers screen. The file stays the source of truth and the
 * person's own: an edit reads the file as it is now, changes exactly one entry under `mcpServers`
 * (keeping that entry's fields the console does not know, e.g. Claude Desktop's, and every other
 * entry and top-level key untouched), validates the result with the same schema loading uses, and
 * replaces the file atomically (write a temp file in the same folder, fsync, rename), in the
 * file's own indentation, the previous version kept as `mcp-servers.json.bak` (main/user-file.ts).
 *
 * Errors are {@link ApiError}s with code `invalid_input` (a field, a duplicate name) or
 * `invalid_state` (the file is broken: fix it first; its line is in the message).
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ApiError } from '../../shared/contract/api-error.js';
import {
  looksLikeSecretName,
  SECRET_PLACEHOLDER,
  ServerEntryInputSchema,
  ServerNameSchema,
  type ServerEntry,
  type ServerEntryInput,
} from '../../shared/contract/servers.js';
import { describeJsonError, ServersFileSchema } from '../config.js';
import { indentOf, writeFileAtomic } from '../user-file.js';
import { ui } from '../../shared/contract/ui-text.js';

/** Entry fields the console owns; anything else in an entry is kept as the person wrote it. */
export const KNOWN_ENTRY_KEYS = ['type', 'command', 'args', 'env', 'cwd', 'providerGateway', 'url', 'headers', 'disabled', 'timeoutMs', 'maxToolRounds', 'protocol'] as const;

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The file as read: its text and parsed object with an `mcpServers` object. */
export interface ServersFileDoc {
  text: string;
  json: Json & { mcpServers: Json };
}

/**
 * Reads the file for editing.
 * @throws ApiError invalid_state when it cannot be read or parsed ("line 3, column 5: …")
 */
export function readServersFile(path: string): ServersFileDoc {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', json: { mcpServers: {} } };
    throw new ApiError('invalid_state', ui('error.fileUnreadable', { file: basename(path), why: (err as Error).message }));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ApiError('invalid_state', ui('error.fileNotJson', { file: basename(path), why: describeJsonError(text, err) }));
  }
  if (!isRecord(json)) throw new ApiError('invalid_state', ui('error.fileNotObject', { file: basename(path) }));
  const servers = json.mcpServers ?? {};
  if (!isRecord(servers)) throw new ApiError('invalid_state', ui('error.mcpServersNotObject', { file: basename(path) }));
  return { text, json: { ...json, mcpServers: servers } };
}

/**
 * Parses editor input with the shared schema.
 * @throws ApiError invalid_input naming the field ("env.1abc: Environment variable names are …")
 */
export function parseEntryInput(input: unknown): ServerEntry {
  const parsed = ServerEntryInputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new ApiError('invalid_input', `${path}${issue.message}`);
}

/** Restores values the renderer sent back as {@link SECRET_PLACEHOLDER} from the entry in the file. */
function keepSecrets(next: Record<string, string>, previous: unknown, what: string): Record<string, string> {
  const prev = isRecord(previous) ? previous : {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(next)) {
    if (v !== SECRET_PLACEHOLDER) out[k] = v;
    else if (typeof prev[k] === 'string') out[k] = prev[k];
    else throw new ApiError('invalid_input', ui('error.enterValue', { field: `${what}.${k}` }));
  }
  return out;
}

/**
 * The file entry for editor input: the console's fields from `input`, every other field of
 * `existing` kept. Empty lists/maps and defaults are left out, as a person would write it.
 */
export function entryFromInput(input: ServerEntry, existing?: Json): Json {
  const base: Json = {};
  for (const [k, v] of Object.entries(existing ?? {})) if (!(KNOWN_ENTRY_KEYS as readonly string[]).includes(k)) base[k] = v;
  const entry: Json = { ...base };
  if (input.transport === 'stdio') {
    if (existing?.type === 'stdio') entry.type = 'stdio';
    entry.command = input.command;
    if (input.args.length) entry.args = input.args;
    const env = keepSecrets(input.env, existing?.env, 'env');
    if (Object.keys(env).length) entry.env = env;
    if (input.cwd) entry.cwd = input.cwd;
    if (input.providerGateway) entry.providerGateway = true;
  } else {
    if (input.transport === 'sse') entry.type = 'sse';
    else if (existing?.type === 'http' || existing?.type === 'streamable-http') entry.type = existing.type;
    entry.url = input.url;
    const headers = keepSecrets(input.headers, existing?.headers, 'headers');
    if (Object.keys(headers).length) entry.headers = headers;
  }
  if (input.disabled) entry.disabled = true;
  if (input.timeoutMs !== undefined) entry.timeoutMs = input.timeoutMs;
  if (input.maxToolRounds !== undefined) entry.maxToolRounds = input.maxToolRounds;
  if (input.protocol !== undefined) entry.protocol = input.protocol;
  return entry;
}

/**
 * An entry of the file in editor form, credential-looking env/header values replaced by
 * {@link SECRET_PLACEHOLDER}. `masked` names them (`env.API_KEY`, `headers.Authorization`).
 */
export function entryToInput(raw: unknown): { entry: ServerEntryInput; masked: string[] } {
  const e = isRecord(raw) ? raw : {};
  const masked: string[] = [];
  const mask = (rec: unknown, what: string): Record<string, string> =>
    Object.fromEntries(
      Object.entries(isRecord(rec) ? rec : {}).map(([k, v]) => {
        if (!looksLikeSecretName(k)) return [k, String(v)];
        masked.push(`${what}.${k}`);
        return [k, SECRET_PLACEHOLDER];
      }),
    );
  const common = {
    disabled: e.disabled === true ? true : undefined,
    timeoutMs: typeof e.timeoutMs === 'number' ? e.timeoutMs : undefined,
    maxToolRounds: typeof e.maxToolRounds === 'number' ? e.maxToolRounds : undefined,
    protocol: typeof e.protocol === 'string' ? e.protocol : undefined,
  };
  if (typeof e.command === 'string') {
    const args = Array.isArray(e.args) ? e.args.map(String) : [];
    return { entry: { transport: 'stdio', command: e.command, args, env: mask(e.env, 'env'), cwd: typeof e.cwd === 'string' ? e.cwd : undefined, ...(e.providerGateway === true && { providerGateway: true }), ...common }, masked };
  }
  return { entry: { transport: e.type === 'sse' ? 'sse' : 'http', url: typeof e.url === 'string' ? e.url : '', headers: mask(e.headers, 'headers'), ...common }, masked };
}

/** Checks what the schema cannot: the working directory exists. @throws ApiError invalid_input */
export function checkEntryOnDisk(input: ServerEntry, home: string): void {
  if (input.transport !== 'stdio' || !input.cwd) return;
  const cwd = input.cwd.startsWith('~') ? join(home, input.cwd.slice(1)) : input.cwd;
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    // missing
  }
  if (!isDir) throw new ApiError('invalid_input', ui('error.cwdMissing', { cwd: input.cwd }));
}

/** A zod issue as far as {@link describeIssue} reads it. */
interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: Issue[][];
}

/**
 * "spare.timeoutMs: Invalid input: expected number" for a schema issue (the path without
 * `mcpServers`). An entry that fits neither transport is described by the closer one's first issue
 * (the fewest issues), not zod's bare "Invalid input".
 */
function describeIssue(issue: Issue): string {
  let at = issue;
  let path = issue.path.slice(1);
  if (issue.code === 'invalid_union' && issue.errors?.length) {
    const closest = issue.errors.filter((e) => e.length > 0).sort((a, b) => a.length - b.length)[0];
    if (closest?.[0]) {
      at = closest[0];
      path = [...path, ...closest[0].path];
    }
  }
  return `${path.map(String).join('.') || '(top level)'}: ${at.message}`;
}

/**
 * Reads the file, lets `mutate` change its `mcpServers` (in place, order kept), validates the
 * result like loading does, and writes it atomically.
 * @returns the text written
 * @throws ApiError invalid_state for a broken file (bad JSON, or any entry that does not load —
 *   also when the edit is about that entry: nothing is written), invalid_input when the result
 *   would not load
 */
export function editServersFile(path: string, mutate: (servers: Json) => void): string {
  const doc = readServersFile(path);
  const before = ServersFileSchema.safeParse(doc.json);
  if (!before.success) {
    // A bad entry makes the file broken: no edit writes it, not even one of that entry (docs/configuration.md).
    throw new ApiError('invalid_state', ui('error.fileInvalid', { file: basename(path), why: describeIssue(before.error.issues[0]!) }));
  }
  const servers = { ...doc.json.mcpServers };
  mutate(servers);
  const json = { ...doc.json, mcpServers: servers };
  const check = ServersFileSchema.safeParse(json);
  if (!check.success) throw new ApiError('invalid_input', describeIssue(check.error.issues[0]!));
  const text = `${JSON.stringify(json, null, doc.text ? indentOf(doc.text) : 2)}\n`;
  writeFileAtomic(path, text, doc.text || undefined);
  return text;
}

/** Rebuilds `servers` with `oldId` renamed to `newId` at the same position. */
export function renameKey(servers: Json, oldId: string, newId: string, value: unknown): void {
  const entries = Object.entries(servers).map(([k, v]) => (k === oldId ? ([newId, value] as const) : ([k, v] as const)));
  for (const k of Object.keys(servers)) delete servers[k];
  for (const [k, v] of entries) servers[k] = v;
}

/** Validates a server name. @throws ApiError invalid_input */
export function checkName(name: string): string {
  const parsed = ServerNameSchema.safeParse(name);
  if (!parsed.success) throw new ApiError('invalid_input', `name: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** A name not yet used in `taken`: `base`, else `base-copy`, `base-copy-2`, … */
export function freeName(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base}-copy` : `${base}-copy-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
