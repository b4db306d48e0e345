/**
 * Latency the provider gateway adds to an auto-approved call: N sequential Chat Completions calls
 * with the official `openai` SDK, straight to the loopback OpenAI-compatible fake, and through a
 * real console's gateway (a named token, an `approve_all` rule for it, limits raised, history persisted) whose
 * provider is that same fake — each timed at the caller. Goal: ≤ +1 ms p50.
 * Sanity: every call answered with the fake's text.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { createConsole } from '../../main/console.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { loadNote } from '../sampling-rig.js';

const N = Number(process.env.BENCH_GATEWAY_N ?? 300);
const WARMUP = 30;

/** Times N calls of `client` after a warm-up. */
async function timeCalls(client: OpenAI): Promise<number[]> {
  const one = async () => {
    const t0 = performance.now();
    const reply = await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'ping' }], max_tokens: 16 });
    const ms = performance.now() - t0;
    if (!reply.choices[0]?.message.content) throw new Error(`no text in ${JSON.stringify(reply).slice(0, 200)}`);
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) await one();
  const samples: number[] = [];
  for (let i = 0; i < N; i++) samples.push(await one());
  return samples;
}

const scenario: Scenario = {
  name: 'gateway',
  description: `latency the provider gateway adds to an auto-approved call, ${N} sequential openai SDK calls, straight to the fake vs through the console`,
  async run() {
    const llm = await startOpenAICompatibleServer();
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-bench-gateway-'));
    writeFileSync(path.join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
    writeFileSync(path.join(dir, 'providers.json'), JSON.stringify({ providers: [{ id: 'llm', kind: 'openai-compatible', baseURL: llm.baseURL, models: ['test-model'] }], defaultProvider: 'llm', defaultModel: 'test-model' }));
    const handle = await createConsole({ host: 'test', userDataDir: dir, env: { MCP_CONSOLE_GATEWAY_PORT: '0' } });
    try {
      const { token } = await handle.service.createGatewayToken({ name: 'bench' });
      const high = { requestsPerMinute: 100_000, maxWaiting: 100_000 };
      const rules = { version: 1, global: high, servers: { 'gateway:bench': { limits: high, rules: [{ id: 'all', name: 'all', when: {}, action: { kind: 'approve_all' } }] } } } as unknown as RulesFile;
      await handle.service.saveRules({ rules });
      const url = (await handle.service.getState({})).gateway?.url;
      if (!url) throw new Error('the gateway is not listening');
      const direct = await timeCalls(new OpenAI({ baseURL: llm.baseURL, apiKey: 'k', maxRetries: 0 }));
      const through = await timeCalls(new OpenAI({ baseURL: `${url}/openai/v1`, apiKey: token, maxRetries: 0 }));
      const d50 = percentile(direct, 50);
      const g50 = percentile(through, 50);
      const figures: Figure[] = [
        { id: 'gateway.direct_p50_ms', name: 'openai SDK → fake p50', value: d50, unit: 'ms', note: `n=${N}` },
        { id: 'gateway.through_p50_ms', name: 'openai SDK → gateway → fake p50', value: g50, unit: 'ms', peer: 'gateway.direct_p50_ms', note: 'approve_all rule, history persisted' },
        { id: 'gateway.added_p50_ms', name: 'gateway added p50', value: g50 - d50, unit: 'ms', peer: 'gateway.direct_p50_ms', target: { op: '<=', value: 1 } },
        { id: 'gateway.added_p99_ms', name: 'gateway added p99', value: percentile(through, 99) - percentile(direct, 99), unit: 'ms', note: loadNote() },
      ];
      return figures;
    } finally {
      await handle.dispose();
      await llm.close();
    }
  },
};

export default scenario;
