/**
 * Runs one instance of a team server (`mcp-approval-console serve`, app/cli/serve-command.ts):
 * opens the team's database (migrated, this instance registered), makes sure the team has an
 * admin token (printing it once when this instance generated it), creates the headless console
 * on it — History in PostgreSQL, the gateway's named tokens in the database, the servers of its
 * own data folder's mcp-servers.json — and serves the UI, the gateway and the bridges' channel on
 * one listener (team-host.ts), each connection's calls checked against its person's role and run
 * as them (main/team/access.ts). Separate from the command so tests run it in-process.
 */
import { mkdirSync } from 'node:fs';
import type { ConsoleHandle } from '../../main/console.js';
import type { ConsolePorts, Logger } from '../../main/ports.js';
import { postgresHistory } from '../../main/store/pg/store.js';
import { ensureAdminToken } from '../../main/team/admin-token.js';
import { guardedService } from '../../main/team/access.js';
import { teamAuth } from '../../main/team/auth.js';
import { oidcClient, type OidcSettings } from '../../main/team/oidc.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import type { ListenPlan } from './listen-policy.js';
import { startTeamHost, type TeamHost } from './team-host.js';

/** Prefix of the line saying where the team server serves (tests parse it); its public address follows. */
export const SERVING_LINE_PREFIX = 'MCP Approval Console team server is running at ';
/** Prefix of the line that shows a generated admin token, once. */
export const ADMIN_TOKEN_LINE_PREFIX = 'Admin token (shown once; sign in with it, keep it in a password manager): ';

/** What {@link runTeamServer} needs. */
export interface TeamServerOptions {
  /** The team's database, `postgres://…`. */
  databaseUrl: string;
  plan: ListenPlan;
  /** This instance's data folder (its mcp-servers.json, providers.json, secret store). */
  userDataDir: string;
  /** The built renderer (index.html, assets/). */
  staticDir: string;
  /** `MCP_CONSOLE_ADMIN_TOKEN`, when set. */
  adminToken?: string;
  /** OpenID Connect sign-in (`--oidc-issuer`…); the redirect URL is `<public address>/auth/oidc/callback` when not given. */
  oidc?: OidcSettings;
  /** `createConsole` of main/console.ts (injectable for tests). */
  createConsole(ports: ConsolePorts): Promise<ConsoleHandle>;
  /** Passed to the console (secret store, offload worker, stop…). */
  ports?: Partial<ConsolePorts>;
  /** Where the serving line and a generated admin token go (stdout). */
  print(line: string): void;
  logger: Logger;
  /** Lease timings of the team database (tests). */
  timings?: Parameters<typeof openTeamDatabase>[0]['timings'];
}

/** A running instance. `stop` closes the listener, the console (answering its callers), then the database; idempotent. */
export interface RunningTeamServer {
  host: TeamHost;
  team: TeamDatabase;
  console: ConsoleHandle;
  stop(): Promise<void>;
}

/**
 * Starts the instance and prints where it serves (and, when it generated the admin token, the token).
 * @throws Error when the database cannot be reached or migrated, the admin token from the
 *   environment is refused, the console cannot start, or the listener cannot (certificate files,
 *   the address taken); whatever started before is closed again
 */
export async function runTeamServer(opts: TeamServerOptions): Promise<RunningTeamServer> {
  mkdirSync(opts.userDataDir, { recursive: true });
  const address = opts.plan.publicUrl;
  const team = await openTeamDatabase({ url: opts.databaseUrl, logger: opts.logger, ...(address && { address }), ...(opts.timings && { timings: opts.timings }) });
  const page: { url?: string } = {};
  let handle: ConsoleHandle | undefined;
  let host: TeamHost | undefined;
  try {
    const admin = await ensureAdminToken(team.conn, team.notifier, opts.adminToken);
    handle = await opts.createConsole({
      nodeRuntime: { command: process.execPath },
      ...opts.ports,
      host: 'web',
      userDataDir: opts.userDataDir,
      logger: opts.logger,
      team,
      // Entries name this instance, so a survivor ends exactly what it leaves if it dies.
      openHistory: postgresHistory(opts.databaseUrl, { instanceId: () => team.lease.id() }),
      pageAddress: () => page.url,
    });
    const remote = handle.remote;
    const service = handle.service;
    const oidc = opts.oidc && oidcClient(opts.oidc);
    host = await startTeamHost({
      plan: opts.plan,
      staticDir: opts.staticDir,
      auth: teamAuth(team, { logger: opts.logger, ...(remote && { audit: remote.audit }), ...(opts.oidc && { oidc: { ...(opts.oidc.matchBy && { matchBy: opts.oidc.matchBy }) } }) }),
      ...(oidc && { oidc }),
      // Each call is checked against the person's role, then runs as them on their connection (claims, who is online).
      serviceFor: (principal) => guardedService(handle!.connections!.serve(principal, service), principal),
      ...(remote && { gateway: remote.gateway, bridges: { authenticate: remote.caller, accept: remote.bridge } }),
      healthy: () => team.conn.available(),
      onError: (err) => opts.logger.warn('team server: request failed', { error: String(err) }),
    });
    page.url = host.url;
    if (admin.generated) opts.print(`${ADMIN_TOKEN_LINE_PREFIX}${admin.generated}`);
    if (admin.replaced) opts.logger.info('the admin token was replaced from MCP_CONSOLE_ADMIN_TOKEN; sessions opened with the former one ended');
    opts.print(`${SERVING_LINE_PREFIX}${host.url}`);
  } catch (err) {
    await host?.close().catch(() => undefined);
    await handle?.dispose().catch(() => undefined);
    await team.close().catch(() => undefined);
    throw err;
  }
  const running = { host, console: handle };
  let stopping: Promise<void> | undefined;
  return {
    ...running,
    team,
    stop: () =>
      (stopping ??= (async () => {
        await running.host.close();
        await running.console.dispose();
        await team.close();
      })()),
  };
}
