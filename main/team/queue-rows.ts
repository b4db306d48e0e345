/**
 * The shared queue's rows (schema: main/store/pg/migrations/0003_team_queue.sql `team_items`): an
 * item as the instance holding it writes it, and back as another instance's state hub shows it.
 *
 * A row holds the item whole, in two parts: `request` — the request as the server sent it
 * (`original` of a sampling item, `params` of an elicitation: the big part, written once) — and
 * `detail`, everything else (written at each change; `sent` equal to the request is written as
 * `"="`). Big media payloads are references (shared/domain/media-refs.ts) in both; `media` maps
 * each reference to the SHA-256 of its payload, which History keeps in its `blobs` table.
 */
import { z } from 'zod';
import { ITEM_STATUSES, type ItemView } from '../../shared/contract/state.js';
import type { StopCause } from '../../shared/contract/drafts.js';
import { english, type UiText } from '../../shared/contract/ui-text.js';
import { projectItem } from '../../shared/domain/item-summary.js';
import type { ElidedMedia } from '../../shared/domain/media-refs.js';

/** The row of one item, as written and read. */
export interface ItemRow {
  id: string;
  /** The instance holding the caller; null once a survivor ended it. */
  holder: string | null;
  kind: 'sampling' | 'elicitation';
  status: string;
  content_version: string | null;
  phase: number;
  summary: string;
  detail: string;
  /** The request as JSON; '' when a write leaves the stored one in place. */
  request: string;
  /** JSON object: media reference → SHA-256 of its payload. */
  media: string;
  received_at: number;
  rev: number;
}

/** Which key of an item holds its request. */
export const requestKey = (item: Pick<ItemView, 'kind'>): 'original' | 'params' => (item.kind === 'elicitation' ? 'params' : 'original');

/**
 * The row of `item` held by `holder` in review phase `phase`; `elided` is `elideMedia(item)`
 * (shared/domain/media-refs.ts) and `shaOf` gives the SHA-256 (hex) of each of its payloads.
 * `withRequest`: write the request too (its first write).
 * @throws TypeError when a part cannot be JSON-encoded
 */
export function encodeItem(item: ItemView, elided: ElidedMedia<ItemView>, holder: string, phase: number, withRequest: boolean, shaOf: (ref: string) => string): Omit<ItemRow, 'rev'> {
  const { value, payloads } = elided;
  const key = requestKey(item);
  const whole = value as unknown as Record<string, unknown>;
  const { [key]: request, ...rest } = whole;
  const sameSent = key === 'original' && (item as { sent?: unknown }).sent !== undefined && (item as { sent?: unknown }).sent === (item as { original?: unknown }).original;
  const detail = sameSent ? { ...rest, sent: '=' } : rest;
  const media: Record<string, string> = {};
  for (const ref of payloads.keys()) media[ref] = shaOf(ref);
  return {
    id: item.id,
    holder,
    kind: item.kind === 'elicitation' ? 'elicitation' : 'sampling',
    status: item.status,
    content_version: item.contentVersion ?? null,
    phase,
    summary: JSON.stringify(projectItem(value)),
    detail: JSON.stringify(detail),
    request: withRequest ? JSON.stringify(request) : '',
    media: JSON.stringify(media),
    received_at: item.receivedAt,
  };
}

const DetailSchema = z.looseObject({ id: z.string(), status: z.enum(ITEM_STATUSES), receivedAt: z.number(), updatedAt: z.number() });

/**
 * The item a row holds (its media still by reference), with `request` parsed once by the caller.
 * @throws SyntaxError / ZodError when the row is not one this code wrote
 */
export function decodeItem(row: Pick<ItemRow, 'kind' | 'detail'>, request: unknown): ItemView {
  const detail = DetailSchema.parse(JSON.parse(row.detail)) as Record<string, unknown>;
  const key = requestKey({ kind: row.kind === 'elicitation' ? 'elicitation' : undefined });
  const item = { ...detail, [key]: request } as Record<string, unknown>;
  if (item.sent === '=') item.sent = request;
  return item as unknown as ItemView;
}

/** The media map of a row. */
export function mediaOf(row: Pick<ItemRow, 'media'>): Record<string, string> {
  const parsed = z.record(z.string(), z.string()).safeParse(JSON.parse(row.media));
  return parsed.success ? parsed.data : {};
}

/**
 * The row's `detail` and `summary` once a survivor ended the item because its holder stopped: an
 * open item becomes `interrupted` (a sampling request) or `withdrawn` (an elicitation) with the
 * outcome `why` (`stopped`: `cause`) at `now` (epoch ms); an ended one keeps its ending. Its
 * version goes (nobody can decide it any more).
 */
