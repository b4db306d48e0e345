/**
 * The team's one shared admin token: what a person types on a team server's sign-in page (until
 * people sign in with their own accounts). It is kept in the team's database as a scrypt hash
 * only (`team_admin_token`, one row), so neither a database dump nor a backup gives it away.
 *
 * Where it comes from, at each instance's start ({@link ensureAdminToken}):
 * - `MCP_CONSOLE_ADMIN_TOKEN` set: its hash is stored when the stored one does not match it
 *   (first start, or the operator replaced it) — every session opened with the former token ends;
 * - not set, none stored: one is generated (32 random bytes, base64url) and stored; the one
 *   instance that stored it is told the token, to print once;
 * - not set, one stored: nothing changes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Connection } from '../store/pg/connection.js';
import { notifySql, type TeamNotifier } from './notify.js';

/** The environment variable an operator sets the admin token with. */
export const ADMIN_TOKEN_ENV = 'MCP_CONSOLE_ADMIN_TOKEN';
/** Shortest admin token accepted from the environment, in characters. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;
/** Longest admin token accepted (from the environment or a sign-in), in characters. */
export const ADMIN_TOKEN_MAX_LENGTH = 512;
/** The subject of a session opened with the admin token. */
export const ADMIN_SUBJECT = 'admin';

/** scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB, some tens of ms on the thread pool). */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

/** The token went through scrypt with `salt` and `cost`. Runs on libuv's thread pool: the main thread is never blocked. */
function derive(secret: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64url) of `secret`, with a fresh 16-byte salt. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, COST);
  return ['scrypt', Math.log2(COST.N), COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `secret` is the one `stored` ({@link hashSecret}) was made from; compared in constant time. False for a malformed `stored`. */
export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [kind, logN, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const cost = { N: 2 ** Number(logN), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((n) => Number.isInteger(n) && n > 0) || cost.N > 2 ** 20) return false;
  const expected = Buffer.from(key, 'base64url');
  const got = await derive(secret, Buffer.from(salt, 'base64url'), cost);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** What {@link ensureAdminToken} did. */
export interface AdminTokenStart {
  /** The token generated now by this instance: print it once (no other instance has it). */
  generated?: string;
  /** The environment's token replaced a different one stored (sessions opened with that one ended). */
  replaced?: true;
}

/**
 * Makes sure the team has an admin token (see the module's comment).
 * @param fromEnv `MCP_CONSOLE_ADMIN_TOKEN`, when set
 * @throws Error when `fromEnv` is shorter than {@link ADMIN_TOKEN_MIN_LENGTH} or longer than
 *   {@link ADMIN_TOKEN_MAX_LENGTH}; HistoryUnavailableError when the database cannot be reached
 */
export async function ensureAdminToken(conn: Connection, notifier: Pick<TeamNotifier, 'instanceId'>, fromEnv?: string): Promise<AdminTokenStart> {
  if (fromEnv !== undefined && (fromEnv.length < ADMIN_TOKEN_MIN_LENGTH || fromEnv.length > ADMIN_TOKEN_MAX_LENGTH)) {
    throw new Error(`${ADMIN_TOKEN_ENV} must be ${ADMIN_TOKEN_MIN_LENGTH} to ${ADMIN_TOKEN_MAX_LENGTH} characters (leave it unset and one is generated)`);
  }
  const [stored] = await conn.query<{ hash: string }>('SELECT hash FROM team_admin_token');
  if (fromEnv === undefined) {
    if (stored) return {};
    const token = randomBytes(32).toString('base64url');
    const made = await conn.query('INSERT INTO team_admin_token (hash) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id', [await hashSecret(token)]);
    return made.length > 0 ? { generated: token } : {}; // another instance starting at once made it
  }
  if (stored && (await secretMatches(fromEnv, stored.hash))) return {};
  const hash = await hashSecret(fromEnv);
  await conn.transaction(async (q) => {
    await q('INSERT INTO team_admin_token (hash) VALUES ($1) ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, created_at = now()', [hash]);
    if (!stored) return;
    await q('DELETE FROM team_sessions WHERE subject = $1', [ADMIN_SUBJECT]);
    const n = notifySql({ topic: 'tokens', id: `session:${ADMIN_SUBJECT}`, from: notifier.instanceId() });
    await q(n.text, n.params);
  });
  return stored ? { replaced: true } : {};
}

/**
 * Whether `candidate` is the team's admin token.
 * @throws HistoryUnavailableError when the database cannot be reached
 */
export async function adminTokenMatches(conn: Connection, candidate: string): Promise<boolean> {
  if (candidate.length === 0 || candidate.length > ADMIN_TOKEN_MAX_LENGTH) return false;
  const [stored] = await conn.query<{ hash: string }>('SELECT hash FROM team_admin_token');
  return stored !== undefined && (await secretMatches(candidate, stored.hash));
}
