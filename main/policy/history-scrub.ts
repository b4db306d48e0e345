/**
 * What history keeps of an unredacted original ("History keeps what was actually sent; the
 * unredacted original is kept only if the person chooses to"): before an entry is saved, sensitive
 * data in `original` and `preview` that was not sent is replaced by placeholders, unless the person
 * chose to keep the original of that request (or of all requests, `keepOriginals`).
 *
 * Hot path (goal: ≤ +1 ms per auto-approved request): the pipeline saves each request several
 * times (received, generating, delivered). The detectors run once per distinct string of an entry:
 * their findings are cached by entry id, for the same `original` object and the same rules file,
 * until the entry's terminal save. Only the cheap "was it sent?" filter runs per save.
 */
import { redactText } from '../../shared/domain/redaction.js';
import { detectSensitive, type DetectOptions, type Finding } from '../../shared/domain/sensitive-data.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import { TERMINAL_STATUSES, type HistoryEntry } from '../../shared/contract/state.js';

/** Entries whose findings are remembered at most (the oldest are dropped first). */
const MEMO_MAX = 1000;

/** What the scrubber needs. */
export interface ScrubDeps {
  /** The rules in force (redaction settings). */
  file(): RulesFile;
  /** Whether the person chose to keep this request's unredacted original. */
  keeps(entryId: string): boolean;
  /** The detectors (the policy passes its memo, ./detect-cache.ts); default shared/domain/sensitive-data.ts `detectSensitive`. */
  detect?: (text: string, options: DetectOptions) => Finding[];
  /** The detect options of a rules file (the same object for the same file, so memos stay valid). */
  optionsOf?: (file: RulesFile) => DetectOptions;
}

interface Memo {
  original: unknown;
  file: RulesFile;
  found: Map<string, Finding[]>;
  /** Each text as last scrubbed, and which findings were dropped: the same string is reused while they stay the same. */
  scrubbed: Map<string, { dropped: string; text: string }>;
  /** `sent` as JSON, for the object it was made of. */
  sentJson?: { of: unknown; json: string };
}

/** Creates the scrub function: the entry as history should store it (the same object when nothing changes). */
export function createHistoryScrubber(deps: ScrubDeps): (entry: HistoryEntry) => HistoryEntry {
  const detect = deps.detect ?? detectSensitive;
  const memos = new Map<string, Memo>();

  const memoOf = (entry: HistoryEntry, file: RulesFile): Memo => {
    let m = memos.get(entry.id);
    if (!m || m.original !== entry.original || m.file !== file) {
      m = { original: entry.original, file, found: new Map(), scrubbed: new Map() };
      memos.delete(entry.id);
      memos.set(entry.id, m);
      if (memos.size > MEMO_MAX) memos.delete(memos.keys().next().value!);
    }
    return m;
  };

  return (entry) => {
    const file = deps.file();
    const terminal = TERMINAL_STATUSES.includes(entry.status);
    if (file.redaction.keepOriginals || deps.keeps(entry.id) || (entry.sent !== undefined && entry.sent === entry.original)) {
      if (terminal) memos.delete(entry.id);
      return entry;
    }
    const memo = memoOf(entry, file);
    const options: DetectOptions = deps.optionsOf?.(file) ?? { patterns: file.redaction.patterns, phoneRegion: file.redaction.phoneRegion };
    const sentJson = memo.sentJson !== undefined && memo.sentJson.of === entry.sent ? memo.sentJson : { of: entry.sent, json: JSON.stringify(entry.sent ?? null) };
    memo.sentJson = sentJson;
    const sent = sentJson.json;
    const notSent = (f: Finding) => !sent.includes(JSON.stringify(f.value).slice(1, -1));
    const scrubText = (text: string): string => {
      let found = memo.found.get(text);
      if (!found) {
        found = detect(text, options);
        memo.found.set(text, found);
      }
      const drop = found.filter(notSent);
      if (drop.length === 0) return text;
      // The same output string for the same text and drops, so history's big-text files
      // (main/store/big-texts.ts) recognise it at every save.
      const dropped = drop.map((f) => `${f.start}:${f.end}`).join(',');
      const known = memo.scrubbed.get(text);
      if (known?.dropped === dropped) return known.text;
      const out = redactText(text, drop);
      memo.scrubbed.set(text, { dropped, text: out });
      return out;
    };
    const original = scrubValue(entry.original, scrubText);
    if (terminal) memos.delete(entry.id);
    if (original === entry.original) return entry;
    return { ...entry, original, preview: scrubText(entry.preview) };
  };
}

/**
 * `value` with every string passed through `scrub`; unchanged parts keep their identity. Image and
 * audio payloads (`data` of a `{type: 'image' | 'audio'}` object) are binary, never scanned.
 */
function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) {
    const next = value.map((v) => scrubValue(v, scrub));
    return next.some((v, i) => v !== value[i]) ? next : value;
  }
  if (value && typeof value === 'object') {
    let changed = false;
    const next: Record<string, unknown> = {};
    const type = (value as { type?: unknown }).type;
    const media = type === 'image' || type === 'audio';
    for (const [k, v] of Object.entries(value)) {
      next[k] = media && k === 'data' ? v : scrubValue(v, scrub);
      if (next[k] !== v) changed = true;
    }
    return changed ? next : value;
  }
  return value;
}
