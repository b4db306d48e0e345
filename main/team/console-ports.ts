/**
 * How a host opens a console as an instance of a team: the team database (database.ts) and the
 * History on the same PostgreSQL database, each entry naming the instance that wrote it, so a
 * survivor ends exactly what a gone instance left (failover.ts). The web host does this when
 * {@link TEAM_DATABASE_ENV} is set.
 */
import type { ConsolePorts } from '../ports.js';
import { postgresHistory } from '../store/pg/store.js';
import { openTeamDatabase, type TeamDatabaseOptions } from './database.js';

/** The environment variable naming a team's database (a `postgres://` URL). */
export const TEAM_DATABASE_ENV = 'MCP_CONSOLE_DATABASE_URL';

/**
 * Opens the team database at `opts.url` and returns the ports that make a console one of its
 * instances: `team`, and `openHistory` on the same database. The console closes both at shutdown.
 * @throws (rejects) as openTeamDatabase: HistoryUnavailableError when the database cannot be
 *   reached, HistorySchemaTooNewError when a newer console migrated it
 */
export async function teamConsolePorts(opts: TeamDatabaseOptions): Promise<Required<Pick<ConsolePorts, 'team' | 'openHistory'>>> {
  const team = await openTeamDatabase(opts);
  return { team, openHistory: postgresHistory(opts.url, { instanceId: () => team.lease.id() }) };
}
