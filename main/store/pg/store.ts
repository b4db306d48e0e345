/**
 * The history store on PostgreSQL (`openPgHistoryStore`): the {@link HistoryStore} contract of
 * ../history-api.ts for a team's consoles, several instances sharing one database. It holds what
 * the desktop's SQLite history holds — entries (sessions are their `conversation_id`), their
 * events, a person's kept drafts, media and big texts (rows, never files: the instances share
 * nothing but the database) and the full-text index (search.ts).
 *
 * Writes are queued and sent in order (writer.ts); every read first waits for the writes made
 * before it, so a store reads its own writes; `durable()` resolves once PostgreSQL has committed
 * them. Other instances see a write once it is committed. Connections, reconnecting and the error
 * of calls made while the database is unreachable: connection.ts. Schema: migrations/.
 *
 * `markInterrupted` marks every unfinished entry in the database, so with several instances on
 * one database only the first to start may call it. A team's store names the instance writing
 * each entry (`instanceId`), and a survivor ends only the entries of instances that are gone
 * (`interruptInstances`, main/team/failover.ts).
 */
import type { HistoryListOptions, HistoryStore, SessionSelection } from '../history-api.js';
import type { HistoryFacets, HistoryListPage, HistoryStats } from '../../../shared/contract/history.js';
import type { StopCause } from '../../../shared/contract/drafts.js';
import { detailed, OPEN_STATUSES, type HistoryEntry, type HistoryEvent } from '../../../shared/contract/state.js';
import type { UiText } from '../../../shared/contract/ui-text.js';
import type { Logger, ConsolePorts } from '../../ports.js';
import { checkCount, checkEntry } from '../checks.js';
import { INTERRUPTED_EVENT, type PrunePolicy } from '../maintenance.js';
import { BIG_TEXT_CHARS, bigStrings, inflateMedia, type TextRef } from '../media.js';
import { PEOPLE_SQL, peopleOf, personStats, rowToEntry, rowToListItem, type EntryRow, type ListRow, type PersonStatsRow } from '../rows.js';
import type { UsageRow } from '../usage.js';
import { connectOnce, createConnection, describeTarget, type Connection, type ConnectionOptions } from './connection.js';
import { migrate } from './migrate.js';
import * as q from './queries.js';
import { countMatches, SEARCH_COUNT_CAP, SEARCH_WINDOW, searchPage } from './listing.js';
import { toTsQuery } from './search.js';
import { Writer } from './writer.js';
import { BLOB_SQL, COLLECT_SQL, LINK_SQL, TOUCH_SQL, UPSERT_SQL, blobString, mediaBlobParams, pgText, prepareEntry, textBlobParams, textRefOf, upsertParams, type BlobEncoding, type PreparedEntry } from './write.js';

/** How long a stored payload no entry links to is kept (a writer may be about to link it), in ms. */
export const BLOB_GRACE_MS = 10 * 60_000;

/** Big texts remembered as stored (the ones of the requests being handled). */
const KNOWN_TEXTS = 16;
/** Payloads remembered as stored recently (their data is not sent again). */
const KNOWN_BLOBS = 1_024;

/** Options of {@link openPgHistoryStore}. */
export interface PgHistoryOptions extends ConnectionOptions {
  /** How long an unlinked payload is kept, in ms (default {@link BLOB_GRACE_MS}; tests use 0). */
  blobGraceMs?: number;
  /** Most matches a full-text search counts (default {@link SEARCH_COUNT_CAP}). */
  countCap?: number;
  /** Newest entries a search checks before it turns to the GIN index (default {@link SEARCH_WINDOW}). */
  searchWindow?: number;
  /** The team instance this console is now (main/team/instances.ts), written with each entry; absent without a team. */
  instanceId?: () => string;
}

/**
 * Connects to the database, brings its schema up to date (migrate.ts; instances starting together
 * take turns), and returns the store. Unlinked payloads past their grace period are removed in
 * the background.
 * @throws HistoryUnavailableError when the database cannot be reached; HistorySchemaTooNewError
 *   when it was migrated by a newer console; the server's error when a migration fails
 */
export async function openPgHistoryStore(opts: PgHistoryOptions): Promise<HistoryStore> {
  const client = await connectOnce(opts);
  try {
    await migrate(client, describeTarget(opts.connection));
  } finally {
    await client.end();
  }
  const store = new PgHistoryStore(createConnection(opts), opts);
  store.startCollecting();
  return store;
}

/**
 * {@link ConsolePorts.openHistory} for a console on PostgreSQL: the team's history at
 * `connection` (a `postgres://` URL, e.g. from `MCP_CONSOLE_DATABASE_URL`).
 */
