/**
 * Test harness: a real console (createConsole) in a temp user-data folder, plus helpers to wait on
 * its mirrored state. Used by integration tests that drive real MCP servers through main's API.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import type { ConsolePorts } from '../../main/ports.js';
import { serverEverythingEntry } from '../../main/config.js';
import { isElicitationItem, type ConsoleState, type ElicitationItemView, type SamplingItemView } from '../../shared/contract/state.js';

/** The state with its items whole (main's, not the summaries the state carries), split by kind. */
export type WholeState = Omit<ConsoleState, 'items'> & { items: SamplingItemView[]; elicitations: ElicitationItemView[] };

/** `getState` with the items whole, from `handle`. */
export async function wholeState(handle: Pick<ConsoleHandle, 'service' | 'items'>): Promise<WholeState> {
  const state = await handle.service.getState({});
  const all = handle.items();
  return { ...state, items: all.filter((i): i is SamplingItemView => !isElicitationItem(i)), elicitations: all.filter(isElicitationItem) };
}

/** A running console for a test. */
export interface Harness extends ConsoleHandle {
  dir: string;
  /** The state now, items whole. */
  state(): Promise<WholeState>;
  /** Polls the state (items whole) until `pred` holds (default 20 s); returns the matching state. */
  waitFor(pred: (s: WholeState) => boolean, what: string, timeoutMs?: number): Promise<WholeState>;
}

/**
 * Starts a console. `servers` (the `mcpServers` object) and `providers` (providers.json content)
 * are written first when given; otherwise the embedded default is used. `openHistory`: another
 * history store than SQLite in the folder (e.g. `postgresHistory(url)`); `team`: the team database
 * it is an instance of (with `openHistory` from main/team/console-ports.ts).
 */
export async function startHarness(
  opts: { servers?: Record<string, unknown>; providers?: unknown; env?: Record<string, string>; dir?: string; openHistory?: ConsolePorts['openHistory']; team?: ConsolePorts['team'] } = {},
): Promise<Harness> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'mcp-console-test-'));
  if (opts.servers) writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: opts.servers }));
  if (opts.providers) writeFileSync(join(dir, 'providers.json'), JSON.stringify(opts.providers));
  const handle = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: { MCP_CONSOLE_GATEWAY_PORT: '0', ...opts.env }, ...(opts.openHistory && { openHistory: opts.openHistory }), ...(opts.team && { team: opts.team }) }); // the gateway on any free port: tests run side by side
  return {
    ...handle,
    dir,
    state: () => wholeState(handle),
    async waitFor(pred, what, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const state = await wholeState(handle);
        if (pred(state)) return state;
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}; state: ${JSON.stringify({ servers: state.servers, calls: state.calls, items: state.items.map((i) => [i.id, i.status]) }).slice(0, 2000)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/**
 * The `contentVersion` item `id` has now — what a person's review would show and a decision names
 * (shared/contract/api.ts) — waiting for it while a big payload's is still being computed.
 */
export async function seenVersion(h: Pick<Harness, 'waitFor'>, id: string, timeoutMs?: number): Promise<string> {
  const find = (s: WholeState) => [...s.items, ...s.elicitations].find((i) => i.id === id)?.contentVersion;
  return find(await h.waitFor((s) => find(s) !== undefined, `the version of item ${id}`, timeoutMs))!;
}

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** server-everything's stdio config entry, run with the test's own Node. */
export const everythingStdio = () => ({ command: process.execPath, args: [serverEverythingEntry(), 'stdio'] });
