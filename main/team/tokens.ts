/**
 * The provider gateway's tokens on a team server: the same {@link GatewayTokens} as the desktop's
 * gateway.json and secret store (main/gateway/tokens.ts), with the named tokens in the team's
 * database (`team_gateway_tokens`, migration 0004) so every instance knows them:
 *
 * - only the SHA-256 of a token is stored; the token is shown once, when it is made
 *   ({@link GatewayTokens.reveal} refuses: `error.gatewayTokenShownOnce`);
 * - a call's token is looked up and its use counted in one `UPDATE … RETURNING` on every call, so
 *   a token revoked on one instance is refused on all at once, and the counts are the team's;
 * - made or revoked on one instance, a `tokens` notification tells the others to read the list
 *   again (and after a reconnect they read it anyway), so Settings shows the same list everywhere;
 * - made or revoked, it is recorded in the audit trail (the name and the token's SHA-256).
 *
 * A token that is no named token may be a person's personal token (personal-tokens.ts): its calls
 * are queued under `gateway:<its name>` and carry its owner and scope ({@link TokenHolder.personal}).
 *
 * The per-run tokens of the servers an instance launches itself stay in its memory, as on the
 * desktop; the port of its loopback gateway is its own gateway.json's.
 */
import { ApiError } from '../../shared/contract/api.js';
import type { AuditInput } from '../../shared/contract/audit.js';
import { tokenCallerId, type GatewayTokenView } from '../../shared/contract/gateway.js';
import { ui } from '../../shared/contract/ui-text.js';
import { personActing } from '../audit/actor.js';
import type { AuditTrail } from '../audit/trail.js';
import { checkTokenName, createServerTokens, gatewayFileSettings, newToken, sha256, type GatewayTokens, type TokenHolder } from '../gateway/tokens.js';
import type { Logger } from '../logger.js';
import type { Connection } from '../store/pg/connection.js';
import { notifySql, type TeamNotifier } from './notify.js';
import { teamPersonalTokens } from './personal-tokens.js';

/** After a call with a named token, how long this instance waits before it reads the counts again, in ms. */
export const USE_REFRESH_MS = 1_000;

/** What {@link openTeamGatewayTokens} needs. */
export interface TeamTokensOptions {
  conn: Connection;
  notifier: TeamNotifier;
  /** This instance's data folder (its gateway.json gives the loopback port). */
  dir: string;
  logger?: Logger;
  /**
   * Where named tokens made and revoked are recorded (`token.created`, `token.revoked`; never the
   * token). The call resolves once the record is durable, so another instance's next change of the
   * same token is recorded after it.
   */
  audit?: Pick<AuditTrail, 'record' | 'durable'>;
}

interface Row {
  name: string;
  created_at: number;
  calls: number;
  last_used_at: number | null;
}

const LIST_SQL = 'SELECT name, created_at, calls, last_used_at FROM team_gateway_tokens ORDER BY created_at, name';
const USE_SQL = 'UPDATE team_gateway_tokens SET calls = calls + 1, last_used_at = GREATEST(COALESCE(last_used_at, 0), $2) WHERE sha256 = $1 RETURNING name';
const CREATE_SQL = 'INSERT INTO team_gateway_tokens (name, sha256, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING name';
const REVOKE_SQL = 'DELETE FROM team_gateway_tokens WHERE name = $1 RETURNING sha256';

const viewOf = (r: Row): GatewayTokenView => ({ name: r.name, createdAt: r.created_at, calls: r.calls, ...(r.last_used_at !== null && { lastUsedAt: r.last_used_at }) });

/**
 * Opens the team's gateway tokens and reads their list once.
 * @throws (rejects) HistoryUnavailableError when the database cannot be reached
 */
