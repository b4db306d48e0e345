/**
 * Opening the audit trail where a console keeps it: a team server's database (`ConsolePorts.team`),
 * else `audit.db` in the data folder.
 */
import { join } from 'node:path';
import type { Logger } from '../logger.js';
import type { TeamDatabase } from '../team/database.js';
import { openPgAuditStore } from './pg-store.js';
import { AUDIT_FILE, openSqliteAuditStore } from './sqlite-store.js';
import type { AuditStore } from './store.js';
import { createAuditTrail, type AuditTrail } from './trail.js';

/** The store of the console on data folder `dir` (and `team`, when it is a team server's instance). */
export function openAuditStore(dir: string, team?: TeamDatabase): AuditStore {
  return team ? openPgAuditStore({ conn: team.conn, where: team.target, notifier: team.notifier }) : openSqliteAuditStore(join(dir, AUDIT_FILE));
}

/**
 * The console's audit trail (see {@link openAuditStore}).
 * @throws AuditSchemaTooNewError when audit.db was written by a newer console; SqliteError when it
 *   cannot be opened
 */
export function openConsoleAuditTrail(opts: { dir: string; team?: TeamDatabase; logger: Logger; now: () => number }): AuditTrail {
  return createAuditTrail(openAuditStore(opts.dir, opts.team), { logger: opts.logger, now: opts.now });
}
