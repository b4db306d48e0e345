/**
 * The desktop's audit trail (audit.db): records kept in call order (a record waiting on a digest
 * holds the ones after it), verified against signed anchors (a forged or foreign anchor is named),
 * exported with History as JSONL and verified from the file alone (`audit verify --file`), and
 * History's retention and deletions recorded while the trail itself is never pruned.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditVerifyReport } from '../../shared/contract/audit.js';
import { auditAnchorCommand, auditVerifyCommand } from '../../app/cli/audit.js';
import { loadSigningKey, readAnchorFiles, readTrustedKeys, signAnchor, writeAnchorFile } from '../../main/audit/anchor-files.js';
import { anchorNow } from '../../main/audit/anchoring.js';
import { AUDIT_FILE, openSqliteAuditStore } from '../../main/audit/sqlite-store.js';
import { createAuditTrail, type AuditTrail } from '../../main/audit/trail.js';
import { verifyAuditStore } from '../../main/audit/verify.js';
import { exportHistory, parseJsonl } from '../../main/history/export.js';
import { createHistoryService } from '../../main/history/service.js';
import { DAY_MS } from '../../main/history/retention.js';
import { silentLogger } from '../../main/logger.js';
import { openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import { fullEntry, tempDir } from '../store/fixtures/entries.js';

let tmp: ReturnType<typeof tempDir>;
let trail: AuditTrail;

beforeEach(() => {
  tmp = tempDir();
  trail = createAuditTrail(openSqliteAuditStore(join(tmp.dir, AUDIT_FILE)), { logger: silentLogger, now: () => 1_000 });
});
afterEach(async () => {
  await trail.close();
  tmp.cleanup();
});

const decision = (item: string, sha256?: string) => ({ actor: { kind: 'person' as const }, kind: 'sampling.request_approved' as const, subject: `item:${item}`, details: { version: 'v', ...(sha256 && { sha256 }) } });
const io = () => {
  let out = '';
  let err = '';
  return { ctx: { userDataDir: tmp.dir, env: {}, out: (s: string) => void (out += s), err: (s: string) => void (err += s), now: () => 2_000 }, out: () => out, err: () => err };
};

describe('recording', () => {
  it('keeps call order: a record waiting for its digest holds back the ones recorded after it', async () => {
    let resolveDigest!: (s: string) => void;
    const digest = new Promise<string>((r) => (resolveDigest = r));
    trail.record(decision('a'));
    trail.record(digest.then((sha256) => decision('b', sha256)));
    trail.record(decision('c'));
    await new Promise((r) => setTimeout(r, 20));
    expect((await trail.store.read(1, 10)).map((r) => r.subject)).toEqual(['item:a']);
    resolveDigest('f'.repeat(64));
    await trail.durable();
    const records = await trail.store.read(1, 10);
    expect(records.map((r) => r.subject)).toEqual(['item:a', 'item:b', 'item:c']);
    expect(JSON.parse(records[1]!.details)).toMatchObject({ sha256: 'f'.repeat(64) });
    expect(await verifyAuditStore(trail.store)).toMatchObject({ intact: true, records: 3 });
  });

  it('refuses a record that breaks the schema (an unknown kind) at once', () => {
    expect(() => trail.record({ ...decision('a'), kind: 'made.up' as never })).toThrow(TypeError);
  });
});

describe('anchors', () => {
  it('audit anchor signs the head; verify names an anchor with a bad signature and one signed by a key nobody trusts', async () => {
    for (const item of ['a', 'b', 'c']) trail.record(decision(item));
    await trail.durable();
    const folder = join(tmp.dir, 'anchors');
    const anchored = io();
    expect(await auditAnchorCommand(anchored.ctx, { json: false, to: folder })).toBe(0);
    expect(anchored.out()).toContain('Anchored record 3');
    const verified = io();
    expect(await auditVerifyCommand(verified.ctx, { json: false, anchors: folder, publicKeys: [] })).toBe(0);
    expect(verified.out()).toContain('The audit trail is intact.');

    const [file] = readAnchorFiles(folder);
    const anchor = JSON.parse(readFileSync(file!.file, 'utf8')) as Record<string, unknown>;
    writeFileSync(join(folder, 'audit-anchor-000000000003-forged.json'), JSON.stringify({ ...anchor, seq: 2, hash: 'e'.repeat(64) }));
    const stranger = loadSigningKey(join(tmp.dir, 'stranger.pem'), { create: true });
    await anchorNow(trail.store, { folder: join(tmp.dir, 'elsewhere'), key: stranger, now: 3_000 });
    const foreign = readAnchorFiles(join(tmp.dir, 'elsewhere'))[0]!;
    writeFileSync(join(folder, 'audit-anchor-000000000003-foreign.json'), readFileSync(foreign.file));

    const report = io();
    expect(await auditVerifyCommand(report.ctx, { json: true, anchors: folder, publicKeys: [] })).toBe(1);
    const findings = (JSON.parse(report.out()) as AuditVerifyReport).findings;
    expect(findings).toEqual([
      expect.objectContaining({ code: 'forged', anchor: expect.stringContaining('foreign.json'), message: expect.stringContaining('not trusted') }),
      expect.objectContaining({ code: 'forged', anchor: expect.stringContaining('forged.json'), message: expect.stringContaining('signature does not verify') }),
    ]);
  });

  it('two anchors of the same head at the same moment are two files: neither replaces the other', () => {
    const key = loadSigningKey(join(tmp.dir, 'k.pem'), { create: true });
    const folder = join(tmp.dir, 'anchors');
    const anchor = signAnchor({ seq: 1, hash: 'a'.repeat(64) }, 5_000, key);
    const files = [writeAnchorFile(folder, anchor, key.publicPem), writeAnchorFile(folder, anchor, key.publicPem)];
    expect(new Set(files).size).toBe(2);
    expect(readAnchorFiles(folder).map((f) => f.file).sort()).toEqual([...files].sort());
  });

  it('--public-key trusts only the keys given', async () => {
    trail.record(decision('a'));
    await trail.durable();
    const folder = join(tmp.dir, 'anchors');
    expect(await auditAnchorCommand(io().ctx, { json: false, to: folder })).toBe(0);
    const other = join(tmp.dir, 'other.pem');
    writeFileSync(other, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect(readTrustedKeys([other]).size).toBe(1);
    const report = io();
    expect(await auditVerifyCommand(report.ctx, { json: true, anchors: folder, publicKeys: [other] })).toBe(1);
    expect((JSON.parse(report.out()) as AuditVerifyReport).findings[0]).toMatchObject({ code: 'forged' });
  });
});

describe('exported with History', () => {
  let history: HistoryStore;
  beforeEach(() => {
    history = openHistoryStore(join(tmp.dir, 'history.db'));
    history.saveMany([fullEntry('e1', 10 * DAY_MS), fullEntry('e2', 20 * DAY_MS)]);
  });
  afterEach(async () => history.close());

  it('JSONL carries the whole trail after the sessions; the file verifies on its own, and an edited line is named', async () => {
    for (const item of ['a', 'b', 'c', 'd']) trail.record(decision(item, 'a'.repeat(64)));
    await trail.durable();
    await history.durable();
    const file = await exportHistory(history, { format: 'jsonl', ids: ['e1'] }, 5_000, trail.store);
    expect(parseJsonl(file.content).map((s) => s.conversationId)).toEqual(['conv-e1']); // History's reader skips the trail's lines
    const path = join(tmp.dir, file.filename);
    writeFileSync(path, file.content);
    const ok = io();
    expect(await auditVerifyCommand(ok.ctx, { json: true, file: path, publicKeys: [] })).toBe(0);
    expect(JSON.parse(ok.out())).toMatchObject({ intact: true, records: 4, storedHead: { seq: 4 } });

    writeFileSync(path, file.content.replace('"subject":"item:c"', '"subject":"item:x"'));
    const edited = io();
    expect(await auditVerifyCommand(edited.ctx, { json: true, file: path, publicKeys: [] })).toBe(1);
    expect((JSON.parse(edited.out()) as AuditVerifyReport).findings[0]).toMatchObject({ code: 'edited', seq: 3 });

    writeFileSync(path, file.content.split('\n').filter((l) => !(l.includes('audit-record') && l.includes('"seq":4,'))).join('\n'));
    const cut = io();
    expect(await auditVerifyCommand(cut.ctx, { json: true, file: path, publicKeys: [] })).toBe(1);
    expect((JSON.parse(cut.out()) as AuditVerifyReport).findings[0]).toMatchObject({ code: 'removed', seq: 4 });
  });

  it('retention and a person deleting sessions are recorded; the trail is never pruned', async () => {
    for (const item of ['a', 'b']) trail.record(decision(item));
    const service = createHistoryService({ store: history, userDataDir: tmp.dir, now: () => 100 * DAY_MS, logger: silentLogger, notify: () => undefined, reopenDraft: () => 'x', audit: trail });
    try {
      await service.methods.setHistorySettings({ retentionSessions: 1 });
      await service.methods.deleteHistory({ ids: ['e2'] });
    } finally {
      service.dispose();
    }
    await trail.durable();
    const records = (await trail.store.read(1, 10)).map((r) => ({ kind: r.kind, actor: r.actorKind, details: JSON.parse(r.details) as Record<string, unknown> }));
    expect(records).toEqual([
      expect.objectContaining({ kind: 'sampling.request_approved' }),
      expect.objectContaining({ kind: 'sampling.request_approved' }),
      { kind: 'history.pruned', actor: 'console', details: expect.objectContaining({ sessions: 1, entries: 1, conversationIds: ['conv-e1'], retentionSessions: 1 }) },
      { kind: 'history.deleted', actor: 'person', details: expect.objectContaining({ sessions: 1, conversationIds: ['conv-e2'] }) },
    ]);
    expect(await verifyAuditStore(trail.store)).toMatchObject({ intact: true, records: 4 });
  });
});
