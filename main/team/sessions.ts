/**
 * Browser sessions of a team server, in the team's database (`team_sessions`) so that a person
 * signed in through one instance is signed in on all of them, whichever the load balancer picks.
 * The cookie holds a random id (32 bytes, base64url); the database only its SHA-256.
 *
 * A session ends when it is {@link SESSION_IDLE_MS} without use, {@link SESSION_MAX_MS} after it
 * began, or when it is ended (signed out, its subject's access removed). Ending tells every
 * instance (`tokens` notification, id `session:<subject>`), so the UI connections it holds are
 * checked again and closed at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Connection } from '../store/pg/connection.js';
import { notifySql, type TeamNotifier } from './notify.js';

/** How long a session may go unused before it ends, in ms (12 hours). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** How long a session lasts at most, in ms (7 days). */
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;

/** An open session. */
export interface OpenedSession {
  /** The cookie's value (shown to the browser once; only its hash is stored). */
  id: string;
  /** When it ends at the latest, epoch ms. */
  expiresAt: number;
}

/** A session found valid. */
export interface SessionInfo {
  subject: string;
  /** When it ends at the latest, epoch ms. */
  expiresAt: number;
}

/** The team's sessions. Every method rejects with HistoryUnavailableError while the database cannot be reached. */
export interface TeamSessions {
  /** Opens a session for `subject`. */
  open(subject: string): Promise<OpenedSession>;
  /** The session with cookie value `id` when it is valid (its use noted), else undefined. */
  find(id: string): Promise<SessionInfo | undefined>;
  /** Ends one session (signing out); nothing when there is none. */
  end(id: string): Promise<void>;
  /** Ends every session of `subject`; returns how many. */
  endAll(subject: string): Promise<number>;
}

const hashOf = (id: string): string => createHash('sha256').update(id).digest('hex');

const FIND_SQL = `UPDATE team_sessions SET last_seen_at = now()
  WHERE id_sha256 = $1 AND expires_at > now() AND last_seen_at > now() - $2::float8 * interval '1 millisecond'
  RETURNING subject, (extract(epoch FROM expires_at) * 1000)::float8 AS expires_at`;
const PRUNE_SQL = "DELETE FROM team_sessions WHERE expires_at <= now() OR last_seen_at <= now() - $1::float8 * interval '1 millisecond'";

/** The sessions on `conn`; `notifier` tells the other instances when sessions end. */
export function teamSessions(conn: Connection, notifier: Pick<TeamNotifier, 'instanceId'>): TeamSessions {
  const told = (subject: string) => notifySql({ topic: 'tokens', id: `session:${subject}`, from: notifier.instanceId() });
  return {
    async open(subject) {
      const id = randomBytes(32).toString('base64url');
      await conn.query(PRUNE_SQL, [SESSION_IDLE_MS]);
      const [row] = await conn.query<{ expires_at: number }>(
        "INSERT INTO team_sessions (id_sha256, subject, expires_at) VALUES ($1, $2, now() + $3::float8 * interval '1 millisecond') RETURNING (extract(epoch FROM expires_at) * 1000)::float8 AS expires_at",
        [hashOf(id), subject, SESSION_MAX_MS],
      );
      return { id, expiresAt: row!.expires_at };
    },
    async find(id) {
      if (id.length === 0 || id.length > 200) return undefined;
      const [row] = await conn.query<{ subject: string; expires_at: number }>(FIND_SQL, [hashOf(id), SESSION_IDLE_MS]);
      return row && { subject: row.subject, expiresAt: row.expires_at };
    },
    async end(id) {
      await conn.transaction(async (q) => {
        const rows = await q<{ subject: string }>('DELETE FROM team_sessions WHERE id_sha256 = $1 RETURNING subject', [hashOf(id)]);
        if (rows[0]) {
          const n = told(rows[0].subject);
          await q(n.text, n.params);
        }
      });
    },
    async endAll(subject) {
      return conn.transaction(async (q) => {
        const rows = await q('DELETE FROM team_sessions WHERE subject = $1 RETURNING subject', [subject]);
        const n = told(subject);
        await q(n.text, n.params);
        return rows.length;
      });
    },
  };
}
