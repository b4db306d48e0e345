/**
 * Verifying an audit trail: walks the chain in seq order, recomputing every record's hashes
 * (chain.ts), and names the first record that was edited, inserted or removed; then checks the
 * chain against its head row and its anchors (anchor-files.ts), which is what shows the newest
 * records deleted or the whole chain rewritten.
 *
 * How the first broken place is named (records numbered 1, 2, 3… each linked to the one before):
 * - its content hash does not match its fields, or its hash does not match its seq and link, and
 *   the record after it links straight to the one before it: it was **inserted**;
 * - its hash matches another seq (it was renumbered): records were **inserted** before it (its
 *   original seq is lower) or **removed** before it (higher);
 * - otherwise a record whose hashes do not match is **edited**;
 * - a gap in the seqs: the missing records were **removed**;
 * - a record that is whole but links to something other than the record before it: that one was
 *   **edited** and its hashes recomputed (or, linking to the one before that, it was **inserted**).
 */
import type { AuditFinding, AuditHead, AuditVerifyReport } from '../../shared/contract/audit.js';
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';
import { checkAnchorSignature, type AnchorFile, type TrustedKeys } from './anchor-files.js';
import { contentHashOf, EMPTY_HEAD, linkHashOf, type StoredAuditRecord } from './chain.js';
import { allRecords, type AuditStore } from './store.js';

/** How far a renumbered record's original seq is looked for, each way. */
const RENUMBER_SEARCH = 100_000;

/** What to verify. */
export interface VerifyInput {
  /** The records in ascending seq order, as stored. */
  records: AsyncIterable<StoredAuditRecord> | Iterable<StoredAuditRecord>;
  /**
   * The head the store names (its head row, or an export's head line): read `before` the records
   * were, and again `after` (a console may append meanwhile; omit `after` for a file).
   */
  storedHead?: { before: AuditHead; after?: AuditHead | (() => Promise<AuditHead>) };
  /** Anchor files and the keys trusted to have signed them. */
  anchors?: { files: readonly AnchorFile[]; trusted: TrustedKeys };
  /** Start after this point, known good (its record and those before it are not read); default: the start of the chain. */
  from?: AuditHead;
}

/** A finding from its code, records and text. */
function finding(code: AuditFinding['code'], text: UiText, at: { seq?: number; to?: number; anchor?: string } = {}): AuditFinding {
  return { code, ...at, ui: text, message: english(text) };
}

const contentOk = (r: StoredAuditRecord) => contentHashOf(r) === r.contentHash;
const linkOkAt = (r: StoredAuditRecord, seq: number, prevHash = r.prevHash) => linkHashOf(seq, prevHash, r.contentHash) === r.hash;

/** The seq `r`'s hash was made for, when it is another than its own (it was renumbered). */
function originalSeq(r: StoredAuditRecord): number | undefined {
  for (let d = 1; d <= RENUMBER_SEARCH; d++) {
    if (r.seq - d >= 1 && linkOkAt(r, r.seq - d)) return r.seq - d;
    if (linkOkAt(r, r.seq + d)) return r.seq + d;
  }
  return undefined;
}

/** The walk's state: the last record accepted, the one before it, and a broken record waiting for the next one. */
class ChainWalk {
  prev: AuditHead;
  prev2: string | undefined;
  held: StoredAuditRecord | undefined;
  first: AuditFinding | undefined;
  count = 0;
  last: AuditHead;
  /** Hashes of the records at the seqs asked for (anchored ones, the head row's). */
  readonly hashes = new Map<number, string>();

  constructor(
    start: AuditHead,
    readonly wanted: ReadonlySet<number>,
  ) {
    this.prev = start;
    this.last = start;
    if (wanted.has(start.seq)) this.hashes.set(start.seq, start.hash);
  }

