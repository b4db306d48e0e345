/**
 * The configured servers and their connections, kept in step with `mcp-servers.json`, which stays
 * the source of truth: edits from the Servers screen are written to the file (config-file.ts) and
 * applied at once; edits by hand are picked up by the watcher (watcher.ts). Applying a config
 * touches only what changed: a changed entry reconnects only that server, a removed one is
 * closed, an added one connected; a disabled entry is listed without a connection. A broken file
 * is reported with its line and the last good config stays in force.
 */
import { ApiError } from '../../shared/contract/api-error.js';
import type { ServerEntryInput } from '../../shared/contract/servers.js';
import type { ServerView } from '../../shared/contract/state.js';
import { isStdio, parseServersConfig, SERVERS_CONFIG_FILE, type ServerConfig } from '../config.js';
import { describeTarget, type ServerConnection } from '../mcp/connection.js';
import type { Logger } from '../ports.js';
import {
  checkEntryOnDisk,
  checkName,
  editServersFile,
  entryFromInput,
  entryToInput,
  freeName,
  KNOWN_ENTRY_KEYS,
  parseEntryInput,
  readServersFile,
  renameKey,
} from './config-file.js';
import { watchConfigFile, type ConfigWatch } from './watcher.js';
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';

/** What the manager needs. */
export interface ServerManagerDeps {
  /** Path of mcp-servers.json. */
  path: string;
  /** The config as loaded at start (already validated) and the text it came from. */
  initial: { servers: Record<string, ServerConfig>; problems: string[]; text: string };
  /** The console's map of live connections; the manager adds and removes entries. */
  connections: Map<string, ServerConnection>;
  /** Creates a (not yet connected) connection for an entry. */
  create(id: string, config: ServerConfig): ServerConnection;
  /** Called after the list of servers or any of them changed (publish state). */
  onChange(): void;
  /** Reports config problems (null: the file is fine again). */
  onProblems(problems: string[] | null): void;
  notify(level: 'info' | 'warning' | 'error', message: string | UiText): void;
  logger: Logger;
  /** Home folder, for `~` in a working directory. */
  home: string;
  /** Watch the file for hand edits (default true). */
  watch?: boolean;
  debounceMs?: number;
}

/** The manager's operations (the Servers API of the console). */
export interface ServerManager {
  /** Starts the watch and the first connection of every enabled server; resolves when each has tried once. */
  start(): Promise<void>;
  /** Every configured server, in file order; disabled ones without a connection. */
  views(): ServerView[];
  /** The entry of a server as it is in force now. */
  config(id: string): ServerConfig | undefined;
  /**
   * Adds a server, or replaces `previousId`'s entry (renaming it when `id` differs).
   * @throws ApiError invalid_input (field, duplicate name), not_found (previousId), invalid_state (broken file)
   */
  save(input: { id: string; previousId?: string; entry: unknown }): void;
  /** Removes a server from the file (its connection closes). @throws ApiError not_found, invalid_state */
  remove(id: string): void;
  /** Sets or clears `"disabled": true`. @throws ApiError not_found, invalid_state */
  setEnabled(id: string, enabled: boolean): void;
  /** Copies an entry under a free name (`NAME-copy`), disabled so it does not start twice. @returns the new name */
  duplicate(id: string, newId?: string): string;
  /**
   * Adds entries (import) in one atomic write, in order.
   * @throws ApiError invalid_input when a name is taken (planImport checks first), invalid_state (broken file)
   */
  addEntries(entries: Array<[string, ServerConfig]>): void;
  /** The raw entries under `mcpServers` as the file holds them now. @throws ApiError invalid_state */
  fileEntries(): Record<string, unknown>;
  /** The entry in editor form, credential-looking values masked. @throws ApiError not_found, invalid_state */
  entry(id: string): { entry: ServerEntryInput; masked: string[]; otherKeys: string[] };
  /** Reconnects a server now (Restart / Retry now). @throws ApiError not_found, invalid_state when disabled */
  restart(id: string): Promise<void>;
  /** Applies a new file text (from the watcher, or after the console wrote it). */
  applyText(text: string | null): void;
  dispose(): Promise<void>;
}

