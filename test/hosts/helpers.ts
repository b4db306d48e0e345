/** Helpers for the host tests: a throwaway renderer build, raw HTTP and raw WebSocket upgrades. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A temp folder shaped like out/renderer, plus a secret file next to it (outside). */
export function makeStaticDir(): { staticDir: string; cleanup(): void } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-hosts-'));
  const staticDir = path.join(base, 'renderer');
  mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="./assets/index-abc123.js"></script>');
  writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js'), 'console.log("app");');
  writeFileSync(path.join(staticDir, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(path.join(staticDir, 'assets', 'other.html'), '<p>not the app page</p>');
  writeFileSync(path.join(base, 'secret.txt'), 'SECRET');
  symlinkSync(path.join(base, 'secret.txt'), path.join(staticDir, 'assets', 'link.txt'));
  return { staticDir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Result of {@link get}. */
export interface GetResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET (or other method) to 127.0.0.1:port with a raw request target and optional headers. */
export function get(port: number, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<GetResult> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends a WebSocket upgrade request by hand (so Host and Origin can be anything, or absent) and
 * resolves with the status code of the response line and whether the server closed the socket.
 */
export function rawUpgrade(port: number, target: string, headers: Record<string, string | undefined>): Promise<{ status: number; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let status = 0;
    const lines = [
      `GET ${target} HTTP/1.1`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version: 13',
      ...Object.entries(headers)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ];
    socket.on('connect', () => socket.write(lines.join('\r\n')));
    socket.on('data', (c) => {
      data += c.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) status = Number(m[1]);
      if (status === 101) {
        socket.destroy();
        resolve({ status, closed: false });
      }
    });
    socket.on('close', () => resolve({ status, closed: true }));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve({ status, closed: false });
    }, 3000).unref();
  });
}
