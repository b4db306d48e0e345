import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createOffload, sourceWorkerSpec, type Offload } from '../../main/offload/offload.js';
import { HELD_MIN_CHARS } from '../../main/offload/tasks.js';
import { jsonLength } from '../../shared/domain/json-length.js';

const open: Offload[] = [];
const offload = (...args: [] | [Parameters<typeof createOffload>[0]]) => {
  const spec = args.length === 0 ? sourceWorkerSpec() : args[0];
  const o = createOffload(spec);
  open.push(o);
  return o;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

describe('offload: big-payload work on a worker thread', () => {
  it('runs tasks in a worker thread: parse, validate, detect, write', async () => {
    const o = offload();
    expect(o.threaded).toBe(true);
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\r`);
    expect(await o.run('parseJsonLine', line)).toEqual({ ok: true, value: { jsonrpc: '2.0', id: 1, method: 'ping' }, held: [] });
    expect(await o.run('parseJsonLine', Buffer.from('not json'))).toEqual({ ok: false });
    const found = await o.run('detectTexts', { texts: ['mail ada@example.org', 'nothing here'], options: {} });
    expect(found.map((f) => f.map((x) => x.kind))).toEqual([['email'], []]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'offload-'));
    try {
      const text = 'é'.repeat(1000);
      const written = await o.run('writeText', { dir, text });
      expect(written.bytes).toBe(2000);
      const file = path.join(dir, `${written.sha256}.txt`);
      expect(readFileSync(file, 'utf8')).toBe(text);
      if (process.platform !== 'win32') expect(statSync(file).mode & 0o077).toBe(0); // owner-only
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a task's error reaches the caller with its name, message and code", async () => {
    const o = offload();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'offload-'));
    try {
      const blocker = path.join(dir, 'file');
      writeFileSync(blocker, 'a file, not a folder');
      const err = await o.run('writeText', { dir: path.join(blocker, 'texts'), text: 'a' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as NodeJS.ErrnoException).code).toBe('ENOTDIR');
      expect((err as Error).message).toContain('ENOTDIR');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a worker, or when it cannot start, tasks run inline with the same results', async () => {
    const inline = offload(undefined);
    expect(inline.threaded).toBe(false);
    expect(await inline.run('parseJsonLine', Buffer.from('[1]'))).toEqual({ ok: true, value: [1], held: [] });
    const missing = offload({ url: new URL('./no-such-worker.mjs', import.meta.url) });
    expect(await missing.run('parseJsonLine', Buffer.from('{"a":2}'))).toEqual({ ok: true, value: { a: 2 }, held: [] });
    expect(missing.threaded).toBe(false);
    expect(threadId).toBe(0);
  });

  it('after close, tasks still run (inline)', async () => {
    const o = offload();
    await o.run('parseJsonLine', Buffer.from('1'));
    await o.close();
    expect(await o.run('parseJsonLine', Buffer.from('2'))).toEqual({ ok: true, value: 2, held: [] });
  });

  it("a parsed line's big strings come back from the worker unit for unit, and measured", async () => {
    const o = offload();
    const wide = `${'中文 😀 '.repeat(HELD_MIN_CHARS / 6)}\ud800 lone \udfff`;
    const plain = `${'ü "quoted" \\ '.repeat(HELD_MIN_CHARS / 12)}\n`;
    const line = Buffer.from(JSON.stringify({ params: { texts: [wide, plain], small: 'é' } }));
    const parsed = await o.run('parseJsonLine', line);
    expect(parsed).toEqual({ ok: true, value: JSON.parse(line.toString('utf8')), held: [expect.any(Number), expect.any(Number)] });
    const texts = (parsed as { value: { params: { texts: string[] } } }).value.params.texts;
    expect(texts.map((t) => jsonLength(t))).toEqual([JSON.stringify(wide).length, JSON.stringify(plain).length]);
  });

  it('big strings of a parsed line stay on the worker: later tasks name them; a dropped one is sent again', async () => {
    const o = offload();
    const texts = Array.from({ length: 6 }, (_, i) => `${'word '.repeat(HELD_MIN_CHARS / 5)} mail${i}@example.org`);
    const parsed = await o.run('parseJsonLine', Buffer.from(JSON.stringify({ params: { texts } })));
    if (!parsed.ok) throw new Error('not parsed');
    expect(parsed.held).toHaveLength(6);
    o.held(parsed.value, parsed.held);
    const [first, last] = [(parsed.value as { params: { texts: string[] } }).params.texts[0]!, (parsed.value as { params: { texts: string[] } }).params.texts[5]!];
    expect(o.textInput(last)).toEqual({ held: parsed.held[5] });
    expect(o.textInput('a text the worker never saw')).toBe('a text the worker never saw');
    const found = await o.run('detectTexts', { texts: [o.textInput(last)], options: {} });
    expect(found[0]!.map((f) => f.value)).toEqual(['mail5@example.org']);
    // The worker keeps only the newest few: the first text was dropped there, and is sent instead.
    expect(o.textInput(first)).toBe(first);
    const again = await o.run('detectTexts', { texts: [{ held: parsed.held[0]! }], options: {} }).catch((e: unknown) => e);
    expect((again as { code?: string }).code).toBe('ERR_NOT_HELD');
  });
});
