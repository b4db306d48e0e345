/**
 * Schema migrations of the PostgreSQL history: the SQL files in `./migrations`, applied with
 * node-pg-migrate (run programmatically).
 *
 * Why node-pg-migrate: it is the kept, PostgreSQL-only migration tool (the `pg` driver's own
 * ecosystem), and it does what several instances starting at once on one database need without
 * code of ours — a session advisory lock, so one instance migrates while the others wait
 * (`advisoryLockMode: 'wait'`), every pending migration in one transaction (all or none), the
 * applied ones recorded in its own table (`pgmigrations`), and its CLI can apply the same folder by
 * hand (`npx node-pg-migrate up -m main/store/pg/migrations`) for operators who migrate before a
 * deploy. Migrations are plain SQL files a DBA can read. (Umzug, also kept, takes migrations as
 * code and would bundle more easily, but leaves locking and transactions to us.)
 *
 * Rules: add a file with the next number; never edit one that has shipped. A database migrated by
 * a newer console (it names migrations this code lacks) is refused before anything is changed.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type pg from 'pg';
import { HistorySchemaTooNewError } from '../migrations.js';

/** The folder of the SQL migrations (shipped beside this module). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** node-pg-migrate's table of applied migrations. */
export const MIGRATIONS_TABLE = 'pgmigrations';

/** The migrations this code knows, by name (file name without `.sql`), oldest first. */
export function knownMigrations(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => f.slice(0, -'.sql'.length));
}

/**
 * Brings the database up to date on `client` (a connection of its own: a migration may hold it for
 * a while) and returns
 * the names of the migrations applied now (empty when none was pending).
 * `target` names the database in errors (never with a password).
 * @throws HistorySchemaTooNewError when the database has migrations this code does not know
 *   (nothing is changed); the server's error when a migration fails (none of this call's is kept)
 */
export async function migrate(client: pg.Client, target: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const known = knownMigrations(dir);
  const applied = await appliedMigrations(client);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new HistorySchemaTooNewError(target, applied.length, known.length);
  const ran = await runner({
    dbClient: client,
    dir,
    migrationsTable: MIGRATIONS_TABLE,
    direction: 'up',
    count: Number.POSITIVE_INFINITY,
    singleTransaction: true,
    checkOrder: true,
    advisoryLockMode: 'wait',
    log: () => undefined,
  });
  return ran.map((m) => m.name);
}

/** Names of the migrations recorded in the database (empty when it was never migrated). */
async function appliedMigrations(client: pg.Client): Promise<string[]> {
  const table = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [MIGRATIONS_TABLE]);
  if (table.rows[0]?.t == null) return [];
  return (await client.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY run_on, id`)).rows.map((r) => r.name);
}