export async function openTeamGatewayTokens(opts: TeamTokensOptions): Promise<GatewayTokens> {
  const { conn, notifier } = opts;
  const file = gatewayFileSettings(opts.dir);
  const servers = createServerTokens();
  const personalTokens = teamPersonalTokens(conn);
  const listeners = new Set<() => void>();
  let list: GatewayTokenView[] = [];
  let json = '[]';
  let closed = false;
  let useTimer: ReturnType<typeof setTimeout> | undefined;

  /** Reads the list again; tells the listeners when it changed (`quiet`: this object's own change, its caller publishes). */
  const reload = async (quiet = false): Promise<void> => {
    const rows = await conn.query<Row>(LIST_SQL);
    const next = rows.map(viewOf);
    const nextJson = JSON.stringify(next);
    if (nextJson === json) return;
    list = next;
    json = nextJson;
    if (!quiet) for (const l of listeners) l();
  };
  const reloadSoon = () => {
    if (closed) return;
    void reload().catch((err: unknown) => opts.logger?.warn('team gateway tokens: could not read the list', { error: String(err) }));
  };
  await reload(true);
  const unsubscribe = notifier.subscribe('tokens', (e) => {
    // A session ended or an admin token replaced also says `tokens`; only gateway tokens change the list.
    if (e.id === undefined || e.id.startsWith('gateway:')) reloadSoon();
  });
  const unResync = notifier.onResync(reloadSoon);
  /** Records a change and waits until it is durable (a failed append is kept, tried again and logged: the change itself is done). */
  const recorded = async (input: AuditInput): Promise<void> => {
    if (!opts.audit) return;
    opts.audit.record(input);
    await opts.audit.durable().catch((err: unknown) => opts.logger?.warn('team gateway tokens: the audit record is not durable yet', { error: String(err) }));
  };
  const publish = async (name: string, q: <R>(text: string, params?: readonly unknown[]) => Promise<R[]>) => {
    const n = notifySql({ topic: 'tokens', id: tokenCallerId(name), from: notifier.instanceId() });
    await q(n.text, n.params);
  };

  return {
    port: () => file.port,
    ...(file.problem && { problem: file.problem }),
    shownOnce: true,
    forServer: (serverId) => servers.forServer(serverId),
    async holder(token: string, now: number): Promise<TokenHolder | undefined> {
      const hash = sha256(token);
      const serverId = servers.serverOf(hash);
      if (serverId) return { serverId, caller: { kind: 'server' } };
      const [row] = await conn.query<{ name: string }>(USE_SQL, [hash, now]);
      if (!row) {
        const personal = await personalTokens.use(token, now);
        return personal && { serverId: tokenCallerId(personal.name), caller: { kind: 'token', name: personal.name }, personal };
      }
      useTimer ??= setTimeout(() => {
        useTimer = undefined;
        reloadSoon();
      }, USE_REFRESH_MS);
      useTimer.unref?.();
      return { serverId: tokenCallerId(row.name), caller: { kind: 'token', name: row.name } };
    },
    async create(name, now) {
      checkTokenName(name);
      const token = newToken();
      const made = await conn.transaction(async (q) => {
        const rows = await q(CREATE_SQL, [name, sha256(token), now]);
        if (rows.length > 0) await publish(name, q);
        return rows.length > 0;
      });
      if (!made) throw new ApiError('invalid_input', ui('error.gatewayTokenTaken', { name }));
      await recorded({ actor: personActing(), kind: 'token.created', subject: `token:${name}`, details: { tokenKind: 'gateway', sha256: sha256(token) } });
      await reload(true).catch(() => undefined);
      return token;
    },
    async reveal(name) {
      if (!list.some((t) => t.name === name)) throw new ApiError('not_found', ui('error.noGatewayToken', { name }));
      throw new ApiError('invalid_state', ui('error.gatewayTokenShownOnce', { name }));
    },
    async revoke(name) {
      const gone = await conn.transaction(async (q) => {
        const [row] = await q<{ sha256: string }>(REVOKE_SQL, [name]);
        if (row) await publish(name, q);
        return row;
      });
      await reload(true).catch(() => undefined);
      if (!gone) throw new ApiError('not_found', ui('error.noGatewayToken', { name }));
      await recorded({ actor: personActing(), kind: 'token.revoked', subject: `token:${name}`, details: { tokenKind: 'gateway', sha256: gone.sha256 } });
    },
    views: () => list,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(useTimer);
      unsubscribe();
      unResync();
    },
  };
}
