// A full session with a known API key ("a test greps the user-data folder and the logs for
// a known key after a full session"): the key is entered through the API into the web host's
// encrypted secret store, a connection test and two generations run (the first fails with a 401
// whose body echoes the key), the response is delivered to server-everything; then every byte
// under the user-data folder (config, secrets, history database + WAL), every log line, the state
// and the history entries are searched for the key.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEverythingEntry } from '../../main/config.js';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import type { Logger } from '../../main/ports.js';
import { createFileSecretStore } from '../../main/secrets/file-store.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { wholeState, type WholeState } from '../support/console-harness.js';

const KEY = 'sk-LEAKTEST-7d3f9a1c5e2b4d6f8a0c';
let dir: string;
let llm: OpenAICompatibleServer;
let handle: ConsoleHandle;
const logs: string[] = [];
const logger: Logger = {
  info: (m, d) => void logs.push(JSON.stringify({ m, d })),
  warn: (m, d) => void logs.push(JSON.stringify({ m, d })),
  error: (m, d) => void logs.push(JSON.stringify({ m, d })),
};

async function waitFor(pred: (s: WholeState) => boolean, what: string): Promise<WholeState> {
  const until = Date.now() + 30_000;
  for (;;) {
    const s = await wholeState(handle);
    if (pred(s)) return s;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every file under `root`, recursively, as UTF-8 and Latin-1 text (binary files included). */
function allBytes(root: string): string {
  let out = '';
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    if (statSync(p).isDirectory()) out += allBytes(p);
    else {
      const raw = readFileSync(p);
      out += `\n${p}\n${raw.toString('utf8')}\n${raw.toString('latin1')}`;
    }
  }
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'leak-test-'));
  llm = await startOpenAICompatibleServer({ apiKey: KEY, models: ['test-model'] });
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [serverEverythingEntry(), 'stdio'] } } }));
  handle = await createConsole({ host: 'test', userDataDir: dir, env: {}, logger, secrets: createFileSecretStore({ dir }), nodeRuntime: { command: process.execPath } });
});
afterAll(async () => {
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a full session never leaks the API key', () => {
  it('enter key, test, fail (401 echoing the key), retry, deliver; then grep everything', async () => {
    const api = handle.service;
    const view = await api.saveProvider({ provider: { id: 'loop', kind: 'openai-compatible', label: 'Loop', baseURL: llm.baseURL, models: ['test-model'] }, apiKey: KEY });
    expect(view.hasApiKey).toBe(true);
    const tested = await api.testProvider({ id: 'loop' });
    expect(tested.ok).toBe(true);

    await waitFor((s) => !!s.servers.find((x) => x.id === 'everything' && x.tools.some((t) => t.name === 'trigger-sampling-request')), 'server-everything');
    const { callId } = await api.callTool({ serverId: 'everything', name: 'trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 32 } });
    let s = await waitFor((st) => st.items.some((i) => i.association.calls.some((c) => c.callId === callId)), 'the sampling request');
    const item = s.items.find((i) => i.association.calls.some((c) => c.callId === callId))!;

    llm.script({ error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } });
    await api.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: { providerId: 'loop', modelId: 'test-model' } });
    s = await waitFor((st) => !!st.items.find((i) => i.id === item.id)?.error, 'the failure');
    const failed = s.items.find((i) => i.id === item.id)!;
    expect(failed.status).toBe('awaiting_request_review');
    expect(failed.error?.message).toMatch(/401 Unauthorized — check the API key\. Server said: "Incorrect API key provided: \*\*\*\."/);

    llm.script({ text: 'Hi from the loopback model.' });
    await api.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: { providerId: 'loop', modelId: 'test-model' } });
    s = await waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'the response');
    const reviewed = s.items.find((i) => i.id === item.id)!;
    await api.approveResponse({ itemId: item.id, version: reviewed.contentVersion!, result: reviewed.response!.draft });
    s = await waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'delivered', 'delivery');
    expect(llm.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);

    const entry = await api.getHistoryEntry({ id: item.id });
    expect(JSON.stringify(entry)).toContain('generation_failed');
    for (const text of [JSON.stringify(s), JSON.stringify(entry), JSON.stringify(await api.listHistory({ limit: 50, offset: 0 }))]) expect(text).not.toContain(KEY);

    await handle.dispose();
    const disk = allBytes(dir);
    expect(disk).toContain('secrets.enc.json');
    expect(disk).not.toContain(KEY);
    expect(disk).not.toContain(Buffer.from(KEY).toString('base64'));
    expect(logs.join('\n')).not.toContain(KEY);
  });
});
