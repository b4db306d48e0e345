/**
 * The people of a team server, in the team's database (`team_people`, migration 0013): each has a
 * stable subject, a sign-in name, one role (shared/contract/roles.ts) and, for a reviewer, the
 * servers assigned to them. Removing a person marks the row (History and the audit trail still
 * name them) and ends their sessions at once on every instance.
 */
import { randomBytes } from 'node:crypto';
import type { TeamRole, Viewer } from '../../shared/contract/roles.js';
import type { Connection } from '../store/pg/connection.js';
import type { TeamNotifier } from './notify.js';
import { teamSessions } from './sessions.js';

/** A person as stored (never their password hash). */
export interface Person extends Viewer {
  /** When they were added, epoch ms. */
  createdAt: number;
  /** OpenID Connect issuer and subject, when they sign in through single sign-on. */
  oidc?: { issuer: string; subject: string };
}

/** What {@link TeamPeople.add} takes. */
export interface NewPerson {
  name: string;
  role: TeamRole;
  servers?: readonly string[];
  /** argon2id PHC string (local sign-in). */
  passwordHash?: string;
  oidc?: { issuer: string; subject: string };
}

/** The team's people. Every method rejects with HistoryUnavailableError while the database cannot be reached. */
export interface TeamPeople {
  /** The person with `subject` while not removed, else undefined. */
  find(subject: string): Promise<Person | undefined>;
  /** The person signing in as `name` (case-insensitive) while not removed, with their password hash. */
  byName(name: string): Promise<(Person & { passwordHash?: string }) | undefined>;
  /** Everyone not removed, by name. */
  list(): Promise<Person[]>;
  /** Adds a person. @throws Error `a person named … exists` when the name is taken */
  add(person: NewPerson, now: number): Promise<Person>;
  /**
   * Marks the person removed and ends their sessions; false when there was no such person. Callers
   * add what else ends with the person (their connections close through the sessions' notification;
   * their personal tokens are revoked by whoever keeps them).
   */
  remove(subject: string, now: number): Promise<boolean>;
  /** Sets a person's role and assigned servers (`servers` undefined: every server); the person as they were and are now, or undefined when there is no such person. */
  setRole(subject: string, role: TeamRole, servers: readonly string[] | undefined): Promise<{ before: Person; after: Person } | undefined>;
  /** Sets (or, with undefined, clears) a person's password hash; false when there is no such person. */
  setPassword(subject: string, passwordHash: string | undefined): Promise<boolean>;
  /** The person signing in through OpenID Connect as `subject` of `issuer`, while not removed. */
  byOidc(issuer: string, subject: string): Promise<Person | undefined>;
  /** Links a person to an OpenID Connect identity (the first single sign-on of a person matched by name); false when there is no such person or the identity is someone else's. */
  linkOidc(subject: string, oidc: { issuer: string; subject: string }): Promise<boolean>;
}

interface Row {
  subject: string;
  name: string;
  role: TeamRole;
  servers: string[] | null;
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  created_at: number;
}

const COLUMNS = 'subject, name, role, servers, password_hash, oidc_issuer, oidc_subject, created_at';

const personOf = (r: Row): Person => ({
  subject: r.subject,
  name: r.name,
  role: r.role,
  ...(r.servers && { servers: r.servers }),
  createdAt: r.created_at,
  ...(r.oidc_issuer && r.oidc_subject && { oidc: { issuer: r.oidc_issuer, subject: r.oidc_subject } }),
});

/** The people on `conn`; removal tells every instance through `notifier` (sessions.ts). */
export function teamPeople(conn: Connection, notifier: Pick<TeamNotifier, 'instanceId'>): TeamPeople {
  const sessions = teamSessions(conn, notifier);
  return {
    async find(subject) {
      const [row] = await conn.query<Row>(`SELECT ${COLUMNS} FROM team_people WHERE subject = $1 AND removed_at IS NULL`, [subject]);
      return row && personOf(row);
    },
    async byName(name) {
      const [row] = await conn.query<Row>(`SELECT ${COLUMNS} FROM team_people WHERE lower(name) = lower($1) AND removed_at IS NULL`, [name]);
      return row && { ...personOf(row), ...(row.password_hash && { passwordHash: row.password_hash }) };
    },
    async list() {
      const rows = await conn.query<Row>(`SELECT ${COLUMNS} FROM team_people WHERE removed_at IS NULL ORDER BY lower(name)`);
      return rows.map(personOf);
    },
    async add(p, now) {
      const subject = `p_${randomBytes(12).toString('base64url')}`;
      try {
        const [row] = await conn.query<Row>(
          `INSERT INTO team_people (subject, name, role, servers, password_hash, oidc_issuer, oidc_subject, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
          [subject, p.name, p.role, p.servers ?? null, p.passwordHash ?? null, p.oidc?.issuer ?? null, p.oidc?.subject ?? null, now],
        );
        return personOf(row!);
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw new Error(`a person named ${p.name} exists`, { cause: err });
        throw err;
      }
    },
    async remove(subject, now) {
      const rows = await conn.query('UPDATE team_people SET removed_at = $2 WHERE subject = $1 AND removed_at IS NULL RETURNING subject', [subject, now]);
      if (rows.length === 0) return false;
      await sessions.endAll(subject);
      return true;
    },
    async setRole(subject, role, servers) {
      return conn.transaction(async (q) => {
        const [was] = await q<Row>(`SELECT ${COLUMNS} FROM team_people WHERE subject = $1 AND removed_at IS NULL FOR UPDATE`, [subject]);
        if (!was) return undefined;
        const [now] = await q<Row>(`UPDATE team_people SET role = $2, servers = $3 WHERE subject = $1 RETURNING ${COLUMNS}`, [subject, role, servers ?? null]);
        return { before: personOf(was), after: personOf(now!) };
      });
    },
    async setPassword(subject, passwordHash) {
      const rows = await conn.query('UPDATE team_people SET password_hash = $2 WHERE subject = $1 AND removed_at IS NULL RETURNING subject', [subject, passwordHash ?? null]);
      return rows.length > 0;
    },
    async byOidc(issuer, oidcSubject) {
      const [row] = await conn.query<Row>(`SELECT ${COLUMNS} FROM team_people WHERE oidc_issuer = $1 AND oidc_subject = $2 AND removed_at IS NULL`, [issuer, oidcSubject]);
      return row && personOf(row);
    },
    async linkOidc(subject, oidc) {
      try {
        const rows = await conn.query(
          'UPDATE team_people SET oidc_issuer = $2, oidc_subject = $3 WHERE subject = $1 AND removed_at IS NULL AND oidc_issuer IS NULL RETURNING subject',
          [subject, oidc.issuer, oidc.subject],
        );
        return rows.length > 0;
      } catch (err) {
        if ((err as { code?: string }).code === '23505') return false;
        throw err;
      }
    },
  };
}
