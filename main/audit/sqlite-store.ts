/**
 * The audit trail on SQLite: `audit.db` in the data folder (the desktop's), a file of its own
 * rather than a table of `history.db`, so that deleting or replacing History (its file, its
 * sessions, retention) never touches the trail, and the command line can open the trail alone.
 *
 * Same settings as History (main/store/history-store.ts): WAL, `synchronous = NORMAL`, the WAL
 * fsynced in the background within 100 ms on libuv's thread pool (main/store/group-sync.ts); an
 * append is committed when it returns. An append is one `BEGIN IMMEDIATE` transaction: it holds SQLite's write lock from before
 * it reads the head, so a second process appending (the command line while the console runs)
 * waits its turn instead of forking the chain. The schema version is `PRAGMA user_version`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import type { AuditHead } from '../../shared/contract/audit.js';
import { BUSY_TIMEOUT_MS } from '../store/history-api.js';
import { createGroupSync } from '../store/group-sync.js';
import { EMPTY_HEAD, seal, type SealInput, type StoredAuditRecord } from './chain.js';
import { AUDIT_COLUMNS, recordOfRow, type AuditRow } from './rows.js';
import type { AuditListOptions, AuditStore } from './store.js';

/** File name of the audit trail inside the data folder. */
export const AUDIT_FILE = 'audit.db';

/** The schema this code writes (`PRAGMA user_version`). */
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE audit_log (
  seq          INTEGER PRIMARY KEY NOT NULL CHECK (seq > 0),
  at           INTEGER NOT NULL,          -- epoch ms
  actor_kind   TEXT NOT NULL,
  actor_id     TEXT,
  actor_name   TEXT,
  kind         TEXT NOT NULL,
  subject      TEXT NOT NULL,
  details      TEXT NOT NULL,             -- JSON text, exactly as hashed
  prev_hash    TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  hash         TEXT NOT NULL
);
CREATE INDEX audit_log_subject ON audit_log (subject, seq);
CREATE TABLE audit_head (
  id   INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
  seq  INTEGER NOT NULL,
  hash TEXT NOT NULL
);
INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, '${EMPTY_HEAD.hash}');
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
`;

/** Thrown when audit.db was written by a newer console (the file is left untouched). */
export class AuditSchemaTooNewError extends Error {
  constructor(
    readonly path: string,
    readonly found: number,
  ) {
    super(`The audit trail ${path} has schema version ${found}, newer than this console understands (${SCHEMA_VERSION}); update the console (the file has not been changed).`);
    this.name = 'AuditSchemaTooNewError';
  }
}

/** Thrown by a read-only open of a file that does not exist (nothing is created). */
export class AuditTrailMissingError extends Error {
  constructor(readonly path: string) {
    super(`There is no audit trail at ${path}.`);
    this.name = 'AuditTrailMissingError';
  }
}

/**
 * Opens (creating it and its folder unless `readOnly`) the audit trail at `path`; `':memory:'` for
 * tests. `readOnly`: for verifying, the file must exist and is never written (not even its schema).
 * @throws AuditSchemaTooNewError; SqliteError when the file is not a database or stays locked
 */
export function openSqliteAuditStore(path: string, opts: { readOnly?: boolean } = {}): AuditStore {
  if (opts.readOnly && !existsSync(path)) throw new AuditTrailMissingError(path);
  if (path !== ':memory:' && !opts.readOnly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (opts.readOnly) db.pragma('query_only = ON');
    const version = userVersion(db);
    if (version > SCHEMA_VERSION) throw new AuditSchemaTooNewError(path, version);
    if (!opts.readOnly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('fullfsync = ON');
      if (version < SCHEMA_VERSION) migrate(db);
    }
  } catch (err) {
    db.close();
    throw err;
  }
  return sqliteStore(db, path, opts.readOnly === true);
}

/** The file's schema version (`PRAGMA user_version`; libsql's `simple` pragma option returns an object, so it is read as a row). */
function userVersion(db: Database.Database): number {
  return Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
}

/** Creates the schema in one immediate transaction (a second process opening at once waits, then finds it made). */
function migrate(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    if (userVersion(db) === 0) {
      db.exec(SCHEMA);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** The store over an open connection. */
function sqliteStore(db: Database.Database, path: string, readOnly: boolean): AuditStore {
  const group = createGroupSync(path === ':memory:' || readOnly ? null : path);
  const empty = readOnly && !tableExists(db); // a file with no trail yet reads as an empty chain
  const headStmt = empty ? undefined : db.prepare('SELECT seq, hash FROM audit_head WHERE id = 1');
  const readHead = (): AuditHead => {
    const row = headStmt?.get() as { seq: number; hash: string } | undefined;
    return row ? { seq: Number(row.seq), hash: row.hash } : EMPTY_HEAD;
  };
  // Prepared once: compiling them again for every append was a large part of its cost.
  const insert = readOnly ? undefined : db.prepare(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (@seq, @at, @actorKind, @actorId, @actorName, @kind, @subject, @details, @prevHash, @contentHash, @hash)`);
  const moveHead = readOnly ? undefined : db.prepare('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1');
  const appendTxn = readOnly
    ? undefined
    : db.transaction((inputs: readonly SealInput[]) => {
        const records = seal(readHead(), inputs);
        for (const r of records) insert!.run(r);
        const last = records[records.length - 1];
        if (last) moveHead!.run(last.seq, last.hash);
        return records;
      }).immediate;
  let closed = false;
  const open = () => {
    if (closed) throw new Error('the audit trail is closed');
  };
  const rows = (sql: string, ...params: unknown[]): StoredAuditRecord[] => (empty ? [] : (db.prepare(sql).all(...params) as AuditRow[]).map(recordOfRow));
  return {
    where: path,
    async append(inputs) {
      open();
      if (!appendTxn) throw new Error('the audit trail was opened read-only');
      if (inputs.length === 0) return [];
      const records = appendTxn(inputs);
      group.committed();
      return records;
    },
    async read(from, limit) {
      open();
      return rows(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq >= ? ORDER BY seq LIMIT ?`, from, limit);
    },
    async at(seq) {
      open();
      return rows(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq = ?`, seq)[0] ?? null;
    },
    async list(opts: AuditListOptions) {
      open();
      return rows(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?`, opts.before ?? Number.MAX_SAFE_INTEGER, opts.limit);
    },
    async head() {
      open();
      return readHead();
    },
    // Appends commit before they return; a failed background fsync since the last call is reported here, once.
    async durable() {
      const failure = group.takeFailure();
      if (failure !== undefined) throw failure;
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
      group.closed();
    },
  };
}

/** Whether the file holds the trail's tables (a read-only open of a file the console never wrote to). */
function tableExists(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit_log'").get() !== undefined;
}
