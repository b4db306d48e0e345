/**
 * Who may use a team server's web UI, behind one small interface the listener (app/web/team-host.ts)
 * calls: the sign-in methods the page offers, signing in (which opens a session: sessions.ts),
 * the principal a session cookie stands for, signing out, and word that sessions ended elsewhere.
 *
 * Today there is one method and one principal: the team's shared admin token (admin-token.ts)
 * signs in as `admin`, who may do everything. People's own accounts (local passwords, OpenID
 * Connect) and their roles come in as further {@link SignInMethod}s and principals of this same
 * interface; the listener hands each connection's principal to `serviceFor` and does not change.
 */
import type { Viewer } from '../../shared/contract/roles.js';
import type { Connection } from '../store/pg/connection.js';
import { ADMIN_SUBJECT, adminTokenMatches } from './admin-token.js';
import type { TeamNotifier } from './notify.js';
import { teamPeople } from './people.js';
import { teamSessions, type TeamSessions } from './sessions.js';

/**
 * Who acts through a signed-in connection: a person of the team (their subject, name, role and
 * assigned servers), or the shared admin token (subject `admin`, role `admin`).
 */
export type Principal = Viewer;

/** How one signs in: the shared admin token. */
export type SignInMethod = 'admin_token';

/** What a person typed on the sign-in page. */
export type Credentials = { method: 'admin_token'; token: string };

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
  /** Checks `credentials` and opens a session; undefined when they are wrong. */
  signIn(credentials: Credentials): Promise<SignedIn | undefined>;
  /** The principal of a valid session, else undefined (unknown, ended, expired). */
  session(sessionId: string): Promise<Principal | undefined>;
  /** Ends the session (nothing when there is none). */
  signOut(sessionId: string): Promise<void>;
  /** Calls `listener` when sessions may have ended, on this instance or another (connections check theirs again); returns the unsubscribe. */
  onSessionsEnded(listener: () => void): () => void;
}

const ADMIN: Principal = { subject: ADMIN_SUBJECT, name: 'admin token', role: 'admin' };

/** The sign-in of a team server with the shared admin token (one per instance, on the team's database). */
export function adminTokenAuth(team: { conn: Connection; notifier: TeamNotifier }): TeamAuth {
  const sessions: TeamSessions = teamSessions(team.conn, team.notifier);
  const people = teamPeople(team.conn, team.notifier);
  const principalOf = async (subject: string): Promise<Principal | undefined> => {
    if (subject === ADMIN_SUBJECT) return ADMIN;
    const person = await people.find(subject);
    return person && { subject: person.subject, name: person.name, role: person.role, ...(person.servers && { servers: person.servers }) };
  };
  return {
    methods: ['admin_token'],
    async signIn(credentials) {
      if (credentials.method !== 'admin_token' || !(await adminTokenMatches(team.conn, credentials.token))) return undefined;
      const opened = await sessions.open(ADMIN_SUBJECT);
      return { sessionId: opened.id, expiresAt: opened.expiresAt, principal: ADMIN };
    },
    async session(sessionId) {
      const found = await sessions.find(sessionId);
      return found && (await principalOf(found.subject));
    },
    signOut: (sessionId) => sessions.end(sessionId),
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
