/**
 * The team's shared admin token and its sessions on a real PostgreSQL: generated once (by one of
 * two instances starting together) and stored hashed; set from the environment, a new one
 * replaces the stored one and ends the sessions made with it; sessions are found on every
 * instance, end when signed out, and ending them is heard everywhere.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenMatches, ensureAdminToken, hashSecret, secretMatches } from '../../main/team/admin-token.js';
import { adminTokenAuth } from '../../main/team/auth.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { adminQuery, testDatabase } from '../support/postgres.js';

const FAST = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };

describe('the admin token', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  const open: TeamDatabase[] = [];
  const instance = async () => {
    const t = await openTeamDatabase({ url: db.url, timings: FAST });
    open.push(t);
    return t;
  };
  beforeAll(async () => {
    db = await testDatabase();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
    await adminQuery(db.url, 'DELETE FROM team_admin_token; DELETE FROM team_sessions').catch(() => undefined); // not migrated yet: nothing to clear
  });
  afterAll(async () => db?.drop());

  it('a hash of a secret matches it and nothing else; a malformed hash matches nothing', async () => {
    const hash = await hashSecret('s3cret-s3cret-s3cret');
    expect(hash).toMatch(/^scrypt\$15\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain('s3cret');
    expect(await secretMatches('s3cret-s3cret-s3cret', hash)).toBe(true);
    expect(await secretMatches('s3cret-s3cret-s3creT', hash)).toBe(false);
    expect(await secretMatches('x', 'sha256$abc')).toBe(false);
    expect(await secretMatches('x', 'scrypt$40$8$1$aa$bb')).toBe(false); // a cost no one would set: refused, not run
  });

  it('generated once when none is set: of two instances starting together, exactly one is told the token; only its hash is stored', async () => {
    const [a, b] = [await instance(), await instance()];
    const [ra, rb] = await Promise.all([ensureAdminToken(a.conn, a.notifier), ensureAdminToken(b.conn, b.notifier)]);
    const told = [ra.generated, rb.generated].filter((t): t is string => t !== undefined);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^[\w-]{43}$/);
    const { rows } = await adminQuery(db.url, 'SELECT hash FROM team_admin_token');
    expect(rows).toHaveLength(1);
    expect(rows[0].hash).not.toContain(told[0]);
    expect(await adminTokenMatches(a.conn, told[0]!)).toBe(true);
    expect(await ensureAdminToken(a.conn, a.notifier)).toEqual({}); // the next start: nothing new, nothing printed
  });

  it('from the environment: stored at the first start; a different one replaces it and ends the sessions of the former', async () => {
    const a = await instance();
    expect(await ensureAdminToken(a.conn, a.notifier, 'first-token-first-token')).toEqual({});
    const auth = adminTokenAuth(a);
    const signedIn = await auth.signIn({ method: 'admin_token', token: 'first-token-first-token' });
    expect(signedIn).toBeDefined();
    expect(await ensureAdminToken(a.conn, a.notifier, 'first-token-first-token')).toEqual({}); // unchanged: sessions kept
    expect(await auth.session(signedIn!.sessionId)).toEqual({ subject: 'admin', name: 'admin token', role: 'admin' });
    const b = await instance();
    let heard = 0;
    adminTokenAuth(a).onSessionsEnded(() => heard++);
    expect(await ensureAdminToken(b.conn, b.notifier, 'second-token-second-token')).toEqual({ replaced: true });
    expect(await auth.session(signedIn!.sessionId)).toBeUndefined();
    expect(await adminTokenMatches(a.conn, 'first-token-first-token')).toBe(false);
    expect(await auth.signIn({ method: 'admin_token', token: 'second-token-second-token' })).toBeDefined();
    await expect.poll(() => heard).toBeGreaterThan(0);
  });

  it('refuses an environment token too short to be safe', async () => {
    const a = await instance();
    await expect(ensureAdminToken(a.conn, a.notifier, 'short')).rejects.toThrow(/MCP_CONSOLE_ADMIN_TOKEN must be 16 to 512 characters/);
  });

  it('a session opened on one instance holds on another; signed out, it holds nowhere; a wrong token opens none', async () => {
    const [a, b] = [await instance(), await instance()];
    await ensureAdminToken(a.conn, a.notifier, 'team-token-team-token');
    expect(await adminTokenAuth(a).signIn({ method: 'admin_token', token: 'team-token-team-tokeN' })).toBeUndefined();
    const s = await adminTokenAuth(a).signIn({ method: 'admin_token', token: 'team-token-team-token' });
    expect(await adminTokenAuth(b).session(s!.sessionId)).toEqual({ subject: 'admin', name: 'admin token', role: 'admin' });
    expect(s!.expiresAt).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    await adminTokenAuth(b).signOut(s!.sessionId);
    expect(await adminTokenAuth(a).session(s!.sessionId)).toBeUndefined();
    expect(await adminTokenAuth(a).session('not-a-session')).toBeUndefined();
  });

  it('a session unused past the idle limit, or past its end, holds no more', async () => {
    const a = await instance();
    await ensureAdminToken(a.conn, a.notifier, 'team-token-team-token');
    const auth = adminTokenAuth(a);
    const idle = await auth.signIn({ method: 'admin_token', token: 'team-token-team-token' });
    const ended = await auth.signIn({ method: 'admin_token', token: 'team-token-team-token' });
    await adminQuery(db.url, "UPDATE team_sessions SET last_seen_at = now() - interval '13 hours' WHERE id_sha256 = encode(sha256($1::bytea), 'hex')", [idle!.sessionId]);
    await adminQuery(db.url, "UPDATE team_sessions SET expires_at = now() - interval '1 second' WHERE id_sha256 = encode(sha256($1::bytea), 'hex')", [ended!.sessionId]);
    expect(await auth.session(idle!.sessionId)).toBeUndefined();
    expect(await auth.session(ended!.sessionId)).toBeUndefined();
  });
});
