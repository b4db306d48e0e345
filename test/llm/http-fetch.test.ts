/**
 * The node:http fetch the OpenAI-compatible provider uses for `http:` endpoints: what it must do
 * as the global fetch does (status, headers, streamed body, decoding, redirects, errors, abort).
 */
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from '../../main/llm/http-fetch.js';

let server: Server;
let base = '';
const seen: Array<{ method?: string; url?: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync('{"zipped":true}'));
      } else if (req.url === '/moved') {
        res.writeHead(307, { location: '/echo' });
        res.end();
      } else if (req.url === '/empty') {
        res.writeHead(204);
        res.end();
      } else if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n'); // and never ends
      } else {
        res.writeHead(418, 'Teapot', { 'x-one': 'a', 'retry-after': '7' });
        res.end(`echo ${req.method} ${body}`);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('httpFetch', () => {
  it('sends method, headers and a string body; answers status, status text, headers and body', async () => {
    const res = await httpFetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: '{"a":"é"}' });
    expect([res.status, res.statusText, res.ok]).toEqual([418, 'Teapot', false]);
    expect(res.headers.get('x-one')).toBe('a');
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.text()).toBe('echo POST {"a":"é"}');
    const last = seen.at(-1)!;
    expect(last.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k', 'content-length': String(Buffer.byteLength('{"a":"é"}')) });
  });

  it('decodes a gzip body, follows a redirect (re-posting, as fetch does), and gives a 204 no body', async () => {
    expect(await (await httpFetch(`${base}/gzip`)).json()).toEqual({ zipped: true });
    const moved = await httpFetch(`${base}/moved`, { method: 'POST', body: 'again' });
    expect(await moved.text()).toBe('echo POST again');
    const empty = await httpFetch(`${base}/empty`);
    expect([empty.status, empty.body]).toEqual([204, null]);
  });

  it('a refused connection rejects like the global fetch: TypeError "fetch failed" caused by ECONNREFUSED', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createNetServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const e = (await httpFetch(`http://127.0.0.1:${port}/x`).catch((x: unknown) => x)) as TypeError & { cause?: { code?: string } };
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('fetch failed');
    expect(e.cause?.code).toBe('ECONNREFUSED');
  });

  it('an abort rejects the request, or errors a body already streaming, with an AbortError', async () => {
    const before = new AbortController();
    before.abort();
    await expect(httpFetch(`${base}/echo`, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const during = new AbortController();
    const res = await httpFetch(`${base}/slow`, { signal: during.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    during.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });
});
