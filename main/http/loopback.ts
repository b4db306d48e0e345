/**
 * What every loopback HTTP listener of main checks before anything else, and how it reads a
 * request body: the provider gateway (main/gateway/server.ts) and the bridged servers' Streamable
 * HTTP (main/bridge/http-serving.ts), both on 127.0.0.1.
 */
import type { IncomingMessage } from 'node:http';

/**
 * Why a request to the loopback listener on `port` is refused, or undefined: any `Origin` header
 * (a web page: no browser may call these endpoints), or a `Host` other than `127.0.0.1:<port>` /
 * `localhost:<port>` (DNS rebinding). Both are answered 403.
 */
export function loopbackRefusal(req: IncomingMessage, port: number): string | undefined {
  if (req.headers.origin !== undefined) return 'requests from web pages are refused';
  const host = req.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return 'the Host header must name this loopback address';
  return undefined;
}

/**
 * The request's body, at most `cap` bytes.
 * @returns the bytes, or `too_large` past `cap` (a declared `content-length` over it is refused
 *   before reading; the rest is drained, not kept)
 */
export async function readBody(req: IncomingMessage, cap: number): Promise<Buffer | 'too_large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) {
    req.resume();
    return 'too_large';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) {
      req.resume();
      return 'too_large';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