export function endedRow(row: Pick<ItemRow, 'kind' | 'detail' | 'summary' | 'status'>, now: number, why: UiText, cause: StopCause): Pick<ItemRow, 'status' | 'detail' | 'summary'> {
  const open = ['awaiting_request_review', 'generating', 'awaiting_response_review', 'awaiting_input'].includes(row.status);
  const status = open ? (row.kind === 'elicitation' ? 'withdrawn' : 'interrupted') : row.status;
  const ending = open ? { status, outcome: { at: now, message: english(why), ui: why, stopped: cause }, updatedAt: now } : {};
  const patch = (json: string) => {
    const { contentVersion: _gone, generation: _stream, ...rest } = JSON.parse(json) as Record<string, unknown>;
    return JSON.stringify({ ...rest, ...ending });
  };
  return { status, detail: patch(row.detail), summary: patch(row.summary) };
}

/** Columns of {@link UPSERT_ITEMS_SQL}'s arrays, with their types. */
const UPSERT_COLUMNS: ReadonlyArray<[keyof Omit<ItemRow, 'rev'>, string]> = [
  ['id', 'text'],
  ['holder', 'text'],
  ['kind', 'text'],
  ['status', 'text'],
  ['content_version', 'text'],
  ['phase', 'int4'],
  ['summary', 'text'],
  ['detail', 'text'],
  ['request', 'text'],
  ['media', 'text'],
  ['received_at', 'float8'],
];

/**
 * Writes rows (one array per column, {@link upsertItemsParams}) held by a live instance: a row
 * whose holder is no longer live is not written (it was cut off and declared gone: a survivor ended
 * its items), nor one a survivor ended (holder null) or another instance holds. An empty `request`
 * keeps the stored one. Returns the ids written.
 */
export const UPSERT_ITEMS_SQL =
  `INSERT INTO team_items AS t (${UPSERT_COLUMNS.map(([c]) => c).join(', ')}) ` +
  `SELECT i.* FROM unnest(${UPSERT_COLUMNS.map(([, type], n) => `$${n + 1}::${type}[]`).join(', ')}) AS i(${UPSERT_COLUMNS.map(([c]) => c).join(', ')}) ` +
  'WHERE EXISTS (SELECT 1 FROM team_instances s WHERE s.id = i.holder AND s.stopped_at IS NULL) ' +
  'ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, content_version = EXCLUDED.content_version, phase = EXCLUDED.phase, summary = EXCLUDED.summary, ' +
  "detail = EXCLUDED.detail, request = CASE WHEN EXCLUDED.request = '' THEN t.request ELSE EXCLUDED.request END, media = EXCLUDED.media, rev = t.rev + 1, updated_at = now() " +
  'WHERE t.holder = EXCLUDED.holder RETURNING t.id';

/** The parameters of {@link UPSERT_ITEMS_SQL} for `rows`. */
export function upsertItemsParams(rows: ReadonlyArray<Omit<ItemRow, 'rev'>>): unknown[] {
  return UPSERT_COLUMNS.map(([column]) => rows.map((r) => r[column]));
}

/** Deletes the rows $1 (text[]) this instance ($2) holds. */
export const DELETE_ITEMS_SQL = 'DELETE FROM team_items WHERE id = ANY($1::text[]) AND holder = $2';

/** Everything but the request of the rows $1 (text[]). */
export const ROWS_SQL = 'SELECT id, holder, kind, status, content_version, phase, summary, detail, media, received_at, rev FROM team_items WHERE id = ANY($1::text[])';

/** The requests of the rows $1 (text[]). */
export const REQUESTS_SQL = 'SELECT id, request FROM team_items WHERE id = ANY($1::text[])';

/** Every row's id and revision (a full read after a reconnect). */
export const ALL_ROWS_SQL = 'SELECT id, rev FROM team_items';

/** The payloads $1 (text[] of SHA-256) History holds. */
export const PAYLOADS_SQL = 'SELECT sha256, encoding, data FROM blobs WHERE sha256 = ANY($1::text[])';

/** Which of the payloads $1 (text[] of SHA-256) History holds. */
export const HELD_PAYLOADS_SQL = 'SELECT sha256 FROM blobs WHERE sha256 = ANY($1::text[])';

/** Notifies one `item` event per id $2 (text[]) from instance $3 on channel $1. */
export const NOTIFY_ITEMS_SQL = "SELECT pg_notify($1, json_build_object('topic', 'item', 'id', x, 'from', $3::text)::text) FROM unnest($2::text[]) AS x";
