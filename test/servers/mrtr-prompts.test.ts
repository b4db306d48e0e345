/**
 * prompts/get and resources/read on a 2026-07-28 server drive the same `input_required` rounds as
 * tools/call (S-MRTR-1): the embedded request (here `roots/list`, answered by the console without a
 * person) is fulfilled and the call retried with `inputResponses` and the untouched `requestState`.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerConnection, type ServerConnection } from '../../main/mcp/connection.js';
import { createServerRequestRouter } from '../../main/requests/router.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/mrtr-prompts-server.ts');

describe('MRTR rounds for prompts/get and resources/read', () => {
  let conn: ServerConnection;
  beforeAll(async () => {
    conn = createServerConnection('mrtr', { command: process.execPath, args: ['--import', 'tsx', FIXTURE], cwd: path.resolve(import.meta.dirname, '../..'), protocol: '2026-07-28' }, {
      logger: { info() {}, warn() {}, error() {} },
      onChange() {},
      requests: createServerRequestRouter({ sampling: () => Promise.reject(new Error('none')), roots: () => [{ uri: 'file:///tmp/project', name: 'project' }] }),
    });
    await conn.connect();
  }, 30_000);
  afterAll(async () => conn?.close());

  it('the connection is on the 2026-07-28 era', () => {
    expect(conn.view()).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
  });

  it('prompts/get is retried with the roots and the exact requestState', async () => {
    const res = await conn.getPrompt('needs-roots', {}, { call: { callId: 'p', kind: 'prompts/get', name: 'needs-roots' } });
    expect(res.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'roots: 1; state: intact' } }]);
    expect(conn.log.page('prompts/get').protocol.filter((e) => e.kind === 'request')).toHaveLength(2);
  });

  it('resources/read is retried the same way', async () => {
    const res = await conn.readResource('demo://needs-roots', { call: { callId: 'r', kind: 'resources/read', name: 'demo://needs-roots' } });
    expect(res.contents).toEqual([{ uri: 'demo://needs-roots', text: 'roots: 1; state: intact', mimeType: undefined, blob: undefined }]);
  });
});
