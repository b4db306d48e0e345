/** Formatting helpers for times, durations and JSON, shared by every screen. */

/** "14:03:27" in the person's locale (24-hour where the locale uses it). */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
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
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** "850 ms", "12 s", "3 m 05 s", "2 h 10 m": a duration for people. */
export function duration(ms: number): string {
  const v = Math.max(0, ms);
  if (v < 1000) return `${Math.round(v)} ms`;
  const s = Math.floor(v / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} m`;
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

/** Readable labels of the sampling statuses. */
export const STATUS_LABELS: Record<string, string> = {
  awaiting_request_review: 'Review request',
  generating: 'Generating',
  awaiting_response_review: 'Review response',
  delivered: 'Delivered',
  rejected: 'Rejected',
  failed: 'Failed',
  cancelled: 'Cancelled',
  timed_out: 'Timed out',
  interrupted: 'Interrupted',
};
