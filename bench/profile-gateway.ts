/**
 * Profiling helper (not a scenario): the console as `npm start` runs it (out/web/cli.js, its own
 * process, bench/gateway-rig.ts) under `node --cpu-prof`, with the gateway scenario's load —
 * `CONCURRENCY` callers (default 32) looping plain Chat Completions calls with the `openai` SDK
 * for `MS` ms (default 10000) through an `approve_all` rule to the loopback fake — then stopped
 * cleanly, so its profile is written. Run: `npx tsx bench/profile-gateway.ts [MS] [CONCURRENCY]
 * [--stream] [--no-profile]`; prints calls/s, the console's CPU per call (ms) and the profile's
 * folder (open the `.cpuprofile` in Chrome DevTools). `--no-profile` runs the console without the
 * profiler, whose own cost would be counted in its CPU per call.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { processCpuMs, startConsoleProcess } from './gateway-rig.js';
import { loadNote, startLoopbackLlm } from './sampling-rig.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const stream = process.argv.includes('--stream');
const profile = !process.argv.includes('--no-profile');
const ms = Number(args[0] ?? 10_000);
const concurrency = Number(args[1] ?? 32);
const profileDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-gateway-profile-'));

const llm = await startLoopbackLlm();
const c = await startConsoleProcess(llm.baseURL, profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {});
try {
  const client = new OpenAI({ baseURL: c.baseURL, apiKey: c.apiKey, maxRetries: 0 });
  const call = async () => {
    if (!stream) return void (await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'ping' }], max_tokens: 16 }));
    for await (const _ of await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'ping' }], max_tokens: 16, stream: true })) void _;
  };
  for (let i = 0; i < 200; i++) await call();
  const cpu0 = processCpuMs(c.pid);
  const t0 = performance.now();
  let calls = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() - t0 < ms) {
      await call();
      calls++;
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ calls, perSecond: Math.round(calls / seconds), cpuMsPerCall: +((processCpuMs(c.pid) - cpu0) / calls).toFixed(3), load: loadNote(), ...(profile && { profileDir }) }));
} finally {
  await c.stop();
  await llm.close();
}