  feed(r: StoredAuditRecord): void {
    this.count += 1;
    this.last = { seq: r.seq, hash: r.hash };
    if (this.wanted.has(r.seq)) this.hashes.set(r.seq, r.hash);
    if (this.first) return;
    if (this.held) {
      this.first = this.classifyHeld(this.held, r);
      this.held = undefined;
      return;
    }
    if (!contentOk(r) || !linkOkAt(r, r.seq)) {
      this.held = r; // named once the record after it is seen
      return;
    }
    const expected = this.prev.seq + 1;
    if (r.seq > expected) this.first = finding('removed', r.seq - 1 === expected ? ui('audit.removed', { seq: expected }) : ui('audit.removedRange', { seq: expected, to: r.seq - 1 }), { seq: expected, to: r.seq - 1 });
    else if (r.seq < expected) this.first = finding('inserted', ui('audit.inserted', { seq: r.seq }), { seq: r.seq });
    else if (r.prevHash !== this.prev.hash) {
      if (this.prev.seq > 0 && r.prevHash === this.prev2) this.first = finding('inserted', ui('audit.inserted', { seq: this.prev.seq }), { seq: this.prev.seq });
      else if (this.prev.seq > 0) this.first = finding('edited', ui('audit.editedRehashed', { seq: this.prev.seq }), { seq: this.prev.seq });
      else this.first = finding('edited', ui('audit.edited', { seq: r.seq }), { seq: r.seq });
    }
    if (this.first) return;
    this.prev2 = this.prev.hash;
    this.prev = { seq: r.seq, hash: r.hash };
  }

  /** Names a record whose own hashes do not match, knowing the record after it (if any). */
  classifyHeld(h: StoredAuditRecord, next: StoredAuditRecord | undefined): AuditFinding {
    if (next && contentOk(next) && next.prevHash === this.prev.hash && linkOkAt(next, next.seq - 1)) {
      return finding('inserted', ui('audit.inserted', { seq: h.seq }), { seq: h.seq });
    }
    if (contentOk(h)) {
      const original = originalSeq(h);
      // Renumbered up: the records now at `original`…`h.seq - 1` were inserted before it.
      if (original !== undefined && original < h.seq) return finding('inserted', ui('audit.inserted', { seq: original }), { seq: original });
      if (original !== undefined && original > h.seq) {
        return finding('removed', original - 1 === h.seq ? ui('audit.removedRenumbered', { seq: h.seq }) : ui('audit.removedRange', { seq: h.seq, to: original - 1 }), { seq: h.seq, to: original - 1 });
      }
    }
    return finding('edited', ui('audit.edited', { seq: h.seq }), { seq: h.seq });
  }

  end(): void {
    if (this.held && !this.first) this.first = this.classifyHeld(this.held, undefined);
    this.held = undefined;
  }
}

/** Findings of the head row against the records read (`last`, and the hashes the walk kept). */
function headFindings(walk: ChainWalk, stored: { before: AuditHead; after: AuditHead }): AuditFinding[] {
  const { last } = walk;
  const { before, after } = stored;
  if (last.seq < before.seq) return [finding('removed', ui('audit.truncatedHead', { seq: last.seq + 1, to: before.seq, last: last.seq }), { seq: last.seq + 1, to: before.seq })];
  if (last.seq > after.seq) return [finding('inserted', ui('audit.insertedAfterHead', { seq: after.seq + 1, head: after.seq }), { seq: after.seq + 1 })];
  const hash = walk.hashes.get(before.seq);
  if (hash !== undefined && hash !== before.hash) return [finding('rewritten', ui('audit.rewrittenHead', { seq: before.seq }), { seq: before.seq })];
  return [];
}

