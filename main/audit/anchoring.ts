/**
 * Writing anchors: on demand (`mcp-approval-console audit anchor`) and on a schedule while the
 * console runs (audit-settings.json, settings.ts). An anchor is only written for a chain that
 * verifies: the chain since the newest good anchor in the folder (all of it the first time) is
 * checked first, so an anchor never vouches for records that were changed since the last one.
 */
import { existsSync } from 'node:fs';
import type { AuditAnchor, AuditHead, AuditVerifyReport } from '../../shared/contract/audit.js';
import type { Logger } from '../logger.js';
import { checkAnchorSignature, readAnchorFiles, readTrustedKeys, signAnchor, writeAnchorFile, type AnchorFile, type SigningKey } from './anchor-files.js';
import { EMPTY_HEAD } from './chain.js';
import { allRecords, type AuditStore } from './store.js';
import { verifyAuditChain } from './verify.js';

/** Thrown instead of anchoring a chain that does not verify since the last anchor. */
export class AuditTamperedError extends Error {
  constructor(readonly report: AuditVerifyReport) {
    super(`The audit trail does not verify, so no anchor was written: ${report.findings[0]?.message ?? 'unknown problem'}`);
    this.name = 'AuditTamperedError';
  }
}

/** What {@link anchorNow} wrote (or found already anchored). */
export interface AnchorResult {
  /** The anchor file written; undefined when `onlyIfMoved` found the head anchored already. */
  file?: string;
  anchor?: AuditAnchor;
  head: AuditHead;
}

/** The newest anchor in `files` signed by a trusted key (highest seq, then latest). */
function newestGood(files: readonly AnchorFile[], trusted: ReturnType<typeof readTrustedKeys>): AuditAnchor | undefined {
  let best: AuditAnchor | undefined;
  for (const f of files) {
    if (!('anchor' in f) || checkAnchorSignature(f.anchor, trusted) !== 'ok') continue;
    if (!best || f.anchor.seq > best.seq || (f.anchor.seq === best.seq && f.anchor.at > best.at)) best = f.anchor;
  }
  return best;
}

/**
 * Verifies `store`'s chain since the newest good anchor in `folder` and writes a signed anchor of
 * its head there. `onlyIfMoved`: write nothing when that anchor already names the head.
 * @throws AuditTamperedError when the chain does not verify (a forged or unreadable anchor file
 *   in the folder counts); the fs error when the folder cannot be read or written; the store's
 *   error when it cannot be read
 */
export async function anchorNow(store: AuditStore, opts: { folder: string; key: SigningKey; now: number; onlyIfMoved?: boolean }): Promise<AnchorResult> {
  const files = existsSync(opts.folder) ? readAnchorFiles(opts.folder) : [];
  const trusted = existsSync(opts.folder) ? readTrustedKeys([], opts.folder) : new Map();
  trusted.set(opts.key.keyId, opts.key.publicKey);
  const base = newestGood(files, trusted);
  const before = await store.head();
  // Start at the anchored record itself, so its hash is compared with the anchor's.
  const startSeq = base ? base.seq : 0;
  const first = startSeq > 0 ? await store.at(startSeq) : null;
  const from = startSeq > 0 ? { seq: startSeq - 1, hash: first?.prevHash ?? EMPTY_HEAD.hash } : EMPTY_HEAD;
  const report = await verifyAuditChain({
    records: allRecords(store, Math.max(1, startSeq)),
    from,
    storedHead: { before, after: await store.head() },
    anchors: { files, trusted },
  });
  if (!report.intact) throw new AuditTamperedError(report);
  const head = report.last;
  if (opts.onlyIfMoved && base && base.seq === head.seq && base.hash === head.hash) return { head };
  const anchor = signAnchor(head, opts.now, opts.key);
  return { file: writeAnchorFile(opts.folder, anchor, opts.key.publicPem), anchor, head };
}

/** The schedule's handle. */
export interface Anchoring {
  /** Anchors now if the head moved since the last anchor (errors logged and reported, never thrown). */
  tick(): Promise<void>;
  /** Stops the timer, then anchors once more (the state at shutdown). */
  stop(): Promise<void>;
}

/** What the schedule needs. */
export interface AnchoringOptions {
  store: AuditStore;
  folder: string;
  everyMs: number;
  /** The signing key (loaded, or made, on first use). */
  key: () => SigningKey;
  now: () => number;
  logger: Logger;
  /** Told when an anchor could not be written: the chain did not verify (`report`), or another failure. */
  onProblem(problem: { report: AuditVerifyReport } | { error: string }): void;
}

/** Starts anchoring every `everyMs` (the timer never keeps the process alive). */
export function startAnchoring(opts: AnchoringOptions): Anchoring {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let lastProblem = '';
  const once = async () => {
    try {
      const done = await anchorNow(opts.store, { folder: opts.folder, key: opts.key(), now: opts.now(), onlyIfMoved: true });
      if (done.file) opts.logger.info('audit trail anchored', { file: done.file, seq: done.head.seq });
      lastProblem = '';
    } catch (err) {
      const problem: { report: AuditVerifyReport } | { error: string } = err instanceof AuditTamperedError ? { report: err.report } : { error: err instanceof Error ? err.message : String(err) };
      const text = 'report' in problem ? (problem.report.findings[0]?.message ?? '') : problem.error;
      opts.logger.error('could not anchor the audit trail', { folder: opts.folder, error: text });
      if (text !== lastProblem) opts.onProblem(problem); // once per distinct problem, not every hour
      lastProblem = text;
    }
  };
  const tick = () => (running = running.then(once));
  const timer = setInterval(() => void tick(), opts.everyMs);
  timer.unref?.();
  return {
    tick,
    async stop() {
      if (stopped) return running;
      stopped = true;
      clearInterval(timer);
      return tick();
    },
  };
}
