/**
 * The provider gateway called by Python's official `openai` and `anthropic` packages (the test
 * venv), configured only through the environment variables the SDKs read — streamed and not,
 * approved by a rule (the provider's chunks stream straight through) and rejected by one (the SDKs
 * raise PermissionDeniedError "rejected by the reviewer").
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RulesFile } from '../../shared/contract/rules.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startHarness, type Harness } from '../support/console-harness.js';
import { pythonForTests } from '../support/python.js';

const CLIENT = new URL('../fixtures/python/gateway_client.py', import.meta.url).pathname;
const run = promisify(execFile);

let llm: OpenAICompatibleServer;
let h: Harness;
const env: Record<string, Record<string, string>> = {};

/** Runs gateway_client.py MODE as the holder of `tokenName`'s token; its JSON answer. */
async function client(mode: string, tokenName: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(pythonForTests(), [CLIENT, mode], { env: { ...process.env, ...env[tokenName] }, timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  llm = await startOpenAICompatibleServer();
  h = await startHarness({
    providers: { providers: [{ id: 'llm', kind: 'openai-compatible', baseURL: llm.baseURL, models: ['test-model'] }], defaultProvider: 'llm', defaultModel: 'test-model' },
    servers: {},
    env: { MCP_CONSOLE_GATEWAY_PORT: '0' },
  });
  const url = (await h.state()).gateway!.url!;
  for (const name of ['py', 'py-no']) {
    const { token } = await h.service.createGatewayToken({ name });
    env[name] = { OPENAI_BASE_URL: `${url}/openai/v1`, OPENAI_API_KEY: token, ANTHROPIC_BASE_URL: `${url}/anthropic`, ANTHROPIC_API_KEY: token };
  }
  const rules = {
    version: 1,
    servers: {
      'gateway:py': { rules: [{ id: 'yes', name: 'Python calls', when: {}, action: { kind: 'approve_all' } }] },
      'gateway:py-no': { rules: [{ id: 'no', name: 'Not this one', when: {}, action: { kind: 'reject', reason: 'not allowed' } }] },
    },
  } as unknown as RulesFile;
  await h.service.saveRules({ rules });
}, 60_000);

afterAll(async () => {
  await h?.dispose();
  await llm?.close();
});

describe('Python SDKs through the gateway', () => {
  it('openai: a call and a streamed call (chunks one by one, usage)', async () => {
    llm.script({ text: 'Hello from the console.' });
    expect(await client('openai', 'py')).toEqual({ text: 'Hello from the console.', finish: 'stop', usage: expect.any(Number) });
    llm.script({ chunks: ['Hel', 'lo ', 'there.'] });
    expect(await client('openai-stream', 'py')).toEqual({ deltas: ['Hel', 'lo ', 'there.'], usage: expect.any(Number) });
  }, 60_000);

  it('anthropic: a call and a streamed call', async () => {
    llm.script({ text: 'Bonjour.' });
    expect(await client('anthropic', 'py')).toEqual({ text: 'Bonjour.', stop: 'end_turn' });
    llm.script({ chunks: ['Bon', 'jour', '!'] });
    expect(await client('anthropic-stream', 'py')).toEqual({ deltas: ['Bon', 'jour', '!'], text: 'Bonjour!' });
  }, 60_000);

  it('a rejection is PermissionDeniedError (403) "rejected by the reviewer" in both SDKs; History names the token', async () => {
    for (const mode of ['openai-rejected', 'anthropic-rejected']) {
      const out = await client(mode, 'py-no');
      expect(out).toMatchObject({ error: 'PermissionDeniedError', status: 403 });
      expect(String(out.message)).toContain('rejected by the reviewer');
    }
    const page = await h.service.listHistory({ limit: 10, offset: 0 });
    expect(page.entries.filter((e) => e.serverId === 'gateway:py-no').map((e) => e.status)).toEqual(['rejected', 'rejected']);
    expect(page.entries.filter((e) => e.serverId === 'gateway:py' && e.status === 'delivered')).toHaveLength(4);
  }, 60_000);
});
