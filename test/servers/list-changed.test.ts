/**
 * `notifications/tools/list_changed`, `…/prompts/list_changed` and `…/resources/list_changed`
 * refresh what the console shows, against test/fixtures/list-changed-server.ts over stdio.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerConnection, type ServerConnection } from '../../main/mcp/connection.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/list-changed-server.ts');

describe('list_changed notifications refresh the lists', () => {
  let conn: ServerConnection;
  beforeAll(async () => {
    conn = createServerConnection('grows', { command: process.execPath, args: ['--import', 'tsx', FIXTURE], cwd: path.resolve(import.meta.dirname, '../..'), protocol: 'legacy' }, {
      logger: { info() {}, warn() {}, error() {} },
      onChange() {},
      requests: { receive: () => Promise.reject(new Error('none')) },
    });
    await conn.connect();
  }, 30_000);
  afterAll(async () => conn?.close());

  it('tools, prompts and resources added while connected appear', async () => {
    const v0 = conn.view();
    expect(v0.status).toBe('ready');
    expect(v0.prompts?.map((p) => p.name)).toEqual(['base']);
    expect(v0.resources?.map((r) => r.uri)).toEqual(['demo://base']);
    await conn.callTool('grow', { n: 1 }, { call: { callId: 'c', kind: 'tools/call', name: 'grow' } });
    const end = Date.now() + 10_000;
    let v = conn.view();
    while (!(v.prompts?.length === 2 && v.resources?.length === 2 && v.tools.length === 2)) {
      if (Date.now() > end) throw new Error(`lists not refreshed: ${JSON.stringify({ prompts: v.prompts, resources: v.resources, tools: v.tools.map((t) => t.name) })}`);
      await new Promise((r) => setTimeout(r, 25));
      v = conn.view();
    }
    expect(v.prompts?.map((p) => p.name)).toEqual(['base', 'extra-1']);
    expect(v.resources?.map((r) => r.uri)).toEqual(['demo://base', 'demo://extra/1']);
    expect(v.tools.map((t) => t.name)).toEqual(['grow', 'tool-1']);
    const log = conn.log.page('list_changed').protocol.map((e) => e.method);
    expect(log).toEqual(expect.arrayContaining(['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']));
  });
});