export function postgresHistory(connection: string, opts: Omit<PgHistoryOptions, 'connection' | 'logger'> = {}): NonNullable<ConsolePorts['openHistory']> {
  return ({ logger }) => openPgHistoryStore({ ...opts, connection, logger });
}

class PgHistoryStore implements HistoryStore {
  private readonly writer: Writer;
  private readonly graceMs: number;
  private readonly countCap: number;
  private readonly searchWindow: number;
  private readonly logger: Logger | undefined;
  private readonly instanceId: (() => string) | undefined;
  /** Big texts stored by `prepareEntry`, by text (their saves store a reference). */
  private readonly texts = new Map<string, TextRef>();
  /** Payloads this store stored or touched, by hash, with when (epoch ms). */
  private readonly blobs = new Map<string, number>();
  private closed = false;
  /** The start-up collection of unlinked payloads (running in the background). */
  private startup: Promise<void> = Promise.resolve();

  constructor(
    private readonly conn: Connection,
    opts: PgHistoryOptions,
  ) {
    this.graceMs = opts.blobGraceMs ?? BLOB_GRACE_MS;
    this.countCap = opts.countCap ?? SEARCH_COUNT_CAP;
    this.searchWindow = opts.searchWindow ?? SEARCH_WINDOW;
    this.logger = opts.logger;
    this.instanceId = opts.instanceId;
    this.writer = new Writer({ conn, prepare: (e) => this.prepare(e), commit: (batch) => this.commit(batch), logger: opts.logger });
  }

  save(entry: HistoryEntry): void {
    this.assertOpen();
    checkEntry(entry);
    this.writer.save(entry, this.prepare(entry));
  }

  saveSoon(entry: HistoryEntry): void {
    this.assertOpen();
    checkEntry(entry);
    this.writer.saveSoon(entry);
  }

  saveMany(entries: readonly HistoryEntry[]): void {
    this.assertOpen();
    entries.forEach(checkEntry);
    this.writer.saveMany(entries.map((entry) => ({ entry, prepared: this.prepare(entry) })));
  }

  durable(): Promise<void> {
    return this.closed ? Promise.resolve() : this.writer.durable();
  }

  async prepareEntry(entry: HistoryEntry): Promise<void> {
    this.assertOpen();
    // A payload stored while the start-up collection runs could look unlinked to it (with a short grace).
    await this.startup;
    for (const text of bigStrings(entry)) {
      if (this.texts.has(text)) continue;
      const ref = await textRefOf(text);
      await this.conn.query(BLOB_SQL, textBlobParams(text, ref));
      this.texts.set(text, ref);
      if (this.texts.size > KNOWN_TEXTS) this.texts.delete(this.texts.keys().next().value!);
      this.remember([ref.sha256]);
    }
  }

  async list(opts: HistoryListOptions): Promise<HistoryListPage> {
    checkCount('limit', opts.limit);
    checkCount('offset', opts.offset);
    await this.current();
    const { limit, offset, ...filter } = opts;
    const words = filter.query === undefined ? null : toTsQuery(filter.query);
    const limits = { window: this.searchWindow, cap: this.countCap };
    if (words !== null && limit + offset <= this.searchWindow) return searchPage(this.conn, limits, { filter, words, limit, offset });
    const page = q.whereOf(filter);
    const [rows, total] = await Promise.all([limit === 0 ? [] : this.conn.query<ListRow>(q.listSql(page, limit, offset), page.params), countMatches(this.conn, filter, this.countCap)]);
    return { entries: rows.map(rowToListItem), ...total };
  }

  async get(id: string): Promise<HistoryEntry | null> {
    await this.current();
    const rows = await this.conn.query<EntryRow>(q.GET_SQL, [id]);
    return rows.length === 0 ? null : (await this.toEntries(rows))[0]!;
  }

  async conversation(conversationId: string): Promise<HistoryEntry[]> {
    await this.current();
    return this.toEntries(await this.conn.query<EntryRow>(q.CONVERSATION_SQL, [conversationId]));
  }

  async sessions(selection: SessionSelection, max: number): Promise<string[]> {
    checkCount('max', max);
    await this.current();
    const where = 'ids' in selection ? { sql: 'h.id = ANY($1::text[])', params: [selection.ids] as unknown[] } : q.whereOf(selection.filter);
    return (await this.conn.query<{ c: string }>(q.sessionsSql(where, max), where.params)).map((r) => r.c);
  }

