/**
 * The audit trail inside a running console: gateway tokens made and revoked are recorded (the
 * token's SHA-256, never the token), and so is pausing auto-approval (a rule book change); an
 * anchor folder set in the environment gets a signed anchor at shutdown; a scheduled anchor is
 * refused, with an error notice, once audit.db was changed behind the console's back. The audit
 * view's methods page the trail newest first and verify it against the anchors, as `audit verify` does.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { readAnchorFiles } from '../../main/audit/anchor-files.js';
import { startAuditService } from '../../main/audit/service.js';
import { AUDIT_FILE, openSqliteAuditStore } from '../../main/audit/sqlite-store.js';
import { createAuditTrail } from '../../main/audit/trail.js';
import { verifyAuditStore } from '../../main/audit/verify.js';
import { createConsole } from '../../main/console.js';
import { silentLogger } from '../../main/logger.js';
import { createMemorySecretStore } from '../../main/secrets/secret-store.js';
import type { UiText } from '../../shared/contract/ui-text.js';
import { tempDir } from '../store/fixtures/entries.js';

const dirs: Array<ReturnType<typeof tempDir>> = [];
const folder = () => {
  const t = tempDir();
  dirs.push(t);
  return t.dir;
};
afterEach(() => dirs.splice(0).forEach((t) => t.cleanup()));

describe('the audit trail in a running console', () => {
  it('records gateway tokens made and revoked and the rule book paused, and anchors the head at shutdown', async () => {
    const dir = folder();
    const anchors = join(dir, 'anchors');
    writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
    const h = await createConsole({ host: 'test', userDataDir: dir, env: { MCP_CONSOLE_GATEWAY_PORT: '0', MCP_CONSOLE_AUDIT_ANCHORS: anchors }, secrets: createMemorySecretStore() });
    const { token } = await h.service.createGatewayToken({ name: 'nightly' });
    await h.service.revokeGatewayToken({ name: 'nightly' });
    await h.service.setAutoApprovalPaused({ paused: true });
    await h.dispose();

    const store = openSqliteAuditStore(join(dir, AUDIT_FILE), { readOnly: true });
    try {
      const records = await store.read(1, 10);
      const sha256 = createHash('sha256').update(token).digest('hex');
      expect(records.map((r) => [r.kind, r.subject, JSON.parse(r.details)])).toEqual([
        ['token.created', 'token:nightly', { tokenKind: 'gateway', sha256 }],
        ['token.revoked', 'token:nightly', { tokenKind: 'gateway', sha256 }],
        ['rules.changed', 'rules', expect.objectContaining({ how: 'paused', paused: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })],
      ]);
      expect(JSON.stringify(records)).not.toContain(token);
      const [anchor] = readAnchorFiles(anchors);
      expect(anchor).toMatchObject({ anchor: { seq: 3, hash: records[2]!.hash } });
      expect(existsSync(join(dir, 'audit-signing-key.pem'))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('a scheduled anchor is refused, with an error notice, once a record since the last anchor was changed behind its back', async () => {
    const dir = folder();
    const anchors = join(dir, 'anchors');
    const trail = createAuditTrail(openSqliteAuditStore(join(dir, AUDIT_FILE)), { logger: silentLogger, now: Date.now });
    const notices: UiText[] = [];
    const service = startAuditService({ trail, dir, env: { MCP_CONSOLE_AUDIT_ANCHORS: anchors }, logger: silentLogger, now: Date.now, notify: (_level, text) => void notices.push(text) });
    try {
      for (const n of [1, 2, 3]) trail.record({ actor: { kind: 'person' }, kind: 'sampling.request_rejected', subject: `item:${n}`, details: { version: 'v' } });
      await trail.durable();
      await service.anchoring!.tick();
      expect(readdirSync(anchors).filter((f) => f.startsWith('audit-anchor-'))).toHaveLength(1);

      for (const n of [4, 5]) trail.record({ actor: { kind: 'person' }, kind: 'sampling.request_rejected', subject: `item:${n}`, details: { version: 'v' } });
      await trail.durable();
      const db = new Database(join(dir, AUDIT_FILE));
      db.exec("DROP TRIGGER audit_log_no_update; UPDATE audit_log SET subject = 'item:other' WHERE seq = 4");
      db.close();
      await service.anchoring!.tick();
      expect(readdirSync(anchors).filter((f) => f.startsWith('audit-anchor-'))).toHaveLength(1);
      expect(notices).toEqual([{ code: 'notice.auditTampered', params: { finding: { code: 'audit.edited', params: { seq: 4 } } } }]);
      expect(await verifyAuditStore(trail.store)).toMatchObject({ intact: false, findings: [{ code: 'edited', seq: 4 }] });
    } finally {
      await service.dispose();
      await trail.close();
    }
  });

  it('the audit view pages the trail newest first and verifies it against the anchors; an anchor from a rewritten past is found', async () => {
    const dir = folder();
    const anchors = join(dir, 'anchors');
    writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
    const env = { MCP_CONSOLE_GATEWAY_PORT: '0', MCP_CONSOLE_AUDIT_ANCHORS: anchors };
    const first = await createConsole({ host: 'test', userDataDir: dir, env, secrets: createMemorySecretStore() });
    for (const name of ['a', 'b', 'c']) await first.service.createGatewayToken({ name });
    await first.dispose(); // anchors the head (seq 3)

    const h = await createConsole({ host: 'test', userDataDir: dir, env, secrets: createMemorySecretStore() });
    try {
      await h.service.revokeGatewayToken({ name: 'b' });
      const page = await h.service.listAudit({ limit: 2 });
      expect(page.head.seq).toBe(4);
      expect(page.records.map((r) => [r.seq, r.kind, r.subject])).toEqual([
        [4, 'token.revoked', 'token:b'],
        [3, 'token.created', 'token:c'],
      ]);
      const older = await h.service.listAudit({ before: 3, limit: 50 });
      expect(older.records.map((r) => r.seq)).toEqual([2, 1]);
      expect(await h.service.verifyAudit({})).toMatchObject({ intact: true, records: 4, anchors: { checked: 1, newest: { seq: 3 } }, findings: [] });

      const db = new Database(join(dir, AUDIT_FILE));
      db.exec('DROP TRIGGER IF EXISTS audit_log_no_update');
      db.prepare("UPDATE audit_log SET subject = 'token:z' WHERE seq = 2").run();
      db.close();
      const report = await h.service.verifyAudit({});
      expect(report.intact).toBe(false);
      expect(report.findings[0]).toMatchObject({ seq: 2 });
    } finally {
      await h.dispose();
    }
  });
});

