/**
 * The loopback redirect target of OAuth sign-ins (RFC 8252 §7.3): an HTTP server on 127.0.0.1 at a
 * random port, started on first use, serving `GET /oauth/callback?code=…&state=…`. A callback is
 * accepted only when its `state` matches a sign-in in progress (one use each); anything else is
 * answered 400 and changes nothing. The page shown tells the person to go back to the console.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Path of the redirect URI. */
export const CALLBACK_PATH = '/oauth/callback';

/** What a callback carried. */
export interface CallbackParams {
  code?: string;
  /** RFC 9207 issuer, when the authorization server sends it. */
  iss?: string;
  /** `error` / `error_description` when the person denied or the server failed. */
  error?: string;
}

/** A handler for one expected `state`; resolves with the message shown in the browser. */
export type CallbackHandler = (params: CallbackParams) => Promise<{ ok: boolean; message: string }>;

/** The running callback server. */
export interface CallbackServer {
  /** `http://127.0.0.1:PORT/oauth/callback`, once started. */
  redirectUrl(): string | undefined;
  /** Starts the server if needed; resolves with the redirect URL. */
  start(): Promise<string>;
  /** Expects one callback with `state`; replaces an earlier expectation for the same key. */
  expect(state: string, handler: CallbackHandler): void;
  /** Forgets an expected state. */
  forget(state: string): void;
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family: system-ui; margin: 3rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></body></html>`;

/** Creates the callback server (not started). */
export function createCallbackServer(): CallbackServer {
  const expected = new Map<string, CallbackHandler>();
  let server: Server | undefined;
  let url: string | undefined;
  let starting: Promise<string> | undefined;

  const handle = async (rawUrl: string): Promise<{ status: number; html: string }> => {
    const u = new URL(rawUrl, 'http://127.0.0.1');
    if (u.pathname !== CALLBACK_PATH) return { status: 404, html: page('Not found', 'This address only receives sign-in callbacks.') };
    const state = u.searchParams.get('state') ?? '';
    const handler = expected.get(state);
    if (!state || !handler) return { status: 400, html: page('Sign-in not recognised', 'This sign-in link is unknown or was already used. Start the sign-in again from the console.') };
    expected.delete(state);
    const error = u.searchParams.get('error');
    const outcome = await handler({
      code: u.searchParams.get('code') ?? undefined,
      iss: u.searchParams.get('iss') ?? undefined,
      error: error ? [error, u.searchParams.get('error_description')].filter(Boolean).join(': ') : undefined,
    });
    return outcome.ok ? { status: 200, html: page('Signed in', outcome.message) } : { status: 400, html: page('Sign-in failed', outcome.message) };
  };

  return {
    redirectUrl: () => url,
    start() {
      starting ??= new Promise<string>((resolve, reject) => {
        const s = createServer((req, res) => {
          if (req.method !== 'GET') {
            res.writeHead(405).end();
            return;
          }
          handle(req.url ?? '/').then(
            ({ status, html }) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html),
            () => res.writeHead(500).end(),
          );
        });
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => {
          server = s;
          url = `http://127.0.0.1:${(s.address() as AddressInfo).port}${CALLBACK_PATH}`;
          resolve(url);
        });
      });
      return starting;
    },
    expect: (state, handler) => void expected.set(state, handler),
    forget: (state) => void expected.delete(state),
    async close() {
      expected.clear();
      const s = server;
      server = undefined;
      url = undefined;
      starting = undefined;
      if (s) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
