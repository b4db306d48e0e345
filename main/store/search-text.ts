/**
 * What the history's full-text index holds for an entry, and how a person's search box text becomes
 * a safe FTS5 query. Pure functions; no database.
 */
import { typedTexts } from '../../shared/contract/drafts.js';
import type { HistoryEntry } from '../../shared/contract/state.js';

/** The text of one entry in the FTS5 columns of `history_fts` (same order as the table). */
export interface FtsColumns {
  server_id: string;
  /** The client request it belonged to, e.g. "tools/call trigger-sampling-request". */
  call_name: string;
  /** System prompts as received and as sent (distinct ones, newline-joined). */
  system_prompt: string;
  /** Text blocks of every message (received and sent), including text inside `tool_result`, and the person's unsent request edits. */
  prompt: string;
  /** Text of the generated and delivered responses, plus the names of tools the model called, and the person's unsent response or form text. */
  response: string;
}

/**
 * Extracts the searchable text of an entry. Reads `original` defensively (it may be raw params
 * that failed validation): anything that is not the expected shape is skipped, never thrown on.
 */
export function ftsColumns(entry: HistoryEntry): FtsColumns {
  const system = new Set<string>();
  const prompt = new Set<string>();
  for (const params of [entry.original, entry.sent]) {
    if (!isRecord(params)) continue;
    if (typeof params.systemPrompt === 'string') system.add(params.systemPrompt);
    if (Array.isArray(params.messages)) {
      for (const m of params.messages) if (isRecord(m)) collectText(m.content, prompt);
    }
  }
  const response = new Set<string>();
  for (const result of [entry.generated, entry.delivered]) {
    if (isRecord(result)) collectText(result.content, response);
  }
  // A draft that was never delivered is found by what the person typed.
  for (const typed of typedTexts(entry.draft)) (typed.kind === 'message' || typed.kind === 'systemPrompt' ? prompt : response).add(typed.text);
  return {
    server_id: entry.serverId,
    call_name: entry.callName ?? '',
    system_prompt: join(system),
    prompt: join(prompt),
    response: join(response),
  };
}

/**
 * Turns free text into an FTS5 MATCH expression that treats every word as a plain term: words
 * (split on whitespace) are quoted as FTS5 strings (`"` doubled), so operators (`OR`, `NOT`,
 * `NEAR`, `-`, `^`, `:`, `*`, parentheses) lose their meaning; all words must match (AND), and the
 * last word matches as a prefix (`"wor"*` finds "world"). Words without any letter or digit are
 * dropped. Returns null when nothing searchable is left (the caller then lists everything).
 * Example: `a OR "b` → `"a" "OR" """b"*`.
 */
export function toFtsQuery(query: string): string | null {
  const words = query.split(/\s+/u).filter((w) => /[\p{L}\p{N}\p{Co}]/u.test(w));
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** Adds the text of a content value (one block or an array) to `out`, descending into tool results. */
function collectText(content: unknown, out: Set<string>): void {
  for (const block of Array.isArray(content) ? content : [content]) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') out.add(block.text);
    else if (block.type === 'tool_result') collectText(block.content, out);
    else if (block.type === 'tool_use' && typeof block.name === 'string') out.add(block.name);
    else if (block.type === 'resource' && isRecord(block.resource) && typeof block.resource.text === 'string') {
      out.add(block.resource.text);
    }
  }
}

/**
 * Characters of each FTS column that are indexed (1 Mi): a 25 MB prompt is found by the words of
 * its first megabyte, and saving it does not tokenise 25 MB (seconds of blocked event loop) each time.
 */
export const FTS_COLUMN_MAX_CHARS = 1 << 20;

function join(texts: Set<string>): string {
  let out = '';
  for (const text of texts) {
    out += (out ? '\n' : '') + text.slice(0, FTS_COLUMN_MAX_CHARS - out.length);
    if (out.length >= FTS_COLUMN_MAX_CHARS) break;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
