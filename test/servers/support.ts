/**
 * Helpers for the servers tests: a manager over a temp `mcp-servers.json` whose connections are
 * fakes that record what happened to them (connected, closed), so config edits and live reload can
 * be checked without spawning servers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServersConfig, type ServerConfig } from '../../main/config.js';
import type { ServerConnection } from '../../main/mcp/connection.js';
import { ServerLog } from '../../main/mcp/protocol-log.js';
import { createServerManager, type ServerManager } from '../../main/servers/manager.js';
import { english } from '../../shared/contract/ui-text.js';

/** A fake connection's record. */
export interface FakeConn {
  id: string;
  config: ServerConfig;
  /** Generation: the n-th connection created for this id (1-based). */
  n: number;
  connects: number;
  closed: boolean;
}

/** A manager over a temp folder, and what its fake connections went through. */
export interface ManagerFixture {
  dir: string;
  path: string;
  manager: ServerManager;
  conns: FakeConn[];
  problems: Array<string[] | null>;
  notices: string[];
  /** The live (not closed) fake of `id`. */
  live(id: string): FakeConn | undefined;
  /** Polls until `pred` holds (for the watcher); default 10 s. */
  until(pred: () => boolean, what: string, timeoutMs?: number): Promise<void>;
}

/**
 * Writes `fileText` as mcp-servers.json in a temp folder and starts a manager with fake connections.
 * @param watch whether to watch the file (live reload tests)
 */
export async function startManager(fileText: string, opts: { watch?: boolean } = {}): Promise<ManagerFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'servers-test-'));
  const path = join(dir, 'mcp-servers.json');
  writeFileSync(path, fileText);
  const loaded = loadServersConfig(dir);
  const conns: FakeConn[] = [];
  const problems: Array<string[] | null> = [];
  const notices: string[] = [];
  const connections = new Map<string, ServerConnection>();
  const manager = createServerManager({
    path,
    initial: loaded,
    connections,
    create(id, config) {
      const rec: FakeConn = { id, config, n: conns.filter((c) => c.id === id).length + 1, connects: 0, closed: false };
      conns.push(rec);
      const conn: ServerConnection = {
        id,
        log: new ServerLog(),
        view: () => ({ id, transport: 'stdio', target: id, status: rec.closed ? 'disconnected' : 'ready', stderrTail: [], tools: [], inFlight: 0 }),
        connect: async () => void rec.connects++,
        close: async () => void (rec.closed = true),
        callTool: async () => ({ content: [] }),
        getPrompt: async () => ({ messages: [] }),
        readResource: async () => ({ contents: [] }),
        inFlight: () => 0,
        notifyRootsChanged: async () => undefined,
      };
      return conn;
    },
    onChange() {},
    onProblems: (p) => void problems.push(p),
    notify: (_level, message) => void notices.push(typeof message === 'string' ? message : english(message)),
    logger: { info() {}, warn() {}, error() {} },
    home: dir,
    watch: opts.watch ?? false,
    debounceMs: 50,
  });
  await manager.start();
  return {
    dir,
    path,
    manager,
    conns,
    problems,
    notices,
    live: (id) => conns.find((c) => c.id === id && !c.closed),
    async until(pred, what, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (!pred()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
