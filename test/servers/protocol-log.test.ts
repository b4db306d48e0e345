/**
 * The per-server logs: the ring buffer keeps the newest N in order; message sizes are measured
 * without serialising (equal to the JSON length for ASCII); responses get their request's method;
 * search filters.
 */
import { describe, expect, it } from 'vitest';
import { approxJsonSize, RingBuffer, ServerLog, withProtocolLog } from '../../main/mcp/protocol-log.js';
import type { Transport } from '@modelcontextprotocol/client';

describe('ring buffer', () => {
  it('keeps the newest `capacity` entries, oldest first, and counts all', () => {
    const r = new RingBuffer<number>(3);
    for (let i = 1; i <= 7; i++) r.push(i);
    expect(r.toArray()).toEqual([5, 6, 7]);
    expect(r.total).toBe(7);
  });
  it('a server log holds at most 2,000 protocol entries', () => {
    const log = new ServerLog(() => 0);
    for (let i = 0; i < 2500; i++) log.addProtocol({ direction: 'out', kind: 'notification', method: `m${i}`, size: 1 });
    const page = log.page();
    expect(page.protocol).toHaveLength(2000);
    expect(page.protocol[0]!.method).toBe('m500');
    expect(page.totals.protocol).toBe(2500);
  });
});

describe('message size', () => {
  it('equals the JSON length for ASCII messages', () => {
    const msg = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi', n: 3.5, ok: true, list: [1, 'two', null] } } };
    expect(approxJsonSize(msg)).toBe(JSON.stringify(msg).length);
  });
});

describe('transport wrapper', () => {
  it('records both directions; a response carries its request\'s method; errors their code', async () => {
    const sent: unknown[] = [];
    const inner = { start: async () => undefined, close: async () => undefined, send: async (m: unknown) => void sent.push(m) } as unknown as Transport;
    const log = new ServerLog(() => 1);
    const t = withProtocolLog(inner, (e) => log.addProtocol(e));
    const received: unknown[] = [];
    t.onmessage = (m) => void received.push(m);
    await t.send({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'x' } });
    inner.onmessage!({ jsonrpc: '2.0', id: 1, result: { messages: [] } });
    inner.onmessage!({ jsonrpc: '2.0', id: 9, method: 'roots/list' });
    await t.send({ jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'nope' } });
    expect(sent).toHaveLength(2);
    expect(received).toHaveLength(2);
    expect(log.page().protocol.map((e) => [e.direction, e.kind, e.method, e.id, e.error?.code])).toEqual([
      ['out', 'request', 'prompts/get', 1, undefined],
      ['in', 'response', 'prompts/get', 1, undefined],
      ['in', 'request', 'roots/list', 9, undefined],
      ['out', 'error', 'roots/list', 9, -32601],
    ]);
    expect(log.page('roots').protocol).toHaveLength(2);
  });

  it('forwards methods bound to the transport, the current one when the transport replaced it', async () => {
    const calls: string[] = [];
    const inner = {
      who: 'first',
      start: async () => undefined,
      send: async () => undefined,
      close: async function (this: { who: string }) {
        calls.push(this.who);
      },
    };
    const t = withProtocolLog(inner as unknown as Transport, () => undefined);
    const close = t.close;
    expect(t.close).toBe(close); // one bound function, not a new one per read
    await close();
    inner.who = 'second';
    inner.close = async function (this: { who: string }) {
      calls.push(`replaced ${this.who}`);
    };
    await t.close();
    expect(calls).toEqual(['first', 'replaced second']);
  });
});
