/**
 * Full-text search in PostgreSQL, matching the desktop's SQLite FTS5 index (unicode61 tokenizer,
 * diacritics removed; ../search-text.ts, ../query.ts): the same fields, words as written (no
 * stemming, no stop words), case and accents ignored, every word of a query required, the last
 * one as a prefix, operators meaning nothing.
 *
 * Words are cut here, not by PostgreSQL's parser: FTS5 splits on every character that is not a
 * letter, a number or private use (so `user@example.com` holds the words user, example, com),
 * while PostgreSQL's parser keeps e-mail addresses, URLs, paths and version numbers whole (a search
 * for "example" would then miss it). The document is sent as those words, lowercased (Unicode-wide,
 * whatever the database's locale) and space-separated; PostgreSQL folds accents (`unaccent`) and
 * stores them (`simple`), through the `history_search` configuration (migrations/0001_history.sql).
 * A query is cut the same way and handed to `to_tsquery` with that configuration. Pure functions.
 */
import type { HistoryEntry } from '../../../shared/contract/state.js';
import { ftsColumns } from '../search-text.js';

/** Characters of an entry's text that are cut into words (1 Mi): the rest is not searchable. */
export const DOCUMENT_MAX_CHARS = 1 << 20;

/**
 * Bytes of lexemes and positions a document may give PostgreSQL (its limit for one tsvector is
 * 1 MiB, and `unaccent` can lengthen a word): words past this budget are not indexed.
 */
const TSVECTOR_BUDGET_BYTES = 700_000;

/** Longest word indexed, in UTF-8 bytes (PostgreSQL ignores longer ones, with a notice). */
const MAX_WORD_BYTES = 2_000;

/** Word separators: anything but letters, marks, numbers and private use (FTS5 unicode61's token characters). */
const SEPARATORS = /[^\p{L}\p{M}\p{N}\p{Co}]+/u;

/** The words of `text`, NFC-normalised and lowercased, in order. */
export function words(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .split(SEPARATORS)
    .filter((w) => w !== '');
}

/**
 * The searchable text of an entry as PostgreSQL indexes it: its words (server id, call name,
 * system prompts, message text, response text, a draft's typed text) space-separated, within
 * {@link DOCUMENT_MAX_CHARS} characters and the tsvector budget.
 */
export function searchDocument(entry: HistoryEntry): string {
  const cols = ftsColumns(entry);
  const text = [cols.server_id, cols.call_name, cols.system_prompt, cols.prompt, cols.response].join('\n').slice(0, DOCUMENT_MAX_CHARS);
  const counts = new Map<string, number>();
  const kept: string[] = [];
  let bytes = 0;
  for (const word of words(text)) {
    const size = Buffer.byteLength(word);
    if (size > MAX_WORD_BYTES) continue;
    const seen = counts.get(word) ?? 0;
    // A new lexeme costs its bytes and a header; each of its first 256 positions two bytes.
    const cost = (seen === 0 ? size + 6 : 0) + (seen < 256 ? 2 : 0);
    if (bytes + cost > TSVECTOR_BUDGET_BYTES) break;
    bytes += cost;
    counts.set(word, seen + 1);
    kept.push(word);
  }
  return kept.join(' ');
}

/**
 * Turns a person's search box text into a `to_tsquery` expression (configuration
 * `history_search`): words (split on whitespace) without any letter or digit are dropped; each
 * word is cut like the documents, its pieces quoted and joined as a phrase (`<->`, as FTS5 reads
 * `"hello-world"`); words are joined with `&`; the last piece of the last word is a prefix (`:*`).
 * Returns null when nothing searchable is left (the caller then lists everything).
 * Example: `Zürich hello-wor` → `'zürich' & ('hello' <-> 'wor':*)`.
 */
export function toTsQuery(query: string): string | null {
  const typed = query.split(/\s+/u).filter((w) => /[\p{L}\p{N}\p{Co}]/u.test(w));
  const parts = typed.map(words).filter((pieces) => pieces.length > 0);
  if (parts.length === 0) return null;
  return parts
    .map((pieces, i) => {
      const last = i === parts.length - 1;
      const quoted = pieces.map((p, j) => `'${p.replaceAll("'", "''").replaceAll('\\', '\\\\')}'${last && j === pieces.length - 1 ? ':*' : ''}`);
      return quoted.length === 1 ? quoted[0]! : `(${quoted.join(' <-> ')})`;
    })
    .join(' & ');
}
