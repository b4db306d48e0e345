/**
 * The console's record of what each bridged server does, from its bridge's activity reports
 * (main/bridge/activity.ts): a protocol and stderr log like a connection of the console's own
 * (`getServerLog`), and the host's recent client requests (the last {@link CALLS_KEPT}; their times
 * are when the console heard of their start and end: within a second of them).
 */
import type { BridgeActivity } from '../../shared/contract/bridge-protocol.js';
import type { BridgedCallView } from '../../shared/contract/state.js';
import { ServerLog } from '../mcp/protocol-log.js';

/** Host calls kept per bridged server. */
export const CALLS_KEPT = 10;

interface ServerActivity {
  log: ServerLog;
  calls: BridgedCallView[];
}

/** The activity of every bridged server the console heard from since it started. */
export interface BridgeActivityStore {
  /** Takes a report of `serverId`'s bridge. */
  add(serverId: string, report: BridgeActivity): void;
  /** `serverId`'s log, when its bridge reported. */
  log(serverId: string): ServerLog | undefined;
  /** `serverId`'s recent host calls, newest first. */
  calls(serverId: string): BridgedCallView[];
}

/** Creates the store; `now` stamps calls (epoch ms). */
export function createBridgeActivityStore(now: () => number): BridgeActivityStore {
  const servers = new Map<string, ServerActivity>();
  const of = (serverId: string) => {
    let a = servers.get(serverId);
    if (!a) servers.set(serverId, (a = { log: new ServerLog(now), calls: [] }));
    return a;
  };
  return {
    add(serverId, report) {
      const a = of(serverId);
      for (const entry of report.protocol) a.log.addProtocol(entry);
      for (const text of report.stderr) a.log.addStderr(text);
      a.calls = nextCalls(a.calls, report.calls, now());
    },
    log: (serverId) => servers.get(serverId)?.log,
    calls: (serverId) => servers.get(serverId)?.calls ?? [],
  };
}

/** The calls after a report: new ones added (newest first), ended ones stamped. */
function nextCalls(known: BridgedCallView[], noted: BridgeActivity['calls'], at: number): BridgedCallView[] {
  let calls = known;
  for (const { ended, ...call } of noted) {
    const i = calls.findIndex((c) => c.callId === call.callId);
    if (i < 0) calls = [{ ...call, startedAt: at, ...(ended && { endedAt: at }) }, ...calls];
    else if (ended) calls = calls.map((c, j) => (j === i ? { ...c, endedAt: at } : c));
  }
  return calls.slice(0, CALLS_KEPT);
}
