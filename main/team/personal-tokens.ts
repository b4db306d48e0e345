/**
 * Personal tokens of a team server's people (shared/contract/personal-tokens.ts), in the team's
 * database (`team_personal_tokens`, migration 0015):
 *
 * - only the SHA-256 of a token is stored; the token is returned once, when made;
 * - every use is looked up (and counted) in one `UPDATE … RETURNING` that also requires the owner
 *   to be a person not removed: a token revoked, or its owner removed, on any instance is refused
 *   by every instance at its next use — a gateway call, or a bridge's next request
 *   ({@link TeamPersonalTokens.valid});
 * - made and revoked, it is recorded in the audit trail (`token.created`, `token.revoked`: the
 *   owner and the token's SHA-256, never the token).
 *
 * The API methods act for the person calling (`currentActor()`, set by main/team/access.ts): their
 * own tokens; an admin may list and revoke anyone's.
 */
import { randomBytes } from 'node:crypto';
import { ApiError, type ApiParsedInput, type ConsoleService } from '../../shared/contract/api.js';
import type { AuditInput } from '../../shared/contract/audit.js';
import type { PersonalTokenScope, PersonalTokenUse, PersonalTokenView, PersonRef, TokenCaller } from '../../shared/contract/personal-tokens.js';
import { ui } from '../../shared/contract/ui-text.js';
import { currentActor } from '../audit/actor.js';
import type { AuditTrail } from '../audit/trail.js';
import { checkTokenName, sha256 } from '../gateway/tokens.js';
import type { Logger } from '../logger.js';
import type { Connection } from '../store/pg/connection.js';
import { ADMIN_SUBJECT } from './admin-token.js';
import { teamPeople } from './people.js';
import type { TeamNotifier } from './notify.js';

/** The team's personal tokens. Every method rejects with HistoryUnavailableError while the database cannot be reached. */
export interface TeamPersonalTokens {
  /** The token's use (counted), or undefined: unknown, revoked, or its owner removed. */
  use(token: string, now: number): Promise<PersonalTokenUse | undefined>;
  /** Whether token `id` may still be used (not revoked, its owner not removed). */
  valid(id: string): Promise<boolean>;
  /** Makes a token of `owner`; returns it (once) and its view. @throws ApiError invalid_input (bad or taken name) */
  create(owner: PersonRef, input: ApiParsedInput<'createPersonalToken'>, now: number): Promise<{ token: string; view: PersonalTokenView }>;
  /** `owner`'s tokens (every live person's when undefined), oldest first. */
  list(owner?: string): Promise<PersonalTokenView[]>;
  /** Deletes token `id` (only if `owner` owns it, when given); its view and hash, undefined when there was none. */
  revoke(id: string, owner?: string): Promise<{ view: PersonalTokenView; sha256: string } | undefined>;
}

interface Row {
  id: string;
  owner_subject: string;
  owner_name: string;
  name: string;
  sha256: string;
  servers: string[] | null;
  callers: TokenCaller[] | null;
  created_at: number;
  calls: string | number;
  last_used_at: number | null;
}

const COLUMNS = 'id, owner_subject, owner_name, name, sha256, servers, callers, created_at, calls, last_used_at';
/** The owner may use it: the shared admin token's `admin`, or a person not removed. */
const OWNER_LIVE = `(owner_subject = '${ADMIN_SUBJECT}' OR EXISTS (SELECT 1 FROM team_people p WHERE p.subject = owner_subject AND p.removed_at IS NULL))`;
const USE_SQL = `UPDATE team_personal_tokens SET calls = calls + 1, last_used_at = GREATEST(COALESCE(last_used_at, 0), $2) WHERE sha256 = $1 AND ${OWNER_LIVE} RETURNING ${COLUMNS}`;
const VALID_SQL = `SELECT 1 FROM team_personal_tokens WHERE id = $1 AND ${OWNER_LIVE}`;
const CREATE_SQL =
  `INSERT INTO team_personal_tokens (id, owner_subject, owner_name, name, sha256, servers, callers, created_at) ` +
  `SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE NOT EXISTS (SELECT 1 FROM team_gateway_tokens WHERE name = $4) ` +
  `ON CONFLICT (name) DO NOTHING RETURNING ${COLUMNS}`;
const LIST_SQL = `SELECT ${COLUMNS} FROM team_personal_tokens WHERE ($1::text IS NULL OR owner_subject = $1) AND ${OWNER_LIVE} ORDER BY created_at, name`;
const REVOKE_SQL = `DELETE FROM team_personal_tokens WHERE id = $1 AND ($2::text IS NULL OR owner_subject = $2) RETURNING ${COLUMNS}`;

const scopeOf = (r: Row): PersonalTokenScope => ({ ...(r.servers && { servers: r.servers }), ...(r.callers && { callers: r.callers }) });
const useOf = (r: Row): PersonalTokenUse => ({ id: r.id, name: r.name, owner: { subject: r.owner_subject, name: r.owner_name }, ...scopeOf(r) });
const viewOf = (r: Row): PersonalTokenView => ({
  ...useOf(r),
  createdAt: r.created_at,
  calls: Number(r.calls),
  ...(r.last_used_at !== null && { lastUsedAt: r.last_used_at }),
});

