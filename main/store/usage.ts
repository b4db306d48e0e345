/**
 * Token usage and cost per server since a time, read from history (the daily token and
 * spend counters survive a restart by being derived from what history already records, so the
 * hot path writes nothing extra). Entries re-opened as drafts (`origin: 'draft'`) are left out:
 * they are the person's experiments, not the server's requests.
 */
import type { Prepare } from './maintenance.js';
import { seqBase } from './rows.js';

/** Usage of one (server, provider, model) since the given time. Tokens as reported by providers. */
export interface UsageRow {
  serverId: string;
  providerId: string | null;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  /** Sum of the entries' recorded `costUsd`. */
  costUsd: number;
  /** Tokens of entries that recorded no `costUsd` (generated before prices were known, or no price). */
  unpricedInputTokens: number;
  unpricedOutputTokens: number;
}

/** Grouped usage of the entries received at or after `@fromSeq`; `seq` orders by receivedAt (rows.ts). */
export const USAGE_SQL =
  'SELECT h.server_id AS serverId, h.provider_id AS providerId, h.model AS model, ' +
  'total(h.input_tokens) AS inputTokens, total(h.output_tokens) AS outputTokens, ' +
  "total(json_extract(d.extra_json, '$.costUsd')) AS costUsd, " +
  "total(CASE WHEN json_extract(d.extra_json, '$.costUsd') IS NULL THEN h.input_tokens END) AS unpricedInputTokens, " +
  "total(CASE WHEN json_extract(d.extra_json, '$.costUsd') IS NULL THEN h.output_tokens END) AS unpricedOutputTokens " +
  'FROM history AS h JOIN history_data AS d ON d.seq = h.seq ' +
  'WHERE h.seq >= @fromSeq AND (h.input_tokens IS NOT NULL OR h.output_tokens IS NOT NULL) ' +
  "AND json_extract(d.extra_json, '$.origin') IS NOT 'draft' " +
  'GROUP BY h.server_id, h.provider_id, h.model';

/** Usage per (server, provider, model) of the entries received at or after `from` (epoch ms). */
export function usageSince(prepare: Prepare, from: number): UsageRow[] {
  return prepare(USAGE_SQL).all({ fromSeq: seqBase(from) }) as UsageRow[];
}
