import { describe, expect, it } from 'vitest';
import { createLineBuffer } from '../../main/mcp/line-buffer.js';
import { BIG_PAYLOAD, createOffload, type Offload } from '../../main/offload/offload.js';
import type { OffloadTasks } from '../../main/offload/tasks.js';

const frame = (m: object) => Buffer.from(`${JSON.stringify(m)}\n`);
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('linear stdio line buffer (replaces the SDK ReadBuffer)', () => {
  it('reassembles messages split across chunks, and several per chunk', () => {
    const b = createLineBuffer(1024);
    const all = Buffer.concat([frame(ping(1)), frame(ping(2)), frame(ping(3))]);
    b.append(all.subarray(0, 7));
    expect(b.readMessage()).toBeNull();
    b.append(all.subarray(7, 40));
    b.append(all.subarray(40));
    expect([b.readMessage(), b.readMessage(), b.readMessage(), b.readMessage()]).toEqual([ping(1), ping(2), ping(3), null]);
  });

  it('skips non-JSON lines (a server printing to stdout) and strips CR', () => {
    const b = createLineBuffer(1024);
    b.append(Buffer.from(`hello there\r\n${JSON.stringify(ping(9))}\r\n`));
    expect(b.readMessage()).toEqual(ping(9));
  });

  it('refuses a pending message past the cap and recovers after clear', () => {
    const b = createLineBuffer(32);
    expect(() => b.append(Buffer.from('x'.repeat(33)))).toThrow(/exceeded maximum size of 32 bytes/);
    b.append(frame(ping(1)).subarray(0, 10));
    b.append(frame(ping(1)).subarray(10));
    expect(b.readMessage()).toMatchObject({ id: 1 });
  });

  it('takes a 16 MB message in 64 KB chunks intact', () => {
    const data = 'A'.repeat(16 * 1024 * 1024);
    const buf = frame({ jsonrpc: '2.0', id: 5, method: 'sampling/createMessage', params: { data } });
    const b = createLineBuffer(64 * 1024 * 1024);
    for (let i = 0; i < buf.length; i += 65536) b.append(buf.subarray(i, i + 65536));
    const msg = b.readMessage() as unknown as { params: { data: string } };
    expect(msg.params.data.length).toBe(data.length);
  });

  it('a big line is parsed off the event loop; nothing after it is read before it', async () => {
    // An offload that answers only when the test says so: the main thread is free meanwhile.
    const inline = createOffload(undefined);
    let release: (() => void) | undefined;
    const parsedOnWorker: number[] = [];
    const offload: Offload = {
      threaded: true,
      close: async () => undefined,
      held: (value, ids) => inline.held(value, ids),
      textInput: (text) => inline.textInput(text),
      run: (async (task: 'parseJsonLine', input: OffloadTasks['parseJsonLine']['input']) => {
        parsedOnWorker.push((Array.isArray(input) ? input : [input]).reduce((n, b) => n + b.byteLength, 0));
        await new Promise<void>((r) => (release = r));
        return inline.run(task, input);
      }) as Offload['run'],
    };
    let ready = 0;
    const b = createLineBuffer(64 << 20, { offload, onReady: () => ready++ });
    const big = { jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: { text: 'x'.repeat(BIG_PAYLOAD) } };
    b.append(Buffer.concat([frame(ping(1)), frame(big), frame(ping(3))]));
    expect(b.readMessage()).toEqual(ping(1));
    expect(b.readMessage()).toBeNull(); // the big one is being parsed; ping 3 waits behind it
    expect(b.readMessage()).toBeNull();
    expect(parsedOnWorker).toHaveLength(1);
    expect(parsedOnWorker[0]).toBeGreaterThan(BIG_PAYLOAD);
    release!();
    await expect.poll(() => ready).toBe(1);
    expect(b.readMessage()).toEqual(big);
    expect(b.readMessage()).toEqual(ping(3));
    expect(b.readMessage()).toBeNull();
  });

  it('a big line that is not JSON is skipped, as a small one is; clear drops a parse in progress', async () => {
    let ready = 0;
    const b = createLineBuffer(64 << 20, { offload: createOffload(undefined), onReady: () => ready++ });
    b.append(Buffer.from(`${'not json '.repeat(BIG_PAYLOAD / 8)}\n${JSON.stringify(ping(4))}\n`));
    expect(b.readMessage()).toBeNull();
    await expect.poll(() => ready).toBe(1);
    expect(b.readMessage()).toEqual(ping(4));
    b.append(frame({ jsonrpc: '2.0', id: 5, method: 'x', params: { t: 'y'.repeat(BIG_PAYLOAD) } }));
    expect(b.readMessage()).toBeNull();
    b.clear();
    await new Promise((r) => setTimeout(r, 50));
    expect(ready).toBe(1); // the cleared line's parse reports to nobody
    expect(b.readMessage()).toBeNull();
  });
});
