/**
 * A tiny static file server for the built renderer (out/renderer) on 127.0.0.1 and a random port,
 * so UI specs run without the backend. Only GET/HEAD; paths cannot escape the root.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** A running static server. */
export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `root` (which must contain index.html).
 * @throws Error when `root` has no index.html (build the renderer first: `npm run build`).
 */
export async function serveStatic(root: string): Promise<StaticServer> {
  const base = path.resolve(root);
  if (!existsSync(path.join(base, 'index.html'))) {
    throw new Error(`${base}/index.html is missing: run \`npm run build\` first`);
  }
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = path.resolve(base, `.${urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath}`);
    if (!file.startsWith(base + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
