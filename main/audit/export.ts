/**
 * The audit trail as JSONL lines, exported with History (main/history/export.ts) so it can be
 * verified elsewhere (`mcp-approval-console audit verify --file export.jsonl`): one head line
 * (shared/contract/audit.ts {@link AuditHeadLineSchema}: the chain's head when it was exported),
 * then every record up to that head, oldest first ({@link AuditRecordLineSchema}: each field
 * exactly as stored, so every hash can be recomputed).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  AUDIT_EXPORT_VERSION,
  AUDIT_HEAD_FORMAT,
  AUDIT_RECORD_FORMAT,
  AuditHeadLineSchema,
  AuditRecordLineSchema,
  type AuditHeadLine,
  type AuditRecordLine,
} from '../../shared/contract/audit.js';
import type { StoredAuditRecord } from './chain.js';
import { allRecords, type AuditStore } from './store.js';

/** A stored record as an export line. */
export function lineOfRecord(r: StoredAuditRecord): AuditRecordLine {
  return {
    format: AUDIT_RECORD_FORMAT,
    version: AUDIT_EXPORT_VERSION,
    seq: r.seq,
    at: r.at,
    actor: { kind: r.actorKind, id: r.actorId, name: r.actorName },
    kind: r.kind,
    subject: r.subject,
    details: r.details,
    prevHash: r.prevHash,
    contentHash: r.contentHash,
    hash: r.hash,
  };
}

/** An export line as the stored record it was. */
export function recordOfLine(l: AuditRecordLine): StoredAuditRecord {
  return { seq: l.seq, at: l.at, actorKind: l.actor.kind, actorId: l.actor.id, actorName: l.actor.name, kind: l.kind, subject: l.subject, details: l.details, prevHash: l.prevHash, contentHash: l.contentHash, hash: l.hash };
}

/**
 * The trail's export lines (each `\n`-terminated): the head line, then the records up to that head
 * (records appended meanwhile are left for the next export). `now`: the export's time, epoch ms.
 */
export async function* auditExportLines(store: AuditStore, now: number): AsyncGenerator<string> {
  const head = await store.head();
  const line: AuditHeadLine = { format: AUDIT_HEAD_FORMAT, version: AUDIT_EXPORT_VERSION, seq: head.seq, hash: head.hash, exportedAt: now };
  yield `${JSON.stringify(line)}\n`;
  for await (const r of allRecords(store)) {
    if (r.seq > head.seq) return;
    yield `${JSON.stringify(lineOfRecord(r))}\n`;
  }
}

/** What a JSONL line is, judged by its `format` (history sessions and anything else: `other`). */
export function auditLineKind(value: unknown): 'record' | 'head' | 'other' {
  const format = typeof value === 'object' && value !== null ? (value as { format?: unknown }).format : undefined;
  return format === AUDIT_RECORD_FORMAT ? 'record' : format === AUDIT_HEAD_FORMAT ? 'head' : 'other';
}

/** An export file's audit part, read line by line. */
export interface AuditExportFile {
  /** The head line, when the file has one. */
  head?: AuditHeadLine;
  /** Audit record lines in file order (a second pass over the file). */
  records(): AsyncGenerator<StoredAuditRecord>;
  /** Audit lines found by the first pass. */
  count: number;
}

/** The lines of `path`, numbered from 1. */
async function* linesOf(path: string): AsyncGenerator<[number, string]> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) yield [++n, line];
}

/** The line's JSON and kind; blank lines skipped. @throws SyntaxError naming the line */
function parseLine(n: number, line: string): { kind: ReturnType<typeof auditLineKind>; value: unknown } | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new SyntaxError(`line ${n}: ${(err as Error).message}`, { cause: err });
  }
  return { kind: auditLineKind(value), value };
}

/**
 * Opens a History JSONL export for verification: finds its head line (first pass); records are
 * read by a second pass. Lines that are not the audit trail's (History's sessions) are skipped.
 * @throws (rejects) SyntaxError naming a line that is not JSON, or an audit line that breaks its
 *   format; the fs error when the file cannot be read
 */
export async function readAuditExport(path: string): Promise<AuditExportFile> {
  let head: AuditHeadLine | undefined;
  let count = 0;
  for await (const [n, line] of linesOf(path)) {
    const parsed = parseLine(n, line);
    if (!parsed || parsed.kind === 'other') continue;
    count += 1;
    if (parsed.kind === 'head') {
      const checked = AuditHeadLineSchema.safeParse(parsed.value);
      if (!checked.success) throw new SyntaxError(`line ${n}: not an audit head line (${checked.error.issues[0]?.message})`);
      if (head) throw new SyntaxError(`line ${n}: a second audit head line`);
      head = checked.data;
    }
  }
  return {
    ...(head && { head }),
    count,
    async *records() {
      for await (const [n, line] of linesOf(path)) {
        const parsed = parseLine(n, line);
        if (parsed?.kind !== 'record') continue;
        const checked = AuditRecordLineSchema.safeParse(parsed.value);
        if (!checked.success) throw new SyntaxError(`line ${n}: not an audit record line (${checked.error.issues[0]?.path.join('.') || 'top level'}: ${checked.error.issues[0]?.message})`);
        yield recordOfLine(checked.data);
      }
    },
  };
}
