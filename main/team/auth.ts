/**
 * Who may use a team server's web UI, behind one small interface the listener (app/web/team-host.ts)
 * calls: the sign-in methods the page offers, signing in (which opens a new session: sessions.ts),
 * the principal a session cookie stands for, signing out, and word that sessions ended elsewhere.
 *
 * Methods: a person's local password (`password`: name + password, argon2id: passwords.ts), the
 * team's shared admin token (`admin_token`: admin-token.ts, signs in as `admin`), and OpenID
 * Connect (`oidc`, when configured: the protocol is oidc.ts; here only who an identity is).
 * Every sign-in, failed sign-in (the name tried, never the password) and sign-out is recorded in
 * the audit trail.
 */
import type { AuditInput } from '../../shared/contract/audit.js';
import type { Viewer } from '../../shared/contract/roles.js';
import type { AuditTrail } from '../audit/trail.js';
import type { Logger } from '../logger.js';
import type { Connection } from '../store/pg/connection.js';
import { ADMIN_SUBJECT, adminTokenMatches } from './admin-token.js';
import type { TeamNotifier } from './notify.js';
import { passwordMatches } from './passwords.js';
import { teamPeople, type Person } from './people.js';
import { teamSessions, type TeamSessions } from './sessions.js';

/**
 * Who acts through a signed-in connection: a person of the team (their subject, name, role and
 * assigned servers), or the shared admin token (subject `admin`, role `admin`).
 */
export type Principal = Viewer;

/** How one signs in: a person's name and password, the shared admin token, or OpenID Connect. */
export type SignInMethod = 'password' | 'admin_token' | 'oidc';

/** What a person typed on the sign-in page. */
export type Credentials = { method: 'admin_token'; token: string } | { method: 'password'; name: string; password: string };

/** An identity an OpenID provider vouched for (ID token claims). */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email?: string;
  preferredUsername?: string;
}

/** Where a sign-in comes from, for the audit trail. */
export interface SignInContextInfo {
  /** The client's address. */
  address?: string;
}

/** A sign-in that succeeded: the session to set as the cookie, when it ends at the latest (epoch ms), and who it is. */
export interface SignedIn {
  sessionId: string;
  expiresAt: number;
  principal: Principal;
}

/** A team server's sign-in. Every method rejects with HistoryUnavailableError while the database cannot be reached. */
export interface TeamAuth {
  /** The methods the sign-in page offers. */
  readonly methods: readonly SignInMethod[];
  /** Checks `credentials` and opens a new session; undefined when they are wrong (recorded as a failed sign-in). */
  signIn(credentials: Credentials, from?: SignInContextInfo): Promise<SignedIn | undefined>;
  /**
   * Opens a new session for the person an OpenID provider vouched for: the person registered with
   * that issuer and subject, or (with `matchBy`) the person whose name equals the identity's email
   * or preferred username and who has no single sign-on yet (linked now). Undefined: nobody.
   */
  signInOidc(identity: OidcIdentity, from?: SignInContextInfo): Promise<SignedIn | undefined>;
  /** The principal of a valid session, else undefined (unknown, ended, expired). */
  session(sessionId: string): Promise<Principal | undefined>;
  /** Ends the session (nothing when there is none). */
  signOut(sessionId: string, from?: SignInContextInfo): Promise<void>;
  /** Calls `listener` when sessions may have ended, on this instance or another (connections check theirs again); returns the unsubscribe. */
  onSessionsEnded(listener: () => void): () => void;
}

/** Options of {@link teamAuth}. */
export interface TeamAuthOptions {
  /** Where sign-ins are recorded. */
  audit?: Pick<AuditTrail, 'record' | 'durable'>;
  logger?: Logger;
  /** OpenID Connect is configured: offer it; `matchBy` lets a first sign-in find a person by the identity's email or preferred username. */
  oidc?: { matchBy?: 'email' | 'preferred_username' };
}

const ADMIN: Principal = { subject: ADMIN_SUBJECT, name: 'admin token', role: 'admin' };