  async deleteSessions(conversationIds: readonly string[]): Promise<number> {
    await this.current();
    if (conversationIds.length === 0) return 0;
    const [row] = await this.conn.query<{ n: number }>('WITH d AS (DELETE FROM history WHERE conversation_id = ANY($1::text[]) RETURNING 1) SELECT count(*) AS n FROM d', [conversationIds]);
    await this.collectUnlinked();
    return row!.n;
  }

  async pruneCandidates(policy: PrunePolicy): Promise<string[]> {
    await this.current();
    const out = new Set<string>();
    if (policy.olderThan !== undefined) {
      for (const r of await this.conn.query<{ c: string }>(q.PRUNE_OLDER_SQL, [policy.olderThan])) out.add(r.c);
    }
    if (policy.keepSessions !== undefined) {
      for (const r of (await this.conn.query<{ c: string }>(q.PRUNE_BEYOND_SQL, [policy.keepSessions])).reverse()) out.add(r.c);
    }
    return [...out];
  }

  async markInterrupted(now: number): Promise<number> {
    await this.current();
    return this.interrupt((await this.conn.query<{ id: string }>(q.UNFINISHED_SQL)).map((r) => r.id), now, 'console_stopped', INTERRUPTED_EVENT);
  }

  async interruptInstances(scope: { instances: readonly string[]; unowned?: boolean }, now: number, why: { cause: StopCause; detail: UiText }): Promise<number> {
    await this.current();
    const ids = (await this.conn.query<{ id: string }>(q.UNFINISHED_OF_SQL, [scope.instances, scope.unowned === true])).map((r) => r.id);
    return this.interrupt(ids, now, why.cause, detailed(why.detail));
  }

  /** Marks the entries `ids` interrupted (see {@link HistoryStore.markInterrupted}); resolves to how many there were. */
  private async interrupt(ids: readonly string[], now: number, cause: StopCause, event: Pick<HistoryEvent, 'detail' | 'detailUi'>): Promise<number> {
    const ended: HistoryEntry[] = [];
    for (const id of ids) {
      const entry = await this.get(id);
      if (entry === null || !(OPEN_STATUSES as readonly string[]).includes(entry.status)) continue;
      ended.push({
        ...entry,
        status: 'interrupted',
        endedAt: now,
        // Nothing was delivered; a draft the person typed stays with the entry.
        notDelivered: { cause, at: now, draft: entry.draft !== undefined },
        events: [...entry.events, { at: now, kind: 'interrupted', ...event }],
      });
    }
    this.saveMany(ended);
    await this.durable();
    return ended.length;
  }

  async stats(range: { from?: number; to?: number }): Promise<HistoryStats> {
    await this.current();
    const where = q.whereOf({ from: range.from, to: range.to });
    type Row = { server_id: string; requests: number; approved: number; rejected: number; auto: number; tokens: number; cost: number; priced: number };
    const rows = await this.conn.query<Row>(q.statsSql(where), where.params);
    const people = await this.conn.query<PersonStatsRow>(q.personStatsSql(where), where.params);
    return {
      ...range,
      servers: rows.map((r) => ({
        serverId: r.server_id,
        requests: r.requests,
        approved: r.approved,
        rejected: r.rejected,
        auto: r.auto,
        tokens: r.tokens,
        cost: r.priced > 0 ? r.cost : null,
      })),
      ...(people.length > 0 && { people: personStats(people) }),
    };
  }

