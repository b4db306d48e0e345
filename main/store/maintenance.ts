/**
 * The history store's bulk operations: deleting whole sessions (FTS rows and orphaned blobs
 * included), choosing what retention prunes, marking requests a crash interrupted, and the
 * per-server counters and filter facets. Each function takes the connection and a statement cache
 * and is called by `history-store.ts`, which owns the transactions' boundaries and checks.
 */
import { ITEM_STATUSES, STATUS_OUTCOME } from '../../shared/contract/status.js';
import type Database from 'libsql';
import type { HistoryFacets, HistoryStats } from '../../shared/contract/history.js';
import { detailed } from '../../shared/contract/history-entry.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { Db } from './db.js';
import { TERMINAL_SQL } from './query.js';
import { PEOPLE_SQL, peopleOf, personStats, seqBase, type PersonStatsRow } from './rows.js';

/** Statuses counted as answered (approved) and as refused (rejected) in the stats: shared/contract/status.ts. */
const ANSWERED_SQL = ITEM_STATUSES.filter((s) => STATUS_OUTCOME[s] === 'answered').map((s) => `'${s}'`).join(', ');
const REFUSED_SQL = ITEM_STATUSES.filter((s) => STATUS_OUTCOME[s] === 'refused').map((s) => `'${s}'`).join(', ');

/** Prepares (once per distinct SQL text) and returns a statement. */
export type Prepare = (sql: string) => Database.Statement;

/** The detail of the event added to an entry the console never finished: its English and its message code. */
export const INTERRUPTED_EVENT = detailed(ui('event.interrupted'));
/** {@link INTERRUPTED_EVENT}'s English. */
export const INTERRUPTED_DETAIL = INTERRUPTED_EVENT.detail;

/** Most conversation ids deleted per statement (bound as one JSON array). */
const DELETE_CHUNK = 500;

/**
 * Deletes every entry of the given sessions, their FTS rows and the blobs no other entry uses.
 * Must run inside a transaction. Returns the number of entries deleted (unknown ids count 0).
 */
export function deleteSessions(prepare: Prepare, conversationIds: readonly string[]): number {
  let deleted = 0;
  for (let i = 0; i < conversationIds.length; i += DELETE_CHUNK) {
    const ids = JSON.stringify(conversationIds.slice(i, i + DELETE_CHUNK));
    const inSessions = 'conversation_id IN (SELECT value FROM json_each(@ids))';
    const hashes = (
      prepare(
        `SELECT DISTINCT l.sha256 AS h FROM history_blobs AS l JOIN history ON history.seq = l.seq WHERE history.${inSessions}`,
      ).all({ ids }) as { h: string }[]
    ).map((r) => r.h);
    prepare(`DELETE FROM history_fts WHERE rowid IN (SELECT seq FROM history WHERE ${inSessions})`).run({ ids });
    deleted += Number(prepare(`DELETE FROM history WHERE ${inSessions}`).run({ ids }).changes); // data, links cascade
    if (hashes.length > 0) collectBlobs(prepare, hashes);
  }
  return deleted;
}

/** Drops those of `hashes` that no entry references any more. */
export function collectBlobs(prepare: Prepare, hashes: readonly string[]): void {
  prepare(
    'DELETE FROM blobs WHERE sha256 IN (SELECT value FROM json_each(@hashes)) AND ' +
      'NOT EXISTS (SELECT 1 FROM history_blobs AS l WHERE l.sha256 = blobs.sha256)',
  ).run({ hashes: JSON.stringify(hashes) });
}

/** What retention keeps: sessions newer than `olderThan` (epoch ms), and the newest `keepSessions`. */
export interface PrunePolicy {
  /** Sessions whose newest entry was received before this (epoch ms) go. */
  olderThan?: number;
  /** Only the newest this many finished sessions stay. */
  keepSessions?: number;
}

/**
 * The sessions the policy removes, oldest first. Sessions with an unfinished entry (a request
 * still under review) are never chosen and do not count against `keepSessions`.
 */
export function pruneCandidates(prepare: Prepare, policy: PrunePolicy): string[] {
  const out = new Set<string>();
  const finished = `sum(status NOT IN (${TERMINAL_SQL})) = 0`;
  if (policy.olderThan !== undefined) {
    const rows = prepare(
      `SELECT conversation_id AS c FROM history GROUP BY conversation_id HAVING max(received_at) < @before AND ${finished} ORDER BY max(received_at)`,
    ).all({ before: policy.olderThan }) as { c: string }[];
    for (const r of rows) out.add(r.c);
  }
  if (policy.keepSessions !== undefined) {
    const rows = prepare(
      `SELECT conversation_id AS c FROM history GROUP BY conversation_id HAVING ${finished} ORDER BY max(received_at) DESC, conversation_id DESC LIMIT -1 OFFSET @keep`,
    ).all({ keep: policy.keepSessions }) as { c: string }[];
    for (const r of rows.reverse()) out.add(r.c);
  }
  return [...out];
}