const principalOfPerson = (person: Person): Principal => ({ subject: person.subject, name: person.name, role: person.role, ...(person.servers && { servers: person.servers }) });

/** The sign-in of a team server (one per instance, on the team's database). */
export function teamAuth(team: { conn: Connection; notifier: TeamNotifier }, opts: TeamAuthOptions = {}): TeamAuth {
  const sessions: TeamSessions = teamSessions(team.conn, team.notifier);
  const people = teamPeople(team.conn, team.notifier);
  const principalOf = async (subject: string): Promise<Principal | undefined> => {
    if (subject === ADMIN_SUBJECT) return ADMIN;
    const person = await people.find(subject);
    return person && principalOfPerson(person);
  };
  const recorded = async (input: AuditInput): Promise<void> => {
    if (!opts.audit) return;
    opts.audit.record(input);
    await opts.audit.durable().catch((err: unknown) => opts.logger?.warn('team sign-in: the audit record is not durable yet', { error: String(err) }));
  };
  const opened = async (principal: Principal, method: SignInMethod, from?: SignInContextInfo): Promise<SignedIn> => {
    const session = await sessions.open(principal.subject);
    await recorded({ actor: { kind: 'person', id: principal.subject, name: principal.name }, kind: 'session.signed_in', subject: `person:${principal.subject}`, details: { method, ...(from?.address && { address: from.address }) } });
    return { sessionId: session.id, expiresAt: session.expiresAt, principal };
  };
  const failed = async (method: SignInMethod, tried: string | undefined, from?: SignInContextInfo): Promise<undefined> => {
    const name = tried?.slice(0, 200);
    await recorded({ actor: { kind: 'person', ...(name && { name }) }, kind: 'session.sign_in_failed', subject: `sign-in:${method}`, details: { method, ...(name && { name }), ...(from?.address && { address: from.address }) } });
    return undefined;
  };
  return {
    methods: ['password', 'admin_token', ...(opts.oidc ? (['oidc'] as const) : [])],
    async signIn(credentials, from) {
      if (credentials.method === 'admin_token') {
        if (!(await adminTokenMatches(team.conn, credentials.token))) return failed('admin_token', undefined, from);
        return opened(ADMIN, 'admin_token', from);
      }
      const person = credentials.name.length <= 200 ? await people.byName(credentials.name) : undefined;
      if (!(await passwordMatches(credentials.password, person?.passwordHash)) || !person) return failed('password', credentials.name, from);
      return opened(principalOfPerson(person), 'password', from);
    },
    async signInOidc(identity, from) {
      let person = await people.byOidc(identity.issuer, identity.subject);
      const claim = opts.oidc?.matchBy === 'email' ? identity.email : opts.oidc?.matchBy === 'preferred_username' ? identity.preferredUsername : undefined;
      if (!person && claim) {
        const named = await people.byName(claim);
        if (named && !named.oidc && (await people.linkOidc(named.subject, identity))) person = named;
      }
      if (!person) return failed('oidc', claim ?? `${identity.issuer}#${identity.subject}`, from);
      return opened(principalOfPerson(person), 'oidc', from);
    },
    async session(sessionId) {
      const found = await sessions.find(sessionId);
      return found && (await principalOf(found.subject));
    },
    async signOut(sessionId, from) {
      const found = await sessions.find(sessionId);
      await sessions.end(sessionId);
      const principal = found && (await principalOf(found.subject));
      if (principal) await recorded({ actor: { kind: 'person', id: principal.subject, name: principal.name }, kind: 'session.signed_out', subject: `person:${principal.subject}`, details: { ...(from?.address && { address: from.address }) } });
    },
    onSessionsEnded(listener) {
      const off = team.notifier.subscribe('tokens', (e) => {
        if (e.id?.startsWith('session:')) listener();
      });
      const offResync = team.notifier.onResync(listener); // notifications may have been missed meanwhile
      return () => {
        off();
        offResync();
      };
    },
  };
}

/** The sign-in with every local method and no audit trail (tests, tools). */
export const adminTokenAuth = (team: { conn: Connection; notifier: TeamNotifier }): TeamAuth => teamAuth(team);
