/**
 * An answered gateway call's record survives the console being killed at any moment: a real
 * console in a child process gets many auto-approved calls at once (plain and streamed, through the
 * official `openai` SDK) and is SIGKILLed at a random point while they are in flight — several
 * times over the same folder. Every call whose caller got its answer (the whole JSON, or a stream
 * to its end) is in History afterwards, delivered with the response the caller got, and the
 * database passes SQLite's integrity check.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../main/console.js';
import { openHistoryStore } from '../../main/store/history-store.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const ROUNDS = 4;
const CALLERS = 16;
let dir = '';
let llm: OpenAICompatibleServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-kill-'));
  llm = await startOpenAICompatibleServer();
  const all = { id: 'all', name: 'all', when: {}, action: { kind: 'approve_all' } };
  const high = { requestsPerMinute: 100_000, maxWaiting: 10_000 };
  const servers = Object.fromEntries(Array.from({ length: ROUNDS }, (_, i) => [`gateway:round${i}`, { limits: high, rules: [all] }]));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify({ version: 1, global: high, servers }));
});
afterAll(async () => {
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the console child with token `name`; resolves with its gateway URL, token and a SIGKILL that resolves once it is dead. */
function startChild(name: string): Promise<{ url: string; token: string; kill(): Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(here, 'fixtures', 'gateway-kill-child.ts'), dir, llm.baseURL, name], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let out = '';
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"url"'));
      if (line) resolve({ ...(JSON.parse(line) as { url: string; token: string }), kill: () => (proc.kill('SIGKILL'), exited) });
    });
    void exited.then(() => reject(new Error(`the console exited before it listened:\n${err}`)));
  });
}

/** The item id an answer's `chatcmpl-<32 hex>` id names. */
const itemIdOf = (id: string): string => {
  const hex = id.slice('chatcmpl-'.length);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Callers looping calls until `stop`; every answer that reached its caller whole, by item id, with its text. */
async function callUntil(client: OpenAI, stopped: () => boolean, answered: Map<string, string>): Promise<void> {
  const one = async (i: number): Promise<void> => {
    const body = { model: 'test-model', messages: [{ role: 'user' as const, content: `call ${i}` }] };
    if (i % 2 === 0) {
      const reply = await client.chat.completions.create(body);
      answered.set(itemIdOf(reply.id), reply.choices[0]!.message.content ?? '');
      return;
    }
    let id = '';
    let text = '';
    for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
      id = chunk.id;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    answered.set(itemIdOf(id), text); // the stream reached its end: the caller has the whole answer
  };
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, c) => {
      for (let i = c; !stopped(); i += CALLERS) await one(i).catch(() => undefined); // calls cut by the kill: no answer
    }),
  );
}

it('every call answered before a SIGKILL at a random point is in History, delivered', async () => {
  const answered = new Map<string, string>();
  for (let round = 0; round < ROUNDS; round++) {
    const child = await startChild(`round${round}`);
    const client = new OpenAI({ baseURL: `${child.url}/openai/v1`, apiKey: child.token, maxRetries: 0 });
    let stop = false;
    const before = answered.size;
    const calling = callUntil(client, () => stop, answered);
    while (answered.size === before) await new Promise((r) => setTimeout(r, 5)); // calls are flowing
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 500));
    await child.kill();
    stop = true;
    await calling;
    expect(answered.size).toBeGreaterThan(before);
  }
  const store = openHistoryStore(join(dir, HISTORY_FILE));
  try {
    for (const [id, text] of answered) {
      const entry = await store.get(id);
      expect(entry, `the answered call ${id}`).not.toBeNull();
      expect(entry!.status).toBe('delivered');
      expect(JSON.stringify(entry!.delivered)).toContain(JSON.stringify(text));
    }
  } finally {
    store.close();
  }
  const db = new Database(join(dir, HISTORY_FILE));
  try {
    expect(db.prepare('PRAGMA integrity_check').raw().get()).toEqual(['ok']);
  } finally {
    db.close();
  }
}, 120_000);