/** Findings of the anchors (unreadable or forged ones; the newest records removed; the chain rewritten) and the newest anchor that holds. */
function anchorFindings(walk: ChainWalk, anchors: NonNullable<VerifyInput['anchors']>, from: AuditHead): { findings: AuditFinding[]; checked: number; newest?: { seq: number; at: number; file: string } } {
  const findings: AuditFinding[] = [];
  let truncated: { seq: number; file: string; time: string } | undefined;
  let rewritten: { seq: number; file: string; time: string } | undefined;
  let newest: { seq: number; at: number; file: string } | undefined;
  for (const f of anchors.files) {
    if ('problem' in f) {
      findings.push(finding('forged', ui('audit.forgedUnreadable', { file: f.file, why: f.problem }), { anchor: f.file }));
      continue;
    }
    const { anchor } = f;
    const signature = checkAnchorSignature(anchor, anchors.trusted);
    if (signature !== 'ok') {
      findings.push(finding('forged', signature === 'unknown_key' ? ui('audit.forgedKey', { file: f.file, keyId: anchor.keyId }) : ui('audit.forgedSignature', { file: f.file }), { anchor: f.file, seq: anchor.seq }));
      continue;
    }
    if (anchor.seq < from.seq) continue; // before the point this check starts from
    if (anchor.seq > walk.last.seq) {
      if (!truncated || anchor.seq > truncated.seq) truncated = { seq: anchor.seq, file: f.file, time: anchor.time };
      continue;
    }
    if (walk.hashes.get(anchor.seq) !== anchor.hash) {
      if (!rewritten || anchor.seq < rewritten.seq) rewritten = { seq: anchor.seq, file: f.file, time: anchor.time };
      continue;
    }
    if (!newest || anchor.seq > newest.seq || (anchor.seq === newest.seq && anchor.at > newest.at)) newest = { seq: anchor.seq, at: anchor.at, file: f.file };
  }
  if (rewritten) findings.push(finding('rewritten', ui('audit.rewritten', { seq: rewritten.seq, file: rewritten.file, time: rewritten.time }), { seq: rewritten.seq, anchor: rewritten.file }));
  if (truncated) {
    const text = ui('audit.truncatedAnchor', { seq: walk.last.seq + 1, to: truncated.seq, last: walk.last.seq, file: truncated.file, time: truncated.time });
    findings.push(finding('removed', text, { seq: walk.last.seq + 1, to: truncated.seq, anchor: truncated.file }));
  }
  return { findings, checked: anchors.files.length, ...(newest && { newest }) };
}

/**
 * Verifies a chain (see the module doc). Resolves to the report: `intact` when nothing was found.
 * @throws (rejects) what reading `records` throws
 */
export async function verifyAuditChain(input: VerifyInput): Promise<AuditVerifyReport> {
  const from = input.from ?? EMPTY_HEAD;
  const wanted = new Set<number>([...(input.anchors?.files ?? []).flatMap((f) => ('anchor' in f ? [f.anchor.seq] : [])), ...(input.storedHead ? [input.storedHead.before.seq] : [])]);
  const walk = new ChainWalk(from, wanted);
  for await (const r of input.records) walk.feed(r);
  walk.end();
  const findings = walk.first ? [walk.first] : [];
  if (input.storedHead) {
    const { before, after = before } = input.storedHead;
    findings.push(...headFindings(walk, { before, after: typeof after === 'function' ? await after() : after }));
  }
  const anchors = input.anchors ? anchorFindings(walk, input.anchors, from) : { findings: [], checked: 0 };
  findings.push(...anchors.findings);
  return {
    intact: findings.length === 0,
    records: walk.count,
    last: walk.last,
    ...(input.storedHead && { storedHead: input.storedHead.before }),
    anchors: { checked: anchors.checked, ...(anchors.newest && { newest: anchors.newest }) },
    findings,
  };
}

/**
 * Verifies a store's chain: its head row read before and after the records (a console may append
 * meanwhile), every record, and `anchors` when given.
 * @throws (rejects) the store's error when it cannot be read
 */
export async function verifyAuditStore(store: AuditStore, anchors?: VerifyInput['anchors']): Promise<AuditVerifyReport> {
  const before = await store.head();
  return verifyAuditChain({ records: allRecords(store), storedHead: { before, after: () => store.head() }, ...(anchors && { anchors }) });
}
