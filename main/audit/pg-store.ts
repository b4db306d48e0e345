/**
 * The audit trail on a team's PostgreSQL (migration main/store/pg/migrations/0012_audit.sql):
 * every instance appends to one chain. An append runs in a transaction that first locks the head
 * row (`SELECT … FOR UPDATE`): a second instance appending at the same moment waits for the first
 * to commit, then reads the head it left, so the chain never forks. The notification (topic
 * `audit`, main/team/notify.ts) is sent inside that transaction, delivered only if it commits.
 *
 * A part of the team server that changes its own rows in a transaction (a decision, a claim, a
 * role) records in the same transaction with {@link appendAuditWith}: the record exists exactly
 * when the change does.
 */
import type { AuditHead } from '../../shared/contract/audit.js';
import type { Logger } from '../logger.js';
import { createConnection, describeTarget, type Connection, type Params } from '../store/pg/connection.js';
import { notifySql, type TeamNotifier } from '../team/notify.js';
import { EMPTY_HEAD, seal, type SealInput, type StoredAuditRecord } from './chain.js';
import { AUDIT_COLUMNS, recordOfRow, type AuditRow } from './rows.js';
import type { AuditListOptions, AuditStore } from './store.js';

/** Runs one statement inside a transaction (what `Connection.transaction` hands its function). */
export type TxQuery = <R>(text: string, params?: Params) => Promise<R[]>;

/** Thrown when the database has no audit trail (it was never migrated to 0012_audit). */
export class NoAuditTableError extends Error {
  constructor(readonly where: string) {
    super(`The database ${where} holds no audit trail (a console never ran on it).`);
    this.name = 'NoAuditTableError';
  }
}

/**
 * Appends `inputs` inside the caller's transaction (`query` runs in it): locks the head row,
 * seals the records after it, inserts them, moves the head, and notifies topic `audit` (at commit)
 * when `notifier` is given. The head stays locked until the caller's transaction ends, so keep it
 * short. Resolves to the records as stored (they exist once the caller commits).
 * @throws (rejects) the database's error (the caller's transaction should then roll back)
 */
export async function appendAuditWith(query: TxQuery, inputs: readonly SealInput[], notifier?: Pick<TeamNotifier, 'instanceId'>): Promise<StoredAuditRecord[]> {
  if (inputs.length === 0) return [];
  const [head] = await query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE');
  if (!head) throw new Error('the audit trail has no head row (audit_head is empty)');
  const records = seal({ seq: Number(head.seq), hash: head.hash }, inputs);
  const values: unknown[] = [];
  const tuples = records.map((r, i) => {
    values.push(r.seq, r.at, r.actorKind, r.actorId, r.actorName, r.kind, r.subject, r.details, r.prevHash, r.contentHash, r.hash);
    return `(${Array.from({ length: 11 }, (_, j) => `$${i * 11 + j + 1}`).join(', ')})`;
  });
  await query(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES ${tuples.join(', ')}`, values);
  const last = records[records.length - 1]!;
  await query('UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1', [last.seq, last.hash]);
  if (notifier) {
    const n = notifySql({ topic: 'audit', id: String(last.seq), from: notifier.instanceId() });
    await query(n.text, n.params);
  }
  return records;
}

/** Most records one INSERT carries (11 parameters each; PostgreSQL allows 65,535). */
const APPEND_CHUNK = 500;

/** Options of {@link openPgAuditStore}. */
export interface PgAuditOptions {
  /** The pool to use (a team's `TeamDatabase.conn`); not closed by the store unless `owned`. */
  conn: Connection;
  /** Where it is, without a password (for messages). */
  where: string;
  /** Notifies topic `audit` when records are appended. */
  notifier?: Pick<TeamNotifier, 'instanceId'>;
  /** The store closes `conn` when it closes. */
  owned?: boolean;
}

/** The audit trail on an already migrated team database. */
export function openPgAuditStore(opts: PgAuditOptions): AuditStore {
  const { conn } = opts;
  let closed = false;
  const open = () => {
    if (closed) throw new Error('the audit trail is closed');
  };
  const rows = async (sql: string, params: Params): Promise<StoredAuditRecord[]> => (await conn.query<AuditRow>(sql, params)).map(recordOfRow);
  return {
    where: opts.where,
    async append(inputs) {
      open();
      const out: StoredAuditRecord[] = [];
      // One transaction for all of them: the chunks are appended together or not at all.
      await conn.transaction(async (q) => {
        for (let i = 0; i < inputs.length; i += APPEND_CHUNK) out.push(...(await appendAuditWith(q, inputs.slice(i, i + APPEND_CHUNK), opts.notifier)));
      });
      return out;
    },
    async read(from, limit) {
      open();
      return rows(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq >= $1 ORDER BY seq LIMIT $2`, [from, limit]);
    },
    async at(seq) {
      open();
      return (await rows(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq = $1`, [seq]))[0] ?? null;
    },
    async list(o: AuditListOptions) {
      open();
      return rows(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq < $1 ORDER BY seq DESC LIMIT $2`, [o.before ?? Number.MAX_SAFE_INTEGER, o.limit]);
    },
    async head(): Promise<AuditHead> {
      open();
      const [row] = await conn.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_head WHERE id = 1');
      return row ? { seq: Number(row.seq), hash: row.hash } : EMPTY_HEAD;
    },
    // A commit returns once PostgreSQL has it in its write-ahead log (its own durability).
    durable: async () => undefined,
    async close() {
      if (closed) return;
      closed = true;
      if (opts.owned) await conn.close();
    },
  };
}

/**
 * Connects to the team database at `url` to read (or anchor) its audit trail from the command
 * line; migrates nothing.
 * @throws (rejects) HistoryUnavailableError when it cannot be reached; NoAuditTableError when it
 *   holds no audit trail
 */
export async function connectPgAuditStore(url: string, logger?: Logger): Promise<AuditStore> {
  const conn = createConnection({ connection: url, maxConnections: 2, ...(logger && { logger }) });
  const where = describeTarget(url);
  try {
    const [found] = await conn.query<{ t: string | null }>("SELECT to_regclass('audit_log')::text AS t");
    if (found?.t == null) throw new NoAuditTableError(where);
  } catch (err) {
    await conn.close();
    throw err;
  }
  return openPgAuditStore({ conn, where, owned: true });
}
