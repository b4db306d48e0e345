/**
 * Pure helpers of the elicitation screens: the form's raw input values (what the inputs hold) and
 * the content they become, labels of the statuses, and how a URL is shown. Display-only: main
 * validates the answer again before anything reaches the server.
 */
import { defaultsFor, optionsOf, validateElicitationContent, type Field, type FieldValue, type RequestedSchema } from '../../../shared/contract/elicitation';
import type { ElicitationStatus, ItemSummary } from '../../../shared/contract/state';
import { STATUS_TONE, type StatusTone } from '../../../shared/contract/status';
import { statusLabel } from '../../format';
import { i18n } from '../../i18n';

/** A form field's raw value: text for text, number, date and single-select inputs; a flag; a list. */
export type RawValue = string | boolean | string[];

/** The form's raw values, by field name. */
export type RawValues = Record<string, RawValue>;

/** How a field is drawn. */
export type FieldKind = 'text' | 'email' | 'url' | 'date' | 'datetime' | 'number' | 'boolean' | 'select' | 'radio' | 'multi';

/** Single-selects with at most this many options are radio groups; longer ones are a <select>. */
export const RADIO_MAX = 4;

/** How a field of the requested schema is drawn. */
export function fieldKind(field: Field): FieldKind {
  switch (field.type) {
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'multi';
    case 'string': {
      const options = optionsOf(field);
      if (options) return options.length <= RADIO_MAX ? 'radio' : 'select';
      if (field.format === 'email') return 'email';
      if (field.format === 'uri') return 'url';
      if (field.format === 'date') return 'date';
      if (field.format === 'date-time') return 'datetime';
      return 'text';
    }
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An RFC 3339 date-time as a `datetime-local` input value (local time), or '' when unreadable. */
export function toLocalInput(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form's starting raw values: defaults where given, booleans unchecked, lists empty. */
export function initialRawValues(schema: RequestedSchema): RawValues {
  const defaults = defaultsFor(schema);
  const out: RawValues = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const d = defaults[name];
    if (field.type === 'boolean') out[name] = d === true;
    else if (field.type === 'array') out[name] = Array.isArray(d) ? d : [];
    else if (field.type === 'string' && field.format === 'date-time' && typeof d === 'string') out[name] = toLocalInput(d);
    else out[name] = d === undefined ? '' : String(d);
  }
  return out;
}

/**
 * The content the raw values stand for: empty text and empty lists are left out (so "required"
 * and defaults apply), numbers parsed (an unreadable one stays NaN so validation names it),
 * `datetime-local` values turned into RFC 3339 (UTC), booleans always sent (a checkbox always has
 * a state).
 */
export function contentFromRaw(schema: RequestedSchema, raw: RawValues): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const v = raw[name];
    if (v === undefined) continue;
    if (field.type === 'boolean') out[name] = v === true;
    else if (field.type === 'array') {
      if (Array.isArray(v) && v.length > 0) out[name] = v;
    } else if (typeof v === 'string' && v.trim() !== '') {
      if (field.type === 'number' || field.type === 'integer') out[name] = Number(v.trim());
      else if (field.format === 'date-time') {
        const d = new Date(v);
        out[name] = Number.isNaN(d.getTime()) ? v : d.toISOString();
      } else out[name] = v;
    }
  }
  return out;
}

/** Builds the answer from the raw values and checks it against the schema. */
export function buildAnswer(schema: RequestedSchema, raw: RawValues): ReturnType<typeof validateElicitationContent> {
  return validateElicitationContent(schema, contentFromRaw(schema, raw));
}

/** The readable label (in the active language) and tone of an elicitation status: the one status vocabulary (shared/contract/status.ts). */
export function elicitationStatus(status: ElicitationStatus): { label: string; tone: StatusTone } {
  return { label: statusLabel(status), tone: STATUS_TONE[status] };
}

/** A URL's parts as shown: the host (punycode kept, so look-alike domains stay visible), whether it may be opened. */
export function describeUrl(url: string): { host: string; protocol: string; openable: boolean } {
  try {
    const u = new URL(url);
    return { host: u.host, protocol: u.protocol, openable: u.protocol === 'https:' || u.protocol === 'http:' };
  } catch {
    return { host: i18n.t('queue:elicitation.unreadableUrl'), protocol: '', openable: false };
  }
}

/** Anything in the queue list: an item's summary. */
export type QueueEntry = ItemSummary;

/** Whether a queue entry is an elicitation. */
export function isElicitation(entry: QueueEntry): entry is Extract<ItemSummary, { kind: 'elicitation' }> {
  return entry.kind === 'elicitation';
}

/** Whether an elicitation (summary or whole) waits on the person (and counts on the Queue badge). */
export function elicitationAwaiting(item: { status: ElicitationStatus }): boolean {
  return item.status === 'awaiting_input';
}

