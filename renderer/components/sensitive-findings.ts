/**
 * Sensitive-data findings for the texts of a request under review, without blocking typing.
 *
 * `detectSensitive` (shared/domain/sensitive-data.ts) is linear but slow on long texts: a megabyte of log
 * lines took about a second, and the review re-rendered, and so re-detected, on every keystroke
 * (`npm run bench`, renderer scenario: seconds per keystroke). Here:
 * - results are cached per exact text (and options), so a re-render that did not change a text
 *   costs a map lookup (the text is the same string object: no rescan);
 * - texts up to {@link SYNC_DETECT_CHARS} are checked at once, during render, as before;
 * - longer ones are checked in a web worker (sensitive-worker.ts) once the text has not changed
 *   for {@link DETECT_DEBOUNCE_MS}; until then their findings are `undefined` (pending). Findings
 *   are only ever returned for the exact current text, so their offsets are always valid.
 * Without workers (tests, a host that refuses them) long texts are checked on the main thread
 * after the same pause.
 */
import { useEffect, useReducer } from 'react';
import { detectSensitive, type DetectOptions, type Finding } from '../../shared/domain/sensitive-data';
import { workerJobs } from './worker-jobs';

/** Texts up to this many characters are checked synchronously. */
export const SYNC_DETECT_CHARS = 65_536;
/** A long text is checked once it stayed the same this long (ms). */
export const DETECT_DEBOUNCE_MS = 300;
const CACHE_KEPT = 64;

const cache = new Map<string, Map<string, Finding[]>>(); // options key → text → findings
const listeners = new Set<() => void>();
const requested = new Set<string>(); // optionsKey + '\0' + text

function store(optionsKey: string, text: string, findings: Finding[]): Finding[] {
  let byText = cache.get(optionsKey);
  if (!byText) cache.set(optionsKey, (byText = new Map()));
  byText.set(text, findings);
  if (byText.size > CACHE_KEPT) byText.delete(byText.keys().next().value!);
  return findings;
}

/** Stores a finished check and re-renders the panels waiting for one. */
function remember(optionsKey: string, text: string, findings: Finding[]): void {
  store(optionsKey, text, findings);
  listeners.forEach((l) => l());
}

const cached = (optionsKey: string, text: string): Finding[] | undefined => cache.get(optionsKey)?.get(text);

/** One check of a long text, on the sensitive-data worker. */
interface DetectJob {
  text: string;
  optionsKey: string;
  options: DetectOptions;
}
const checker = workerJobs<DetectJob, { id: number; findings?: Finding[] }>(
  () => new Worker(new URL('./sensitive-worker.ts', import.meta.url), { type: 'module' }),
  (job, answer) => {
    requested.delete(`${job.optionsKey}\0${job.text}`);
    remember(job.optionsKey, job.text, answer.findings ?? []);
  },
  // The worker cannot run here: check what it was given on the main thread.
  (left) => left.forEach((job) => {
    requested.delete(`${job.optionsKey}\0${job.text}`);
    detectLater(job.text, job.optionsKey, job.options);
  }),
);

function detectLater(text: string, optionsKey: string, options: DetectOptions): void {
  const key = `${optionsKey}\0${text}`;
  if (requested.has(key)) return;
  requested.add(key);
  if (checker.post({ text, optionsKey, options }, { text, options })) return;
  requested.delete(key);
  setTimeout(() => {
    if (cached(optionsKey, text) === undefined) remember(optionsKey, text, detectSensitive(text, options));
  }, 0);
}

/**
 * The findings of each text (same order), `undefined` for a long text still being checked.
 * `options` are the redaction settings (custom patterns, phone region).
 */
export function useSensitiveFindings(texts: readonly string[], options: DetectOptions): Array<Finding[] | undefined> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const optionsKey = JSON.stringify(options);
  const result = texts.map((text) => {
    const hit = cached(optionsKey, text);
    if (hit !== undefined || text.length > SYNC_DETECT_CHARS) return hit;
    return store(optionsKey, text, detectSensitive(text, options));
  });
  const pending = texts.filter((_text, i) => result[i] === undefined);
  const pendingKey = pending.join('\0');
  useEffect(() => {
    listeners.add(rerender);
    return () => void listeners.delete(rerender);
  }, []);
  useEffect(() => {
    if (pending.length === 0) return;
    const timer = setTimeout(() => pending.forEach((text) => detectLater(text, optionsKey, options)), DETECT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // The pending texts (joined) are the dependency: a changed text restarts the pause.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [optionsKey, pendingKey]);
  return result;
}
