import { describe, expect, it } from 'vitest';
import { createLineBuffer } from '../../main/mcp/line-buffer.js';

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
});