/** JSON with object keys sorted, to compare entries regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** Creates the manager; nothing connects until `start()`. */
export function createServerManager(deps: ServerManagerDeps): ServerManager {
  const st: ManagerState = {
    deps,
    configs: deps.initial.problems.length ? {} : deps.initial.servers,
    watch: undefined,
    disposed: false,
  };
  return {
    start: () => startManager(st),
    views: () => Object.entries(st.configs).map(([id, config]) => deps.connections.get(id)?.view() ?? stubView(id, config)),
    config: (id) => st.configs[id],
    save: (input) => saveEntry(st, input),
    remove(id) {
      edit(st, (servers) => {
        mustExist(servers, id);
        delete servers[id];
      });
    },
    setEnabled(id, enabled) {
      edit(st, (servers) => {
        mustExist(servers, id);
        const { disabled: _drop, ...rest } = servers[id] as Record<string, unknown>;
        servers[id] = enabled ? rest : { ...rest, disabled: true };
      });
    },
    duplicate: (id, newId) => duplicateEntry(st, id, newId),
    addEntries(entries) {
      edit(st, (servers) => {
        for (const [name, config] of entries) {
          if (name in servers) throw new ApiError('invalid_input', ui('error.serverExists', { name }));
          servers[name] = config;
        }
      });
    },
    fileEntries: () => readServersFile(deps.path).json.mcpServers,
    entry: (id) => editorEntry(deps.path, id),
    restart: (id) => restartServer(st, id),
    applyText: (text) => applyText(st, text),
    dispose: () => disposeManager(st),
  };
}

/** What one manager keeps between calls; the steps below read and change it. */
interface ManagerState {
  readonly deps: ServerManagerDeps;
  /** The config in force (the last good one). */
  configs: Record<string, ServerConfig>;
  /** The file watch, once `start()` ran with `watch` not false. */
  watch: ConfigWatch | undefined;
  /** Set by `dispose()`; later texts are ignored. */
  disposed: boolean;
}

/** The view of a server without a connection (a disabled one). */
function stubView(id: string, config: ServerConfig): ServerView {
  return {
    id,
    transport: isStdio(config) ? 'stdio' : config.type === 'sse' ? 'sse' : 'http',
    target: describeTarget(config),
    status: 'disabled',
    stderrTail: [],
    tools: [],
    inFlight: 0,
  };
}

/** Creates and connects a server's connection, unless it is disabled; returns its first attempt. */
function open(deps: ServerManagerDeps, id: string, config: ServerConfig): Promise<void> | undefined {
  if (config.disabled) return undefined;
  const conn = deps.create(id, config);
  deps.connections.set(id, conn);
  return conn.connect();
}

/** Removes a server's connection from the map and closes it (if there was one). */
function closeConn(deps: ServerManagerDeps, id: string): Promise<void> | undefined {
  const conn = deps.connections.get(id);
  deps.connections.delete(id);
  return conn?.close();
}

/** `start()`: the watch, then the first connection of every enabled server. */
async function startManager(st: ManagerState): Promise<void> {
  const { deps } = st;
  if (deps.watch !== false) {
    st.watch = watchConfigFile(deps.path, { initialText: deps.initial.text, onText: (text) => applyText(st, text), logger: deps.logger, debounceMs: deps.debounceMs });
  }
  const first = Object.entries(st.configs).map(([id, config]) => open(deps, id, config));
  deps.onChange();
  await Promise.all(first);
}

/** Brings connections in line with `next`; returns the first attempts started. */
function apply(st: ManagerState, next: Record<string, ServerConfig>): Array<Promise<void>> {
  const { deps } = st;
  const started: Array<Promise<void> | undefined> = [];
  for (const id of Object.keys(st.configs)) if (!(id in next)) void closeConn(deps, id);
  for (const [id, config] of Object.entries(next)) {
    const before = st.configs[id];
    if (before && canonical(before) === canonical(config)) continue;
    if (before) void closeConn(deps, id);
    started.push(open(deps, id, config));
  }
  st.configs = next;
  deps.onChange();
  return started.filter((p): p is Promise<void> => p !== undefined);
}

