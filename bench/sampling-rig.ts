/**
 * What the sampling scenarios share: a loopback OpenAI-compatible provider in its own process
 * (answers at once), a real console (createConsole in a temp user-data folder, rules that
 * auto-approve request AND response, limits raised, history on), and the floor — a bare
 * `@modelcontextprotocol/client` whose sampling handler calls the same provider (or returns a canned
 * result, for the MCP round trip alone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import { createConsole, type ConsoleHandle } from '../main/console.js';
import type { BenchReport } from '../test/fixtures/bench-sampling-server.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The canned answer of the floor (what the loopback provider's default script answers, as MCP). */
export const CANNED_RESULT = { role: 'assistant', content: { type: 'text', text: 'Hello from the loopback server.' }, model: 'test-model', stopReason: 'endTurn' } as const;

/** A child process that printed one line the caller needed, and how to stop it. */
export interface Loopback {
  baseURL: string;
  close(): Promise<void>;
}

/** Starts test/fixtures/openai-compatible-server.ts as its own process. @throws Error when it prints no URL within 30 s */
export async function startLoopbackLlm(): Promise<Loopback> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/fixtures/openai-compatible-server.ts'), '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const baseURL = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('loopback provider printed no baseURL in 30 s')), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"baseURL":"([^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`loopback provider exited (${code})`)));
  });
  return {
    baseURL,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A `providers.json` whose default is model `test-model` of provider `llm`, the OpenAI-compatible server at `baseURL`. */
export function providersFile(baseURL: string): string {
  return JSON.stringify({ providers: [{ id: 'llm', kind: 'openai-compatible', baseURL, models: ['test-model'] }], defaultProvider: 'llm', defaultModel: 'test-model' });
}

/** A console the bench started, with its folder and its window. */
export interface BenchConsole extends ConsoleHandle {
  dir: string;
  /** Bytes of state events the window has received so far (as JSON, as the web host sends them). */
  windowBytes(): number;
  /** Disposes the console and removes its folder. */
  close(): Promise<void>;
}

const HIGH_LIMITS = { requestsPerMinute: 100_000, maxWaiting: 100_000 };

/**
 * Starts a console whose every server in `servers` auto-approves request and response
 * (`approve_all`, limits raised), with `baseURL` as the default provider when given. Like the app,
 * it has a window: a subscriber to the state events that serialises each one as the web host does
 * for its socket (and counts the bytes); its CPU is the console's.
 */
export async function startBenchConsole(servers: Record<string, unknown>, baseURL?: string): Promise<BenchConsole> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-bench-'));
  writeFileSync(path.join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: servers }));
  if (baseURL) writeFileSync(path.join(dir, 'providers.json'), providersFile(baseURL));
  const policies = Object.fromEntries(
    Object.keys(servers).map((id) => [id, { limits: HIGH_LIMITS, rules: [{ id: 'bench', name: 'Bench: send unattended', action: { kind: 'approve_all' } }] }]),
  );
  writeFileSync(path.join(dir, 'rules.json'), JSON.stringify({ version: 1, global: HIGH_LIMITS, servers: policies }));
  const handle = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: {} });
  let bytes = 0;
  handle.service.onEvent((event) => {
    bytes += JSON.stringify({ event }).length;
  });
  return {
    ...handle,
    dir,
    windowBytes: () => bytes,
    async close() {
      await handle.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls `name` on `serverId` through the console and resolves with the fixture's report. @throws Error when the call fails or times out */
export async function consoleCall(c: ConsoleHandle, serverId: string, name: string, args: Record<string, unknown>, timeoutMs = 300_000): Promise<BenchReport> {
  const { callId } = await c.service.callTool({ serverId, name, arguments: args });
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await c.service.getState({});
    const call = state.calls.find((x) => x.id === callId);
    if (call && call.status !== 'running') {
      const first = call.result?.content[0] as { text?: unknown } | undefined;
      if (typeof first?.text !== 'string') throw new Error(`call ${name} ended ${call.status} without a report: ${JSON.stringify(call).slice(0, 500)}`);
      return JSON.parse(first.text) as BenchReport;
    }
    if (Date.now() > until) throw new Error(`call ${name} did not end in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A floor client: a bare SDK client on one stdio server, and how to call a tool on it. */
export interface FloorClient {
  client: Client;
  /** Calls tool `name` and resolves with the fixture's report. @throws Error when the call returns no report */
  call(name: string, args: Record<string, unknown>): Promise<BenchReport>;
  close(): Promise<void>;
}

/**
 * The floor: a bare SDK client connected to a stdio server config. With `baseURL` its sampling
 * handler does what a host without review does — one AI SDK `generateText` call to the same
 * loopback provider the console uses (`@ai-sdk/openai-compatible`, no retries) — so the console's
 * added latency and CPU are the console's own; without, it answers {@link CANNED_RESULT} at once
 * (the MCP round trip alone).
 */
export async function startFloorClient(config: { command: string; args: string[]; cwd: string }, baseURL?: string): Promise<FloorClient> {
  const client = new Client({ name: 'bench-floor', version: '1.0.0' }, { capabilities: { sampling: {} } });
  const model = baseURL ? createOpenAICompatible({ name: 'floor', baseURL, apiKey: 'bench', includeUsage: true }).chatModel('test-model') : undefined;
  client.setRequestHandler('sampling/createMessage', async (request) => {
    if (!model) return { ...CANNED_RESULT, content: { ...CANNED_RESULT.content } };
    const { messages, maxTokens } = request.params;
    const prompt = messages.map((m) => ({ role: m.role, content: Array.isArray(m.content) ? m.content.map((c) => ('text' in c ? String(c.text) : '')).join('') : 'text' in m.content ? String(m.content.text) : '' }));
    const { text } = await generateText({ model, messages: prompt, maxOutputTokens: maxTokens, maxRetries: 0 });
    return { role: 'assistant' as const, content: { type: 'text' as const, text }, model: 'test-model', stopReason: 'endTurn' };
  });
  await client.connect(new StdioClientTransport({ command: config.command, args: config.args, cwd: config.cwd }));
  return {
    client,
    async call(name, args) {
      const res = await client.callTool({ name, arguments: args }, { timeout: 600_000 });
      const first = res.content[0] as { text?: unknown } | undefined;
      if (typeof first?.text !== 'string') throw new Error(`floor call ${name} returned no report`);
      return JSON.parse(first.text) as BenchReport;
    },
    close: () => client.close(),
  };
}

/** Throws unless the report answered exactly `expected` requests (or ≥ 1 when undefined) with no errors. */
export function checkReport(who: string, r: BenchReport, expected?: number): void {
  const errors = Object.values(r.errors).reduce((a, b) => a + b, 0);
  if (errors > 0) throw new Error(`${who}: ${errors} requests failed (${JSON.stringify(r.errors)}; first: ${r.firstError})`);
  if (expected !== undefined ? r.answered !== expected : r.answered < 1) throw new Error(`${who}: answered ${r.answered}, expected ${expected ?? '≥ 1'}`);
}

/** The 1-minute load average and core count, for a figure's note. */
export const loadNote = (): string => `load ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`;