/** A new personal token: 32 random bytes (distinguishable from gateway tokens by its prefix). */
const newPersonalToken = (): string => `mcppt_${randomBytes(32).toString('base64url')}`;

/** The personal tokens on `conn`. */
export function teamPersonalTokens(conn: Connection): TeamPersonalTokens {
  return {
    async use(token, now) {
      const [row] = await conn.query<Row>(USE_SQL, [sha256(token), now]);
      return row && useOf(row);
    },
    async valid(id) {
      return (await conn.query(VALID_SQL, [id])).length > 0;
    },
    async create(owner, input, now) {
      checkTokenName(input.name);
      const token = newPersonalToken();
      const id = `pt_${randomBytes(12).toString('base64url')}`;
      const [row] = await conn.query<Row>(CREATE_SQL, [id, owner.subject, owner.name, input.name, sha256(token), input.servers ?? null, input.callers ?? null, now]);
      if (!row) throw new ApiError('invalid_input', ui('error.gatewayTokenTaken', { name: input.name }));
      return { token, view: viewOf(row) };
    },
    async list(owner) {
      return (await conn.query<Row>(LIST_SQL, [owner ?? null])).map(viewOf);
    },
    async revoke(id, owner) {
      const [row] = await conn.query<Row>(REVOKE_SQL, [id, owner ?? null]);
      return row && { view: viewOf(row), sha256: row.sha256 };
    },
  };
}

/** What {@link personalTokenMethods} needs. */
export interface PersonalTokenMethodsDeps {
  conn: Connection;
  notifier: Pick<TeamNotifier, 'instanceId'>;
  tokens: TeamPersonalTokens;
  audit?: Pick<AuditTrail, 'record' | 'durable'>;
  logger?: Logger;
  now(): number;
}

/** The API methods of personal tokens, acting for the person calling. */
export type PersonalTokenMethods = Pick<ConsoleService, 'createPersonalToken' | 'listPersonalTokens' | 'revokePersonalToken'>;

/**
 * The personal-token methods of a team server's console.
 * @throws (the methods reject) ApiError forbidden (`error.forbiddenRole`: no signed-in person, or
 *   a non-admin asking for everyone's tokens), not_found (`error.noPersonalToken`: no such token of
 *   theirs), invalid_input (a bad or taken name)
 */
export function personalTokenMethods(deps: PersonalTokenMethodsDeps): PersonalTokenMethods {
  const people = teamPeople(deps.conn, deps.notifier);
  /** The person calling and whether they are an admin. */
  const caller = async (): Promise<{ person: PersonRef; admin: boolean }> => {
    const actor = currentActor();
    if (actor?.kind !== 'person' || !actor.id) throw new ApiError('forbidden', ui('error.forbiddenRole', { role: '-' }));
    const person = { subject: actor.id, name: actor.name ?? actor.id };
    if (actor.id === ADMIN_SUBJECT) return { person, admin: true };
    const found = await people.find(actor.id);
    if (!found) throw new ApiError('forbidden', ui('error.forbiddenRole', { role: '-' }));
    return { person: { subject: found.subject, name: found.name }, admin: found.role === 'admin' };
  };
  const recorded = async (input: AuditInput): Promise<void> => {
    if (!deps.audit) return;
    deps.audit.record(input);
    await deps.audit.durable().catch((err: unknown) => deps.logger?.warn('personal tokens: the audit record is not durable yet', { error: String(err) }));
  };
  const actorOf = (p: PersonRef) => ({ kind: 'person' as const, id: p.subject, name: p.name });
  return {
    async createPersonalToken(input) {
      const { person } = await caller();
      const made = await deps.tokens.create(person, input, deps.now());
      const details = { tokenKind: 'personal', owner: person.subject, sha256: sha256(made.token), ...scopeDetails(made.view) };
      await recorded({ actor: actorOf(person), kind: 'token.created', subject: `token:${made.view.id}`, details });
      return made;
    },
    async listPersonalTokens({ everyone }) {
      const { person, admin } = await caller();
      if (everyone && !admin) throw new ApiError('forbidden', ui('error.forbiddenRole', { role: 'reviewer' }));
      return { tokens: await deps.tokens.list(everyone ? undefined : person.subject) };
    },
    async revokePersonalToken({ id }) {
      const { person, admin } = await caller();
      const gone = await deps.tokens.revoke(id, admin ? undefined : person.subject);
      if (!gone) throw new ApiError('not_found', ui('error.noPersonalToken', { id }));
      await recorded({ actor: actorOf(person), kind: 'token.revoked', subject: `token:${id}`, details: { tokenKind: 'personal', owner: gone.view.owner.subject, sha256: gone.sha256 } });
    },
  };
}

/** A token's scope as audit details (absent parts left out). */
function scopeDetails(scope: PersonalTokenScope): Record<string, string[]> {
  return { ...(scope.servers && { servers: [...scope.servers] }), ...(scope.callers && { callers: [...scope.callers] }) };
}
