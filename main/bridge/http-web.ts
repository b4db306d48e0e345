/**
 * `node:http` ↔ web-standard `Request`/`Response`, for mounting the MCP server SDK's web-standard
 * transports on a plain Node listener (the SDK leaves that adapter to a separate package).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web `Request` for `req` with `body` (already read), aborted through `signal` when the client goes. */
export function toWebRequest(req: IncomingMessage, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body.length > 0;
  return new Request(url, { method: req.method ?? 'GET', headers, ...(hasBody && { body: new Uint8Array(body) }), signal });
}

/** An AbortSignal that aborts when the client hangs up before the response is finished. */
export function hangUpSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Writes a web `Response` to `res`, streaming its body (an SSE stream until it ends or the client goes). */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away mid-stream
  }
  res.end();
}

/** Answers with a JSON-RPC error body (`id: null`) and HTTP `status`. */
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}