/** Ids of entries that are not in a terminal status. */
export function unfinishedIds(prepare: Prepare): string[] {
  return (prepare(`SELECT id FROM history WHERE status NOT IN (${TERMINAL_SQL})`).all() as { id: string }[]).map((r) => r.id);
}

/** Counters per server for [from, to). */
export function stats(prepare: Prepare, range: { from?: number; to?: number }): HistoryStats {
  const where: string[] = [];
  const params: Record<string, number> = {};
  if (range.from !== undefined) {
    where.push('seq >= @from');
    params.from = seqBase(range.from);
  }
  if (range.to !== undefined) {
    where.push('seq < @to');
    params.to = seqBase(range.to);
  }
  type Row = { server_id: string; requests: number; approved: number; rejected: number; auto: number; tokens: number };
  // Served by the covering index history_stats (grouped in index order, no table reads).
  const rows = prepare(
    `SELECT server_id, count(*) AS requests,
       sum(status IN (${ANSWERED_SQL})) AS approved, sum(status IN (${REFUSED_SQL})) AS rejected,
       sum(coalesce(decided_by = 'rule', 0)) AS auto,
       sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)) AS tokens
     FROM history ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     GROUP BY server_id ORDER BY server_id`,
  ).all(params) as Row[];
  // Recorded generation costs (costUsd, history_data's extra JSON): only rows that carry usage can
  // have one, so the join reads those alone. A server with no priced generation shows null.
  const costs = new Map(
    (
      prepare(
        `SELECT h.server_id, total(json_extract(d.extra_json, '$.costUsd')) AS cost,
           count(json_extract(d.extra_json, '$.costUsd')) AS priced
         FROM history AS h JOIN history_data AS d ON d.seq = h.seq
         WHERE (h.input_tokens IS NOT NULL OR h.output_tokens IS NOT NULL)${where.length > 0 ? ` AND ${where.map((w) => `h.${w}`).join(' AND ')}` : ''}
         GROUP BY h.server_id`,
      ).all(params) as Array<{ server_id: string; cost: number; priced: number }>
    ).map((r) => [r.server_id, r.priced > 0 ? r.cost : null]),
  );
  const and = where.length > 0 ? ` AND ${where.join(' AND ')}` : '';
  // Per person (a team's entries; none on the desktop): the name of their newest entry (SQLite's bare column beside max()).
  const people = prepare(
    `SELECT subject, name, max(seq) AS newest, sum(decided) AS decided, sum(approved) AS approved, sum(rejected) AS rejected, sum(requested) AS requested FROM (
       SELECT decider_subject AS subject, decider_name AS name, seq, 1 AS decided, status IN (${ANSWERED_SQL}) AS approved, status IN (${REFUSED_SQL}) AS rejected, 0 AS requested
         FROM history WHERE decider_subject IS NOT NULL${and}
       UNION ALL
       SELECT requested_by_subject, requested_by_name, seq, 0, 0, 0, 1 FROM history WHERE requested_by_subject IS NOT NULL${and}
     ) GROUP BY subject`,
  ).all(params) as PersonStatsRow[];
  return {
    ...range,
    servers: rows.map((r) => ({
      serverId: r.server_id,
      requests: r.requests,
      approved: r.approved,
      rejected: r.rejected,
      auto: r.auto,
      tokens: r.tokens,
      cost: costs.get(r.server_id) ?? null,
    })),
    ...(people.length > 0 && { people: personStats(people) }),
  };
}

/** Distinct servers, call names (without their "(+N more in flight)" suffix), models, providers. */
export function facets(prepare: Prepare): HistoryFacets {
  const distinct = (column: string): string[] =>
    (prepare(`SELECT DISTINCT ${column} AS v FROM history WHERE ${column} IS NOT NULL`).all() as { v: string }[]).map((r) => r.v);
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
  return {
    servers: sorted(distinct('server_id')),
    tools: sorted(distinct('call_name').map((n) => n.replace(/ \(\+\d+ more in flight\)$/, ''))),
    models: sorted(distinct('model')),
    providers: sorted(distinct('provider_id')),
    rules: (
      prepare(
        'SELECT rule_id AS id, json_extract(rule_json, \'$.name\') AS name, json_extract(rule_json, \'$.serverId\') AS server ' +
          'FROM history WHERE seq IN (SELECT max(seq) FROM history WHERE rule_id IS NOT NULL GROUP BY rule_id)',
      ).all() as { id: string; name: unknown; server: unknown }[]
    )
      .map((r) => ({ ruleId: r.id, name: typeof r.name === 'string' ? r.name : r.id, serverId: typeof r.server === 'string' ? r.server : '' }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    ...withPeople(peopleOf(prepare(PEOPLE_SQL).all() as Array<{ subject: string; name: string | null }>)),
  };
}

/** `{ people }` when there are any (a team's History), else nothing. */
export const withPeople = (people: Array<{ subject: string; name: string }>): { people?: typeof people } => (people.length > 0 ? { people } : {});

/** A connection's statement cache. */
export function statementCache(db: Db): Prepare {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (stmt === undefined) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}
