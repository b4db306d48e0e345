/**
 * Tampering with the audit trail directly in a real PostgreSQL — rows changed, inserted and
 * deleted (the newest ones too), and the whole chain rewritten with every hash recomputed — and
 * `audit verify` (run as the command line runs it) naming what was done and where.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditVerifyReport } from '../../shared/contract/audit.js';
import { auditAnchorCommand, auditVerifyCommand } from '../../app/cli/audit.js';
import { seal, type StoredAuditRecord } from '../../main/audit/chain.js';
import { openPgAuditStore } from '../../main/audit/pg-store.js';
import { createAuditTrail, type AuditTrail } from '../../main/audit/trail.js';
import { silentLogger } from '../../main/logger.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { adminQuery, testDatabase } from '../support/postgres.js';

const RECORDS = 10;

describe('the audit trail on PostgreSQL, tampered with', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let team: TeamDatabase;
  let trail: AuditTrail;
  let dir: string;
  let anchors: string;

  beforeEach(async () => {
    db = await testDatabase();
    team = await openTeamDatabase({ url: db.url });
    trail = createAuditTrail(openPgAuditStore({ conn: team.conn, where: team.target, notifier: team.notifier }), { logger: silentLogger, now: Date.now });
    dir = mkdtempSync(join(tmpdir(), 'audit-pg-'));
    anchors = join(dir, 'anchors');
    for (let i = 1; i <= RECORDS; i++) {
      trail.record({ actor: { kind: 'person', id: `u${i % 3}`, name: `Person ${i % 3}` }, kind: 'sampling.request_approved', subject: `item:i${i}`, details: { version: `v${i}`, sha256: 'a'.repeat(64) } });
    }
    await trail.durable();
    expect(await cli(['anchor'])).toMatchObject({ code: 0 }); // the head, record 10, anchored
  });
  afterEach(async () => {
    await trail.close();
    await team.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `audit verify` (JSON) or `audit anchor` on the test database, as the command line does. */
  async function cli(args: ['verify'] | ['anchor']): Promise<{ code: number; report?: AuditVerifyReport; err: string }> {
    let out = '';
    let err = '';
    const ctx = { userDataDir: dir, env: {}, out: (s: string) => void (out += s), err: (s: string) => void (err += s) };
    if (args[0] === 'anchor') return { code: await auditAnchorCommand(ctx, { json: true, to: anchors, database: db.url }), err };
    const code = await auditVerifyCommand(ctx, { json: true, database: db.url, anchors, publicKeys: [] });
    return { code, err, ...(out && { report: JSON.parse(out) as AuditVerifyReport }) };
  }

  /** Runs statements as the database's owner would, the append-only triggers switched off. */
  async function tamper(...statements: Array<[string, unknown[]?]>): Promise<void> {
    await adminQuery(db.url, 'ALTER TABLE audit_log DISABLE TRIGGER USER');
    for (const [sql, values] of statements) await adminQuery(db.url, sql, values ?? []);
    await adminQuery(db.url, 'ALTER TABLE audit_log ENABLE TRIGGER USER');
  }

  const rows = async (): Promise<StoredAuditRecord[]> => trail.store.read(1, 1_000);
  const insertSql = 'INSERT INTO audit_log (seq, at, actor_kind, actor_id, actor_name, kind, subject, details, prev_hash, content_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)';
  const values = (r: StoredAuditRecord) => [r.seq, r.at, r.actorKind, r.actorId, r.actorName, r.kind, r.subject, r.details, r.prevHash, r.contentHash, r.hash];
  const inputOf = (r: StoredAuditRecord) => ({ at: r.at, actor: { kind: 'person' as const, ...(r.actorId !== null && { id: r.actorId }), ...(r.actorName !== null && { name: r.actorName }) }, kind: r.kind, subject: r.subject, details: r.details });

  it('an untouched chain verifies, against its head and its anchor', async () => {
    const { code, report } = await cli(['verify']);
    expect(code).toBe(0);
    expect(report).toMatchObject({ intact: true, records: RECORDS, last: { seq: RECORDS }, anchors: { checked: 1, newest: { seq: RECORDS } } });
  });

  it('the database itself refuses UPDATE, DELETE and TRUNCATE of records', async () => {
    await expect(adminQuery(db.url, "UPDATE audit_log SET subject = 'x' WHERE seq = 1")).rejects.toThrow(/append-only/);
    await expect(adminQuery(db.url, 'DELETE FROM audit_log WHERE seq = 1')).rejects.toThrow(/append-only/);
    await expect(adminQuery(db.url, 'TRUNCATE audit_log')).rejects.toThrow(/append-only/);
  });

  it('a record edited in place is named', async () => {
    await tamper([`UPDATE audit_log SET details = '{"version":"v4","sha256":"${'b'.repeat(64)}"}' WHERE seq = 4`]);
    const { code, report } = await cli(['verify']);
    expect(code).toBe(1);
    expect(report!.findings[0]).toMatchObject({ code: 'edited', seq: 4 });
  });

  it('a record edited with its hashes recomputed is named (the next record still links to the original)', async () => {
    const r = (await rows())[3]!;
    const [forged] = seal({ seq: 3, hash: r.prevHash }, [{ ...inputOf(r), subject: 'item:someone-else' }]);
    await tamper(['UPDATE audit_log SET subject = $1, content_hash = $2, hash = $3 WHERE seq = 4', [forged!.subject, forged!.contentHash, forged!.hash]]);
    const { report } = await cli(['verify']);
    expect(report!.findings[0]).toMatchObject({ code: 'edited', seq: 4 });
    expect(report!.findings[0]!.message).toContain('hashes recomputed');
  });

  it('a record inserted in the middle (those after it renumbered) is named', async () => {
    const before = await rows();
    const [fake] = seal({ seq: 4, hash: before[3]!.hash }, [{ ...inputOf(before[3]!), subject: 'item:never-happened' }]);
    await tamper(['UPDATE audit_log SET seq = seq + 1000 WHERE seq >= 5'], ['UPDATE audit_log SET seq = seq - 999 WHERE seq > 1000'], [insertSql, values(fake!)]);
    const { code, report } = await cli(['verify']);
    expect(code).toBe(1);
    expect(report!.findings[0]).toMatchObject({ code: 'inserted', seq: 5 });
  });

  it('a record removed from the middle is named', async () => {
    await tamper(['DELETE FROM audit_log WHERE seq = 6']);
    const { report } = await cli(['verify']);
    expect(report!.findings[0]).toMatchObject({ code: 'removed', seq: 6, to: 6 });
  });

  it('the newest records removed are named by the head row', async () => {
    await tamper(['DELETE FROM audit_log WHERE seq >= 9']);
    const { report } = await cli(['verify']);
    expect(report!.findings[0]).toMatchObject({ code: 'removed', seq: 9, to: 10 });
  });

  it('the newest records removed and the head row moved back to match are named by the anchor', async () => {
    const eighth = (await rows())[7]!;
    await tamper(['DELETE FROM audit_log WHERE seq >= 9'], ['UPDATE audit_head SET seq = 8, hash = $1', [eighth.hash]]);
    const { code, report } = await cli(['verify']);
    expect(code).toBe(1);
    expect(report!.findings).toEqual([expect.objectContaining({ code: 'removed', seq: 9, to: 10, anchor: expect.stringContaining('audit-anchor-000000000010') })]);
  });

  it('the whole chain rewritten with every hash recomputed is caught by the anchor', async () => {
    const old = await rows();
    const rewritten = seal({ seq: 0, hash: '0'.repeat(64) }, old.map((r, i) => (i === 2 ? { ...inputOf(r), subject: 'item:rewritten' } : inputOf(r))));
    await tamper(['DELETE FROM audit_log'], ...rewritten.map((r): [string, unknown[]] => [insertSql, values(r)]), ['UPDATE audit_head SET seq = $1, hash = $2', [RECORDS, rewritten.at(-1)!.hash]]);
    const { code, report } = await cli(['verify']);
    expect(code).toBe(1);
    expect(report!.findings).toEqual([expect.objectContaining({ code: 'rewritten', seq: RECORDS })]);
    // and no new anchor vouches for the rewritten chain
    const anchored = await cli(['anchor']);
    expect(anchored.code).toBe(1);
    expect(anchored.err).toContain('rewritten');
  });

  it('records appended by another instance at the same time form one chain', async () => {
    const other = await openTeamDatabase({ url: db.url });
    const second = createAuditTrail(openPgAuditStore({ conn: other.conn, where: other.target }), { logger: silentLogger, now: Date.now });
    try {
      for (let i = 0; i < 20; i++) {
        trail.record({ actor: { kind: 'console' }, kind: 'history.pruned', subject: 'history', details: { n: i } });
        second.record({ actor: { kind: 'console' }, kind: 'history.pruned', subject: 'history', details: { n: i } });
        await Promise.all([trail.durable(), second.durable()]);
      }
    } finally {
      await second.close();
      await other.close();
    }
    const { code, report } = await cli(['verify']);
    expect(code).toBe(0);
    expect(report!.records).toBe(RECORDS + 40);
  });
});
