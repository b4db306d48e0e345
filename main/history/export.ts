/**
 * Export of history sessions: JSONL (one {@link HistorySession} per line, the machine-readable
 * format documented in docs/history.md) or a readable Markdown / HTML report. Also the JSONL reader,
 * which the round-trip test (and a future import) uses.
 */
import { ApiError } from '../../shared/contract/api-error.js';
import {
  EXPORT_FORMATS,
  HistorySessionSchema,
  MAX_EXPORT_SESSIONS,
  SESSION_FORMAT,
  SESSION_FORMAT_VERSION,
  type ExportFormat,
  type ExportedFile,
  type HistoryFilter,
  type HistorySession,
} from '../../shared/contract/history.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import type { HistoryStore } from '../store/history-store.js';
import { isoTime, reportSessions } from './report-model.js';
import { reportHtml, reportMarkdown, type ReportHeader } from './report-writers.js';
import { ui } from '../../shared/contract/ui-text.js';
import { auditExportLines, auditLineKind } from '../audit/export.js';
import type { AuditStore } from '../audit/store.js';

/** What to export: the sessions of the given entry ids, or of the entries matching a filter. */
export interface ExportRequest {
  ids?: readonly string[];
  filter?: HistoryFilter;
  format: ExportFormat;
}

const MIME: Record<ExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
};
const EXTENSION: Record<ExportFormat, string> = { jsonl: 'jsonl', markdown: 'md', html: 'html' };

/** A session as one JSONL record. `entries` are one conversation's entries, oldest first (≥ 1). */
export function toSession(entries: readonly HistoryEntry[]): HistorySession {
  const first = entries[0];
  if (!first) throw new RangeError('a session has at least one entry');
  const ends = entries.map((e) => e.endedAt);
  const session: HistorySession = {
    format: SESSION_FORMAT,
    version: SESSION_FORMAT_VERSION,
    conversationId: first.conversationId,
    serverId: first.serverId,
    startedAt: first.receivedAt,
    requests: [...entries],
  };
  if (ends.every((e) => e !== undefined)) session.endedAt = Math.max(...(ends as number[]));
  return session;
}

/** JSONL text of sessions: one JSON object per line, `\n`-terminated. */
export function toJsonl(sessions: readonly HistorySession[]): string {
  return sessions.map((s) => `${JSON.stringify(s)}\n`).join('');
}

/**
 * Reads JSONL written by {@link toJsonl}: blank lines and the audit trail's lines (main/audit/
 * export.ts) are skipped, every other line must be a session of a known format and version.
 * @throws SyntaxError naming the line for invalid JSON or a line that is not a session.
 */
export function parseJsonl(text: string): HistorySession[] {
  const out: HistorySession[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new SyntaxError(`line ${i + 1}: ${(err as Error).message}`, { cause: err });
    }
    if (auditLineKind(value) !== 'other') return;
    const parsed = HistorySessionSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SyntaxError(`line ${i + 1}: not a history session (${issue?.path.join('.') || 'top level'}: ${issue?.message})`);
    }
    out.push(parsed.data as unknown as HistorySession);
  });
  return out;
}

/**
 * Builds the export file. Selection: `ids` (their whole sessions) when given, else `filter`
 * (sessions with at least one matching entry; `{}` = all). Sessions newest first, their entries
 * oldest first, media inline. JSONL carries the whole audit trail of `audit` after the sessions
 * (its head line, then every record), so the file can be verified elsewhere.
 * @throws ApiError `invalid_input` when more than MAX_EXPORT_SESSIONS sessions are selected or the
 *   format is unknown; `not_found` when nothing is selected.
 */
export async function exportHistory(store: HistoryStore, req: ExportRequest, now: number, audit?: AuditStore): Promise<ExportedFile> {
  if (!EXPORT_FORMATS.includes(req.format)) throw new ApiError('invalid_input', `unknown export format ${String(req.format)}`);
  const selection = req.ids !== undefined ? { ids: req.ids } : { filter: req.filter ?? {} };
  const ids = await store.sessions(selection, MAX_EXPORT_SESSIONS + 1);
  if (ids.length > MAX_EXPORT_SESSIONS) {
    throw new ApiError('invalid_input', ui('error.exportTooMany', { max: MAX_EXPORT_SESSIONS.toLocaleString('en-US') }));
  }
  if (ids.length === 0) throw new ApiError('not_found', ui('error.exportNone'));
  const sessions: HistorySession[] = [];
  for (const c of ids) {
    const session = toSession(await store.conversation(c));
    if (session.requests.length > 0) sessions.push(session);
  }
  const entries = sessions.reduce((n, s) => n + s.requests.length, 0);
  const header: ReportHeader = {
    title: 'MCP Approval Console — history report',
    lines: [
      `Exported ${isoTime(now)}`,
      `${sessions.length} session${sessions.length === 1 ? '' : 's'}, ${entries} request${entries === 1 ? '' : 's'}`,
      ...(req.ids === undefined && req.filter && Object.keys(req.filter).length > 0 ? [`Filter: ${JSON.stringify(req.filter)}`] : []),
    ],
  };
  const content =
    req.format === 'jsonl'
      ? toJsonl(sessions) + (audit ? await auditText(audit, now) : '')
      : req.format === 'markdown'
        ? reportMarkdown(header, reportSessions(sessions))
        : reportHtml(header, reportSessions(sessions));
  const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');
  return { filename: `mcp-history-${stamp}.${EXTENSION[req.format]}`, mimeType: MIME[req.format], content, sessions: sessions.length, entries };
}

/** The audit trail's export lines as one text. */
async function auditText(audit: AuditStore, now: number): Promise<string> {
  const lines: string[] = [];
  for await (const line of auditExportLines(audit, now)) lines.push(line);
  return lines.join('');
}
