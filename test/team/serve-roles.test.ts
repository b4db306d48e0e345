/**
 * The team server's own listener checks roles (app/web/serve.ts `serviceFor` → main/team/access.ts):
 * a real team server run in-process on a real PostgreSQL, people's sessions made in its database,
 * the UI's API over its WebSocket as the page uses it — a reviewer is refused an admin method, an
 * auditor a decision, each is told who they are by `whoAmI`, and an auditor may export History.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { planListening } from '../../app/web/listen-policy.js';
import { runTeamServer, type RunningTeamServer } from '../../app/web/serve.js';
import { SESSION_COOKIE } from '../../app/web/team-sign-in.js';
import { createConsole } from '../../main/console.js';
import { silentLogger } from '../../main/ports.js';
import { teamPeople } from '../../main/team/people.js';
import { teamSessions } from '../../main/team/sessions.js';
import { makeStaticDir } from '../hosts/helpers.js';
import { testDatabase } from '../support/postgres.js';
import { FAST_LEASE } from '../support/team.js';

type Reply = { ok: boolean; value?: unknown; error?: { code: string; message: string; ui?: { code: string } } };

/** The UI's API over the team server's WebSocket, signed in with session `id`. */
async function apiAs(url: string, id: string): Promise<{ call(method: string, input?: unknown): Promise<Reply>; close(): void }> {
  const ws = new WebSocket(`${url.replace('http:', 'ws:')}/api`, { headers: { origin: url, cookie: `${SESSION_COOKIE}=${id}` } });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const waiting = new Map<number, (reply: Reply) => void>();
  ws.on('message', (d: Buffer) => {
    const frame = JSON.parse(d.toString()) as { id?: number; reply?: Reply };
    if (frame.id !== undefined) waiting.get(frame.id)?.(frame.reply!);
  });
  let next = 1;
  return {
    call: (method, input = {}) =>
      new Promise((resolve) => {
        const n = next++;
        waiting.set(n, resolve);
        ws.send(JSON.stringify({ id: n, method, input }));
      }),
    close: () => ws.close(),
  };
}

describe('roles on the team server listener', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let server: RunningTeamServer;
  let statics: ReturnType<typeof makeStaticDir>;

  beforeAll(async () => {
    db = await testDatabase();
    statics = makeStaticDir();
    const userDataDir = mkdtempSync(path.join(tmpdir(), 'mcp-serve-roles-'));
    writeFileSync(path.join(userDataDir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
    server = await runTeamServer({
      databaseUrl: db.url,
      plan: planListening({ port: '0' }),
      userDataDir,
      staticDir: statics.staticDir,
      createConsole,
      print: () => undefined,
      logger: silentLogger,
      ports: { env: { MCP_CONSOLE_GATEWAY_PORT: '0' } },
      timings: FAST_LEASE,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    statics?.cleanup();
    await db?.drop();
  });

  /** A signed-in connection of a new person with `role`. */
  const signedIn = async (name: string, role: 'reviewer' | 'auditor') => {
    const person = await teamPeople(server.team.conn, server.team.notifier).add({ name, role }, Date.now());
    const { id } = await teamSessions(server.team.conn, server.team.notifier).open(person.subject);
    return { person, api: await apiAs(server.host.url.replace(/\/$/, ''), id) };
  };

  it('a reviewer is refused admin methods; an auditor is refused decisions and may export; whoAmI names each', async () => {
    const bo = await signedIn('Bo', 'reviewer');
    const cy = await signedIn('Cy', 'auditor');
    try {
      expect(await bo.api.call('whoAmI')).toEqual({ ok: true, value: { subject: bo.person.subject, name: 'Bo', role: 'reviewer' } });
      const rules = await bo.api.call('saveRules', { rules: { version: 1, servers: {} } });
      expect(rules).toMatchObject({ ok: false, error: { code: 'forbidden', ui: { code: 'error.forbiddenRole' } } });
      expect(await bo.api.call('createGatewayToken', { name: 'sneaky' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(await bo.api.call('exportHistory', { format: 'jsonl' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(await bo.api.call('listHistory', { limit: 5 })).toMatchObject({ ok: true });

      expect(await cy.api.call('whoAmI')).toMatchObject({ ok: true, value: { name: 'Cy', role: 'auditor' } });
      const decision = await cy.api.call('rejectRequest', { itemId: 'any-item', version: 'a'.repeat(64) });
      expect(decision).toMatchObject({ ok: false, error: { code: 'forbidden', ui: { code: 'error.forbiddenRole' } } });
      const exported = await cy.api.call('exportHistory', { format: 'jsonl' });
      // Let through (History is empty here: nothing to export), where a reviewer is refused.
      expect(exported).toMatchObject({ ok: false, error: { code: 'not_found', ui: { code: 'error.exportNone' } } });
      expect(await cy.api.call('setHistorySettings', { retentionDays: 1, retentionSessions: null })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    } finally {
      bo.api.close();
      cy.api.close();
    }
  }, 60_000);
});