  async facets(): Promise<HistoryFacets> {
    await this.current();
    const distinct = async (column: Parameters<typeof q.distinctSql>[0]) => (await this.conn.query<{ v: string }>(q.distinctSql(column))).map((r) => r.v);
    const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
    const [servers, tools, models, providers, rules, people] = await Promise.all([
      distinct('server_id'),
      distinct('call_name'),
      distinct('model'),
      distinct('provider_id'),
      this.conn.query<{ id: string; rule_json: string | null }>(q.RULES_SQL),
      this.conn.query<{ subject: string; name: string | null }>(PEOPLE_SQL),
    ]);
    return {
      servers: sorted(servers),
      tools: sorted(tools.map((n) => n.replace(/ \(\+\d+ more in flight\)$/, ''))),
      models: sorted(models),
      providers: sorted(providers),
      rules: rules
        .map((r) => {
          const rule = (r.rule_json === null ? {} : JSON.parse(r.rule_json)) as { name?: unknown; serverId?: unknown };
          return { ruleId: r.id, name: typeof rule.name === 'string' ? rule.name : r.id, serverId: typeof rule.serverId === 'string' ? rule.serverId : '' };
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
      ...(people.length > 0 && { people: peopleOf(people) }),
    };
  }

  async usageSince(from: number): Promise<UsageRow[]> {
    await this.current();
    return this.conn.query<UsageRow>(q.USAGE_SQL, [Math.floor(from)]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.writer.close();
    this.closed = true;
    await this.conn.close();
  }

  /** Starts the start-up collection in the background (payloads stored later wait for it: {@link prepareEntry}). */
  startCollecting(): void {
    this.startup = this.collectUnlinked();
  }

  /** Removes payloads no entry links to, past the grace period; failures are logged (the next run retries). */
  async collectUnlinked(): Promise<void> {
    try {
      await this.conn.query(COLLECT_SQL, [null, this.graceMs]);
    } catch (err) {
      this.logger?.warn('history: could not remove unused payloads', { error: String(err) });
    }
  }

  /** An entry's rows; its big texts stored by `prepareEntry` become references. */
  private prepare(entry: HistoryEntry): PreparedEntry {
    return prepareEntry(entry, (text) => (text.length >= BIG_TEXT_CHARS ? this.texts.get(text) : undefined), this.instanceId?.() ?? null);
  }

  /** Writes a batch in one transaction: entries, then their payloads and links, then payloads they no longer use. */
  private async commit(batch: readonly PreparedEntry[]): Promise<void> {
    const stored: string[] = [];
    await this.conn.transaction(async (query) => {
      const rows = await query<{ id: string | null; seq: number | null; dropped: string | null }>(UPSERT_SQL, upsertParams(batch));
      const seqOf = new Map(rows.filter((r) => r.id !== null).map((r) => [r.id!, r.seq!]));
      const links = new Map<string, [number, string]>();
      const touch = new Set<string>();
      for (const p of batch) {
        const seq = seqOf.get(pgText(p.id)!)!;
        for (const b of p.blobs) {
          links.set(`${seq}:${b.sha256}`, [seq, b.sha256]);
          if (this.known(b.sha256) || stored.includes(b.sha256)) continue;
          await query(BLOB_SQL, mediaBlobParams(b));
          stored.push(b.sha256);
        }
        for (const t of p.texts) {
          links.set(`${seq}:${t.sha256}`, [seq, t.sha256]);
          if (!this.known(t.sha256)) touch.add(t.sha256);
        }
      }
      if (touch.size > 0) await query(TOUCH_SQL, [[...touch]]);
      if (links.size > 0) await query(LINK_SQL, [[...links.values()].map((l) => l[0]), [...links.values()].map((l) => l[1])]);
      const linked = new Set([...links.values()].map((l) => l[1]));
      const dropped = [...new Set(rows.map((r) => r.dropped).filter((h): h is string => h !== null && !linked.has(h)))];
      if (dropped.length > 0) await query(COLLECT_SQL, [dropped, this.graceMs]);
      stored.push(...touch);
    });
    this.remember(stored);
  }

  /** Whether this store stored or touched a payload recently enough that it cannot have been removed. */
  private known(sha256: string): boolean {
    const at = this.blobs.get(sha256);
    return at !== undefined && Date.now() - at < this.graceMs / 2;
  }

  private remember(hashes: readonly string[]): void {
    const now = Date.now();
    for (const h of hashes) {
      this.blobs.delete(h);
      this.blobs.set(h, now);
    }
    while (this.blobs.size > KNOWN_BLOBS) this.blobs.delete(this.blobs.keys().next().value!);
  }

  /** Entries of rows, their payloads and big texts put back from `blobs`. */
  private async toEntries(rows: EntryRow[]): Promise<HistoryEntry[]> {
    const hasTexts = (r: EntryRow) => [r.original_json, r.sent_json, r.generated_json, r.delivered_json].some((j) => j?.includes('"textRef":') === true);
    const withRefs = rows.filter((r) => r.media_count > 0 || hasTexts(r));
    if (withRefs.length === 0) return rows.map(rowToEntry);
    const found = await this.conn.query<{ sha256: string; encoding: BlobEncoding; data: Buffer }>(q.BLOBS_SQL, [withRefs.map((r) => r.seq)]);
    const payloads = new Map(found.map((b) => [b.sha256, b]));
    const media = (sha: string) => {
      const b = payloads.get(sha);
      return b && blobString(b.encoding, b.data);
    };
    const text = (sha: string) => media(sha) ?? `[This text was kept in the history database, which no longer has it (${sha})]`;
    return rows.map((row) => (withRefs.includes(row) ? inflateMedia(rowToEntry(row), media, hasTexts(row) ? text : undefined) : rowToEntry(row)));
  }

  /** Rejects when closed or unreachable; else waits for the writes made before (a read sees them). */
  private async current(): Promise<void> {
    this.assertOpen();
    const down = this.conn.unavailableError();
    if (down) throw down;
    await this.writer.settled();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('history store is closed');
  }
}