/** `applyText()`: a missing or broken file is reported and the config in force is kept; a good one is applied. */
function applyText(st: ManagerState, text: string | null): void {
  const { deps } = st;
  if (st.disposed) return;
  if (text === null) {
    const why = ui('notice.configRemoved', { file: SERVERS_CONFIG_FILE });
    deps.onProblems([english(why)]);
    deps.notify('error', why);
    return;
  }
  const parsed = parseServersConfig(text, SERVERS_CONFIG_FILE);
  if (parsed.problems.length) {
    const problems = parsed.problems.map((problem) => ui('notice.configKept', { problem }));
    deps.onProblems(problems.map(english));
    for (const p of problems) deps.notify('error', p);
    return;
  }
  deps.onProblems(null);
  apply(st, parsed.servers);
}

/** Runs an edit of the file and applies the result at once (the watcher then sees no change). */
function edit(st: ManagerState, mutate: (servers: Record<string, unknown>) => void): void {
  const text = editServersFile(st.deps.path, mutate);
  st.watch?.seen(text);
  applyText(st, text);
}

/** @throws ApiError not_found when `id` is not an entry of `servers` */
function mustExist(servers: Record<string, unknown>, id: string): void {
  if (!(id in servers)) throw new ApiError('not_found', ui('error.noServerIn', { server: id, file: SERVERS_CONFIG_FILE }));
}

/** `save()`: checks the name and entry, then adds or replaces (and renames) the entry in the file. */
function saveEntry(st: ManagerState, { id, previousId, entry }: { id: string; previousId?: string; entry: unknown }): void {
  const name = checkName(id);
  const input = parseEntryInput(entry);
  checkEntryOnDisk(input, st.deps.home);
  edit(st, (servers) => {
    if (previousId !== undefined) mustExist(servers, previousId);
    if (name !== previousId && name in servers) throw new ApiError('invalid_input', ui('error.serverExists', { name }));
    const existing = previousId !== undefined ? (servers[previousId] as Record<string, unknown>) : undefined;
    const value = entryFromInput(input, existing);
    if (previousId !== undefined && previousId !== name) renameKey(servers, previousId, name, value);
    else servers[name] = value;
  });
}

/** `duplicate()`: copies an entry, disabled, under `newId` or a free name; returns the new name. */
function duplicateEntry(st: ManagerState, id: string, newId: string | undefined): string {
  let created = '';
  edit(st, (servers) => {
    mustExist(servers, id);
    created = newId !== undefined ? checkName(newId) : freeName(id, Object.keys(servers));
    if (created in servers) throw new ApiError('invalid_input', ui('error.serverExists', { name: created }));
    servers[created] = { ...(servers[id] as Record<string, unknown>), disabled: true };
  });
  return created;
}

/** `entry()`: the entry as the file holds it now, in editor form. */
function editorEntry(path: string, id: string): { entry: ServerEntryInput; masked: string[]; otherKeys: string[] } {
  const doc = readServersFile(path);
  const raw = doc.json.mcpServers[id];
  if (raw === undefined) throw new ApiError('not_found', ui('error.noServerIn', { server: id, file: SERVERS_CONFIG_FILE }));
  const { entry, masked } = entryToInput(raw);
  const otherKeys = Object.keys(raw as Record<string, unknown>).filter((k) => !(KNOWN_ENTRY_KEYS as readonly string[]).includes(k));
  return { entry, masked, otherKeys };
}

/** `restart()`: reconnects a configured, enabled server. */
async function restartServer(st: ManagerState, id: string): Promise<void> {
  const config = st.configs[id];
  if (!config) throw new ApiError('not_found', ui('error.noServer', { server: id }));
  const conn = st.deps.connections.get(id);
  if (!conn) throw new ApiError('invalid_state', ui('error.serverDisabledEnable', { server: id }));
  await conn.connect();
}

/** `dispose()`: ignores later texts, stops the watch, closes every connection. */
async function disposeManager(st: ManagerState): Promise<void> {
  st.disposed = true;
  st.watch?.close();
  await Promise.all([...st.deps.connections.keys()].map((id) => closeConn(st.deps, id)));
}
