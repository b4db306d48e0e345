/**
 * The bridge's report of what its server does, for the console's Servers screen: every second at
 * most, the protocol log entries and stderr lines written since the last report and the host's
 * client requests that started or ended meanwhile (shared/contract/bridge-protocol.ts
 * `activity`), and the host's clientInfo once it is known (and whenever it changes). Nothing is sent while nothing happened, and nothing while the channel is closed (a
 * report never starts the console). Bounded: the newest 500 entries, 200 lines, 100 calls.
 */
import type { BridgeActivity, BridgeCall, BridgeVia } from '../../shared/contract/bridge-protocol.js';
import type { ServerLog } from '../mcp/protocol-log.js';

/** How often the bridge reports, ms. */
export const ACTIVITY_EVERY_MS = 1000;

/** A running reporter. */
export interface ActivityReports {
  /** Notes a host call's start or end for the next report. */
  noteCall(call: BridgeCall, phase: 'started' | 'ended'): void;
  /** Stops reporting (after one last report). */
  stop(): void;
}

/** What the reporter reads and where it sends: the server's log, the host once known (`via`), every `everyMs` (default {@link ACTIVITY_EVERY_MS}). */
export interface ActivityReportOptions {
  log: ServerLog;
  send(report: BridgeActivity): void;
  via?(): BridgeVia | undefined;
  everyMs?: number;
}

/** Starts reporting `log` and the noted calls through `send`. */
export function startActivityReports(opts: ActivityReportOptions): ActivityReports {
  let protocolSeq = 0;
  let stderrSeq = 0;
  let calls = new Map<string, BridgeActivity['calls'][number]>();
  let viaSent: string | undefined;
  const report = () => {
    const protocol = opts.log.protocol.toArray().filter((e) => e.seq > protocolSeq);
    const stderr = opts.log.stderr.toArray().filter((e) => e.seq > stderrSeq);
    const via = opts.via?.();
    const viaKey = via && JSON.stringify(via);
    if (protocol.length === 0 && stderr.length === 0 && calls.size === 0 && viaKey === viaSent) return;
    viaSent = viaKey;
    protocolSeq = protocol.at(-1)?.seq ?? protocolSeq;
    stderrSeq = stderr.at(-1)?.seq ?? stderrSeq;
    const noted = [...calls.values()].slice(-100);
    calls = new Map();
    opts.send({ type: 'activity', ...(via && { via }), protocol: protocol.slice(-500).map(({ seq: _seq, at: _at, ...e }) => e), stderr: stderr.slice(-200).map((e) => e.text.slice(0, 10_000)), calls: noted });
  };
  const timer = setInterval(report, opts.everyMs ?? ACTIVITY_EVERY_MS);
  timer.unref();
  return {
    noteCall(call, phase) {
      calls.set(call.callId, { ...call, ...(phase === 'ended' && { ended: true }) });
    },
    stop() {
      clearInterval(timer);
      report();
    },
  };
}
