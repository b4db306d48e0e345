/**
 * Formatting helpers for times, durations, numbers and JSON, shared by every screen. Times and
 * numbers follow the active UI language (i18next): the OS locale when it is of that language (so
 * an en-GB system keeps its 24-hour clock), else the language itself; duration units are
 * translated (`common:duration.*`).
 */
import { HISTORY_STATUSES } from '../shared/contract/history.js';
import i18n from 'i18next'; // the shared instance renderer/i18n initialises (imported directly so this module stays pure)

/**
 * The BCP 47 locale for Intl: the first of the browser's locales (`navigator.languages`, which
 * Electron fills from the OS) of the active UI language, else the UI language (`en`, `zh-CN`).
 */
export function formatLocale(): string {
  const lang = i18n.language || 'en';
  const base = lang.split('-')[0]!.toLowerCase();
  const os = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return os.find((tag) => tag.split('-')[0]!.toLowerCase() === base) ?? lang;
}

/**
 * Intl formatters by locale and options, made once: constructing one costs ~0.5 ms, and a queue
 * screen formats dozens of times per render (`npm run bench`, renderer scenario).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cachedFormat<T extends Intl.NumberFormat | Intl.DateTimeFormat>(kind: string, options: object | undefined, make: (locale: string) => T): T {
  const locale = formatLocale();
  const key = `${kind}\u0000${locale}\u0000${JSON.stringify(options ?? {})}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make(locale)));
  return f as T;
}

/** A number in the active language's notation ("12,345", "0.5"). */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return cachedFormat('number', options, (locale) => new Intl.NumberFormat(locale, options)).format(n);
}

const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit' };

/** "14:03:27" in the active language's notation (24-hour where the locale uses it). */
export function clockTime(ms: number): string {
  return cachedFormat('clock', CLOCK, (locale) => new Intl.DateTimeFormat(locale, CLOCK)).format(ms);
}

const CLOCK_MS: Intl.DateTimeFormatOptions = { ...CLOCK, fractionalSecondDigits: 3 };

/** "14:03:27.885" ("02:03:27.885 PM" in a 12-hour locale): a log's time to the millisecond. */
export function clockTimeMs(ms: number): string {
  return cachedFormat('clock-ms', CLOCK_MS, (locale) => new Intl.DateTimeFormat(locale, CLOCK_MS)).format(ms);
}

/** "2024-05-01 14:03:27", for history where the day matters. */
export function dateTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clockTime(ms)}`;
}

/** Time only when `ms` is today, else "2024-05-01 14:03": compact, for lists. */
export function shortDateTime(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  if (d.toDateString() === new Date(now).toDateString()) return clockTime(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = d.toLocaleTimeString(formatLocale(), { hour: '2-digit', minute: '2-digit' });
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/**
 * Labels already looked up, by language, key and values: i18next's `t` costs tens of µs a call,
 * and the queue list asks for the same few labels (statuses, waits to the second) for every row at
 * every render (`npm run bench`, renderer scenario). Emptied when the language or the resources
 * change, and when it holds {@link LABELS_KEPT}.
 */
const labels = new Map<string, string>();
const LABELS_KEPT = 2_000;
let labelsHooked: object | undefined;

/** `i18n.t(key, values)` through {@link labels}. */
function label(key: string, values?: Readonly<Record<string, string | number>>): string {
  const store = i18n.store as { on(event: string, fn: () => void): void } | undefined;
  if (store && labelsHooked !== store) {
    labelsHooked = store;
    const clear = () => labels.clear();
    i18n.on('languageChanged', clear);
    store.on('added', clear);
    store.on('removed', clear);
  }
  let id = `${i18n.language}\u0000${key}`;
  if (values) for (const k in values) id += `\u0000${k}=${values[k]}`;
  let text = labels.get(id);
  if (text === undefined) {
    text = (i18n.t as unknown as (key: string, values?: object) => string)(key, values);
    if (labels.size >= LABELS_KEPT) labels.clear();
    labels.set(id, text);
  }
  return text;
}

/** "850 ms", "12 s", "3 m 05 s", "2 h 10 m" (Chinese: "850 毫秒", "3 分 05 秒", …): a duration (`ms`, milliseconds) for people. */
export function duration(ms: number): string {
  const v = Math.max(0, ms);
  if (v < 1000) return label('common:duration.ms', { n: Math.round(v) });
  const s = Math.floor(v / 1000);
  if (s < 60) return label('common:duration.s', { s });
  const m = Math.floor(s / 60);
  if (m < 60) return label('common:duration.ms_s', { m, s: String(s % 60).padStart(2, '0') });
  return label('common:duration.h_m', { h: Math.floor(m / 60), m: String(m % 60).padStart(2, '0') });
}

/** Pretty JSON (2-space indent); `undefined` shows as an empty string. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** One-line JSON, cut to `max` characters with an ellipsis. */
export function compactJson(value: unknown, max = 160): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first non-empty line of a text, cut to `max` characters. */
export function firstLine(text: string, max = 140): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const trimmed = line.trim().replace(/^#{1,6}\s+/, '');
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

/** Every status of every item kind (one vocabulary: shared/contract/status.ts). */
const STATUS_KEYS = HISTORY_STATUSES;

/** The readable label of an item's status (any kind; Queue and History alike) in the active language; unknown ones as they are. */
export function statusLabel(status: string): string {
  return (STATUS_KEYS as readonly string[]).includes(status) ? label(`common:status.${status}`) : status;
}

/**
 * Readable labels of the sampling statuses, read in the active language each time they are looked
 * up (getters; prefer {@link statusLabel}).
 */
export const STATUS_LABELS: Readonly<Record<string, string>> = Object.defineProperties(
  {},
  Object.fromEntries(STATUS_KEYS.map((k) => [k, { enumerable: true, get: () => statusLabel(k) }])),
) as Record<string, string>;
