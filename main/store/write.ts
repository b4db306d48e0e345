/**
 * Writing one entry into the version-2 tables: media payloads to `blobs` (once per content), the
 * narrow and data rows under the entry's `seq`, its blob links, and its FTS row. Runs inside the
 * caller's transaction. Used by the store's `save` and by migration 2 (which copies v1 rows); a
 * later migration that changes these tables must freeze a copy of this for migration 2.
 */
import type { HistoryEntry } from '../../shared/contract/state.js';
import { collectBlobs, type Prepare } from './maintenance.js';
import { TEXT_FILE_MIME } from './big-texts.js';
import { externalizeMedia, type TextRef } from './media.js';
import { SEQ_PER_MS, SQL, entryToRows, seqBase, updateNarrowColumns, updateNarrowSql, type NarrowRow } from './rows.js';
import { ftsColumns, type FtsColumns } from './search-text.js';

/** What this connection last wrote for an entry: its `seq`, its FTS text, and its `history` row. */
export interface IndexedText {
  seq: number;
  /** The FTS columns joined (see {@link ftsKey}). */
  key: string;
  /** The `history` row as written (latest schema only), so the next save updates only what changed. */
  narrow?: NarrowRow;
}

/** The FTS columns of an entry as one string, for "did the searchable text change?". */
export function ftsKey(cols: FtsColumns): string {
  return `${cols.server_id}\u0000${cols.call_name}\u0000${cols.system_prompt}\u0000${cols.prompt}\u0000${cols.response}`;
}

/**
 * Inserts or replaces `entry` in the tables of `schema` (the latest unless migration 2 calls). An entry keeps its `seq` while its `receivedAt` stays in the same
 * millisecond; if `receivedAt` moved, it is removed and inserted again under a new `seq` (so the
 * newest-first order stays exact).
 *
 * `indexed`: what this connection last wrote for this id (the caller keeps it, and must drop it
 * when the transaction rolls back). When the entry keeps its `seq` and its searchable text is
 * unchanged, the FTS row is left alone: rewriting it (delete + insert, which in FTS5 also writes a
 * new index segment per transaction) is the largest part of a save, and the pipeline saves every
 * transition of a request while its text stays the same until a response arrives. Likewise only
 * the `history` columns that changed are updated: setting a column rewrites the entry's key in
 * every index holding it (id, session, server, statistics, rule: each a page written to the WAL)
 * even when the value is the same. Returns the `seq`, the indexed text and the row, for the caller
 * to remember.
 *
 * `textRef`: the files of big texts written before (./big-texts.ts); those strings are stored as
 * references and linked like media.
 * @throws TypeError when a part cannot be JSON-encoded; SqliteError on I/O failure.
 */
export function writeEntry(
  prepare: Prepare,
  entry: HistoryEntry,
  schema: 2 | 3 | 5 = 5,
  indexed?: IndexedText,
  textRef?: (text: string) => TextRef | undefined,
): IndexedText {
  const { entry: stored, blobs, texts } = externalizeMedia(entry, textRef);
  const { narrow, data } = entryToRows(stored, { bytes: blobs.reduce((n, b) => n + b.bytes, 0), count: blobs.length }, schema);
  const insertNarrow = schema === 2 ? SQL.insertNarrowV2 : schema === 3 ? SQL.insertNarrowV3 : SQL.insertNarrow;
  const updateNarrow = schema === 2 ? SQL.updateNarrowV2 : schema === 3 ? SQL.updateNarrowV3 : SQL.updateNarrow;
  const base = seqBase(entry.receivedAt);
  const existing = (prepare(SQL.seqOf).get({ id: entry.id }) as { seq: number } | undefined)?.seq;
  const cols = ftsColumns(entry);
  const key = ftsKey(cols);
  let seq: number;
  let before: string[] = [];
  let ftsCurrent = false;
  if (existing !== undefined && existing >= base && existing < base + SEQ_PER_MS) {
    seq = existing;
    before = (prepare(SQL.blobLinks).all({ seq }) as { sha256: string }[]).map((r) => r.sha256);
    const last = schema === 5 && indexed?.seq === seq ? indexed.narrow : undefined;
    if (last === undefined) prepare(updateNarrow).run({ ...narrow, seq });
    else {
      const changed = updateNarrowColumns.filter((c) => last[c] !== narrow[c]);
      if (changed.length > 0) prepare(updateNarrowSql(changed)).run(Object.fromEntries([['seq', seq], ...changed.map((c) => [c, narrow[c]])]));
    }
    prepare(SQL.updateData).run({ ...data, seq });
    if (before.length > 0) prepare(SQL.blobUnlink).run({ seq });
    ftsCurrent = indexed !== undefined && indexed.seq === seq && indexed.key === key;
    if (!ftsCurrent) prepare(SQL.ftsDelete).run({ seq });
  } else {
    if (existing !== undefined) {
      before = (prepare(SQL.blobLinks).all({ seq: existing }) as { sha256: string }[]).map((r) => r.sha256);
      prepare(SQL.ftsDelete).run({ seq: existing });
      prepare(SQL.deleteNarrow).run({ seq: existing }); // data and links cascade
    }
    const taken = (prepare(SQL.maxSeq).get({ lo: base, hi: base + SEQ_PER_MS }) as { s: number | null }).s;
    // A 1001st entry in one millisecond spills into the next one's range; still unique, since
    // every allocation takes the maximum of its range plus one.
    seq = taken === null ? base : taken + 1;
    prepare(insertNarrow).run({ ...narrow, seq });
    prepare(SQL.insertData).run({ ...data, seq });
  }
  for (const b of blobs) {
    prepare(SQL.blobInsert).run({ sha256: b.sha256, bytes: b.bytes, mimeType: b.mimeType, data: b.data });
    prepare(SQL.blobLink).run({ seq, sha256: b.sha256 });
  }
  for (const t of texts) {
    prepare(SQL.blobInsert).run({ sha256: t.sha256, bytes: t.bytes, mimeType: TEXT_FILE_MIME, data: '' });
    prepare(SQL.blobLink).run({ seq, sha256: t.sha256 });
  }
  const dropped = before.filter((h) => !blobs.some((b) => b.sha256 === h) && !texts.some((t) => t.sha256 === h));
  if (dropped.length > 0) collectBlobs(prepare, dropped);
  if (!ftsCurrent) prepare(SQL.ftsInsert).run({ seq, ...cols });
  return { seq, key, ...(schema === 5 ? { narrow: { ...narrow, seq } } : {}) };
}
