/**
 * The sensitive-data detectors (shared/domain/sensitive-data.ts) with a small memo by text, so one request's
 * texts are scanned once although two steps read them: the history filter on the first save
 * (./history-scrub.ts) and the rule decision right after (./decide.ts) — the per-request hot path. The
 * memo holds the last {@link DETECT_MEMO_MAX} distinct texts for one set of detect options (an
 * options object that differs by identity clears it).
 */
import { requestTexts, type PlacedFinding } from '../../shared/domain/redaction.js';
import { detectSensitive, type DetectOptions, type Finding } from '../../shared/domain/sensitive-data.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';

/** Distinct texts remembered. */
export const DETECT_MEMO_MAX = 64;

/** Texts longer than this (characters) go to a memo of their own that holds only the last {@link BIG_MEMO_MAX}. */
const MAX_KEPT_CHARS = 256 * 1024;
/** Big texts remembered: the ones of the request being handled (a 25 MB prompt is scanned once, not at every save). */
const BIG_MEMO_MAX = 2;

/** The memoised detectors. */
export interface DetectCache {
  /** {@link detectSensitive} of one text. */
  detect(text: string, options: DetectOptions): Finding[];
  /** shared/domain/redaction.ts `detectInRequest`, through {@link DetectCache.detect}. */
  inRequest(params: CreateMessageParams, options: DetectOptions): PlacedFinding[];
  /** Remembers findings made elsewhere (the offload worker) for `text` under `options`. */
  seed(text: string, options: DetectOptions, found: Finding[]): void;
}

/** Creates an empty memo. `scan` (default `detectSensitive`) lets tests count scans. */
export function createDetectCache(scan: (text: string, options: DetectOptions) => Finding[] = detectSensitive): DetectCache {
  const memo = new Map<string, Finding[]>();
  const bigKeys: string[] = [];
  let forOptions: DetectOptions | undefined;
  const useOptions = (options: DetectOptions) => {
    if (options === forOptions) return;
    memo.clear();
    bigKeys.length = 0;
    forOptions = options;
  };
  const remember = (text: string, found: Finding[]) => {
    memo.set(text, found);
    const big = text.length > MAX_KEPT_CHARS;
    if (big) bigKeys.push(text);
    if (bigKeys.length > BIG_MEMO_MAX) memo.delete(bigKeys.shift()!);
    if (memo.size > DETECT_MEMO_MAX + bigKeys.length) {
      for (const key of memo.keys()) {
        if (key.length <= MAX_KEPT_CHARS) {
          memo.delete(key);
          break;
        }
      }
    }
  };
  const detect = (text: string, options: DetectOptions): Finding[] => {
    useOptions(options);
    const known = memo.get(text);
    if (known) {
      memo.delete(text);
      memo.set(text, known); // most recently used last
      return known;
    }
    const found = scan(text, options);
    remember(text, found);
    return found;
  };
  return {
    detect,
    seed(text, options, found) {
      useOptions(options);
      if (!memo.has(text)) remember(text, found);
    },
    inRequest: (params, options) => requestTexts(params).flatMap(({ place, text }) => detect(text, options).map((f) => ({ ...f, place }))),
  };
}
