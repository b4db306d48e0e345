import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerConnection } from '../../main/mcp/connection.js';
import type { EraNeed, EraNeeds } from '../../main/mcp/era-needs.js';
import { createEraSessions, ERA_SESSION_IDLE_MS } from '../../main/mcp/era-sessions.js';
import { silentLogger } from '../../main/ports.js';
import type { ProtocolEra } from '../../shared/contract/primitives.js';

/** A connection that only knows its era, status and in-flight count. */
function fakeConnection(era: ProtocolEra, status: 'ready' | 'error' = 'ready') {
  const conn = { era, closed: false, busy: 0, connect: vi.fn(async () => undefined), close: vi.fn(async () => void (conn.closed = true)), inFlight: () => conn.busy, view: () => ({ era, status, error: status === 'error' ? 'spawn failed' : undefined }) };
  return conn;
}
const asConn = (c: ReturnType<typeof fakeConnection>) => c as unknown as ServerConnection;

function needsOf(map: Record<string, ProtocolEra>): EraNeeds {
  const need = (needs: ProtocolEra): EraNeed => ({ needs, learned: 'failure', detail: '', at: 0 });
  return { get: (_s, tool) => (map[tool] ? need(map[tool]!) : undefined), forServer: () => ({}), set: () => undefined };
}

afterEach(() => vi.useRealTimers());

describe('second sessions in the era a tool needs', () => {
  it('uses the server’s own connection unless the tool needs the other era; opens one session on demand and reuses it', async () => {
    const primary = fakeConnection('modern');
    const opened: Array<ReturnType<typeof fakeConnection>> = [];
    const sessions = createEraSessions({ needs: needsOf({ push_tool: 'legacy', resolve_tool: 'modern' }), logger: silentLogger, open: (_id, era) => (opened.push(fakeConnection(era)), asConn(opened.at(-1)!)) });
    expect(await sessions.forTool('py', 'other_tool', asConn(primary))).toBe(primary);
    expect(await sessions.forTool('py', 'resolve_tool', asConn(primary))).toBe(primary);
    const first = await sessions.forTool('py', 'push_tool', asConn(primary));
    const again = await sessions.forTool('py', 'push_tool', asConn(primary));
    expect(first).toBe(again);
    expect(opened.map((c) => c.era)).toEqual(['legacy']);
    expect(opened[0]!.connect).toHaveBeenCalledTimes(1);
    await sessions.closeAll();
    expect(opened[0]!.closed).toBe(true);
  });

  it('closes a session after it has been idle, not while a call is in flight on it', async () => {
    vi.useFakeTimers();
    const primary = fakeConnection('modern');
    const second = fakeConnection('legacy');
    const sessions = createEraSessions({ needs: needsOf({ push_tool: 'legacy' }), logger: silentLogger, open: () => asConn(second) });
    await sessions.forTool('py', 'push_tool', asConn(primary));
    second.busy = 1;
    await vi.advanceTimersByTimeAsync(ERA_SESSION_IDLE_MS + 10);
    expect(second.closed).toBe(false);
    second.busy = 0;
    await vi.advanceTimersByTimeAsync(ERA_SESSION_IDLE_MS + 10);
    expect(second.closed).toBe(true);
  });

  it('a session that cannot be opened fails the call with why, and is tried afresh next time', async () => {
    const primary = fakeConnection('modern');
    let tries = 0;
    const sessions = createEraSessions({ needs: needsOf({ push_tool: 'legacy' }), logger: silentLogger, open: () => (tries++, asConn(fakeConnection('legacy', 'error'))) });
    await expect(sessions.forTool('py', 'push_tool', asConn(primary))).rejects.toThrow(/could not open a 2025-11-25 session to "py" for push_tool: spawn failed/);
    await expect(sessions.forTool('py', 'push_tool', asConn(primary))).rejects.toThrow(/spawn failed/);
    expect(tries).toBe(2);
  });
});
