/**
 * A `fetch` for plain `http:` endpoints — a model server on this machine or the local network
 * (Ollama, LM Studio, vLLM, llama.cpp server) — on `node:http` with kept-alive connections. The
 * AI SDK providers take it in place of the global fetch (undici), which costs ≈ 0.5 ms more CPU
 * per request (its Request/Response/Headers machinery), measured against the loopback provider
 * by `bench/profile-sampling.ts`.
 *
 * It behaves as the global fetch does for what the providers send (a string body, `follow`
 * redirects, an abort signal): a request that fails to connect rejects with
 * `TypeError('fetch failed', { cause })` as undici does (so the SDK's and errors.ts's handling
 * of ECONNREFUSED & co. is unchanged), an abort rejects (or errors the body) with the signal's
 * AbortError, gzip / deflate / br bodies are decoded. Anything else — `https:` (TLS, proxies), a
 * Request object or non-string body, another redirect mode, a redirect answer — is handed to the
 * global fetch.
 */
import http from 'node:http';
import { Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';

/** Connections kept open between requests (one per concurrent request, reused). */
const agent = new http.Agent({ keepAlive: true });

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** See the file comment. */
export const httpFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
  const body = init?.body;
  if (url?.protocol !== 'http:' || (body !== undefined && body !== null && typeof body !== 'string') || (init?.redirect !== undefined && init.redirect !== 'follow')) {
    return fetch(input, init);
  }
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
  if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
  const signal = init?.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(url, { method: init?.method ?? 'GET', headers, agent, ...(signal ? { signal } : {}) }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolve(fetch(input, init)); // let the global fetch follow it, as it would have
        return;
      }
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const meta = { status, statusText: res.statusMessage ?? '', headers: responseHeaders };
      if (NULL_BODY.has(status) || req.method === 'HEAD') {
        res.resume();
        resolve(new Response(null, meta));
        return;
      }
      const decoder = decoderFor(res.headers['content-encoding']);
      let stream: Readable = res;
      if (decoder) {
        res.on('error', (err) => decoder.destroy(err));
        stream = res.pipe(decoder);
      }
      if (signal) {
        // As with fetch, a body still streaming fails with the abort reason, not a socket error.
        const onAbort = () => stream.destroy(signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError'));
        signal.addEventListener('abort', onAbort, { once: true });
        stream.once('close', () => signal.removeEventListener('abort', onAbort));
      }
      resolve(new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, meta));
    });
    req.on('error', (err) => reject(signal?.aborted || err.name === 'AbortError' ? err : new TypeError('fetch failed', { cause: err })));
    req.end(typeof body === 'string' ? body : undefined);
  });
};
