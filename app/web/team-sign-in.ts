/**
 * The sign-in of a team server's web UI over HTTP (the host: team-host.ts; who may sign in:
 * main/team/auth.ts):
 *
 * - `GET /auth/session`: `{signedIn, methods, subject?}` for the page to show the sign-in screen or the console;
 * - `POST /auth/sign-in` (JSON `{"method": "admin_token", "token": "…"}`): 204 with the session
 *   cookie, 401 for wrong credentials, 429 (with `Retry-After`) after too many failures from one
 *   address;
 * - `POST /auth/sign-out`: ends the session, clears the cookie, 204.
 *
 * The cookie is `HttpOnly`, `SameSite=Strict`, `Path=/`, and `Secure` with the `__Host-` prefix
 * when the public address is https. State-changing calls (sign-in, sign-out) need the page's own
 * `Origin` and a JSON body (which a cross-site form cannot send without a preflight); the UI's
 * WebSocket checks the same Origin (cross-site WebSocket hijacking).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { parseCookie, stringifySetCookie } from 'cookie';
import { z } from 'zod';
import { readBody } from '../../main/http/loopback.js';
import { HistoryUnavailableError } from '../../main/store/history-api.js';
import type { TeamAuth } from '../../main/team/auth.js';

/** The session cookie's name on a plain-HTTP (loopback) address. */
export const SESSION_COOKIE = 'mcp-console-session';
/** The session cookie's name on an https address (`__Host-`: Secure, Path=/, no Domain, as browsers enforce). */
export const SECURE_SESSION_COOKIE = '__Host-mcp-console-session';
/** Paths of the sign-in endpoints. */
export const AUTH_PATHS = { session: '/auth/session', signIn: '/auth/sign-in', signOut: '/auth/sign-out' } as const;
/** Failed sign-ins allowed from one address within {@link SIGN_IN_WINDOW_MS}. */
export const SIGN_IN_ATTEMPTS = 10;
/** The window failed sign-ins are counted in, in ms. */
export const SIGN_IN_WINDOW_MS = 5 * 60 * 1000;
/** Largest sign-in body, in bytes. */
const SIGN_IN_BODY_BYTES = 4096;

const SignInSchema = z.object({ method: z.literal('admin_token').default('admin_token'), token: z.string().min(1).max(512) }).strict();

/** The cookie name for a public address that is https (`secure`) or not. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The `Set-Cookie` value of a session `id` that lasts `maxAgeS` seconds. */
export function sessionCookie(id: string, secure: boolean, maxAgeS: number): string {
  return stringifySetCookie({ name: sessionCookieName(secure), value: id, httpOnly: true, secure, sameSite: 'strict', path: '/', maxAge: Math.max(0, Math.floor(maxAgeS)) });
}

/** The session id the request's `Cookie` header carries, if any. */
export function sessionIdOf(req: IncomingMessage, secure: boolean): string | undefined {
  const header = req.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  return parseCookie(header)[sessionCookieName(secure)] || undefined;
}

/** Counts failed sign-ins per client address; a success forgets them. */
export interface AttemptLimiter {
  /** Seconds to wait before `key` may try again, or 0. */
  retryAfter(key: string): number;
  failed(key: string): void;
  succeeded(key: string): void;
}

/** A limiter of {@link SIGN_IN_ATTEMPTS} failures per {@link SIGN_IN_WINDOW_MS} (per instance). */
export function attemptLimiter(now: () => number = Date.now, max = SIGN_IN_ATTEMPTS, windowMs = SIGN_IN_WINDOW_MS): AttemptLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string) => (failures.get(key) ?? []).filter((t) => t > now() - windowMs);
  return {
    retryAfter(key) {
      const list = recent(key);
      if (list.length === 0) failures.delete(key);
      else failures.set(key, list);
      return list.length >= max ? Math.ceil((list[0]! + windowMs - now()) / 1000) : 0;
    },
    failed(key) {
      if (failures.size > 10_000) failures.clear(); // a flood of addresses does not grow memory without bound
      failures.set(key, [...recent(key), now()]);
    },
    succeeded: (key) => void failures.delete(key),
  };
}

/** What the endpoints need from their host. */
export interface SignInContext {
  auth: TeamAuth;
  /** The public address's origin: the only `Origin` state-changing calls are taken from. */
  origin: string;
  /** Whether the public address is https (the cookie is then Secure). */
  secure: boolean;
  limiter: AttemptLimiter;
  /** The client's address (behind a proxy: the one the proxy names). */
  clientOf(req: IncomingMessage): string;
  /** Headers every response carries. */
  headers: Record<string, string>;
}

/** Whether `path` is one of the sign-in endpoints. */
export function isAuthPath(path: string): boolean {
  return path === AUTH_PATHS.session || path === AUTH_PATHS.signIn || path === AUTH_PATHS.signOut;
}

/**
 * Answers one request to a sign-in endpoint (see the module's comment).
 * @throws nothing of the database: while it cannot be reached the answer is 503
 */
export async function handleSignIn(ctx: SignInContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    if (path === AUTH_PATHS.session) return await sessionState(ctx, req, res);
    if (req.method !== 'POST') return json(ctx, res, 405, { error: 'method_not_allowed' }, { Allow: 'POST' });
    if (req.headers.origin !== ctx.origin) return json(ctx, res, 403, { error: 'origin', message: `only pages of ${ctx.origin} may sign in or out` });
    if (path === AUTH_PATHS.signOut) return await signOut(ctx, req, res);
    await signIn(ctx, req, res);
  } catch (err) {
    if (!(err instanceof HistoryUnavailableError)) throw err;
    json(ctx, res, 503, { error: 'unavailable', message: "the console's team database cannot be reached; try again shortly" }, { 'Retry-After': '2' });
  }
}

async function sessionState(ctx: SignInContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return json(ctx, res, 405, { error: 'method_not_allowed' }, { Allow: 'GET, HEAD' });
  const id = sessionIdOf(req, ctx.secure);
  const principal = id ? await ctx.auth.session(id) : undefined;
  json(ctx, res, 200, { signedIn: principal !== undefined, methods: ctx.auth.methods, ...(principal && { subject: principal.subject, role: principal.role }) });
}

async function signIn(ctx: SignInContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return json(ctx, res, 415, { error: 'content_type', message: 'send the credentials as application/json' });
  const client = ctx.clientOf(req);
  const wait = ctx.limiter.retryAfter(client);
  if (wait > 0) {
    req.resume();
    return json(ctx, res, 429, { error: 'too_many_attempts', retryAfter: wait }, { 'Retry-After': String(wait) });
  }
  const body = await readBody(req, SIGN_IN_BODY_BYTES);
  let parsed: z.infer<typeof SignInSchema> | undefined;
  try {
    parsed = body === 'too_large' ? undefined : SignInSchema.parse(JSON.parse(body.toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (!parsed) return json(ctx, res, 400, { error: 'invalid_input', message: 'expected {"token": "…"}' });
  const signedIn = await ctx.auth.signIn(parsed);
  if (!signedIn) {
    ctx.limiter.failed(client);
    return json(ctx, res, 401, { error: 'wrong_credentials' });
  }
  ctx.limiter.succeeded(client);
  res.writeHead(204, { ...ctx.headers, 'Cache-Control': 'no-store', 'Set-Cookie': sessionCookie(signedIn.sessionId, ctx.secure, (signedIn.expiresAt - Date.now()) / 1000) });
  res.end();
}

async function signOut(ctx: SignInContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  const id = sessionIdOf(req, ctx.secure);
  if (id) await ctx.auth.signOut(id);
  res.writeHead(204, { ...ctx.headers, 'Cache-Control': 'no-store', 'Set-Cookie': sessionCookie('', ctx.secure, 0) });
  res.end();
}

function json(ctx: SignInContext, res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...ctx.headers, ...extra, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * The client's address: behind a trusted proxy the last `X-Forwarded-For` entry (the address the
 * proxy saw), else the socket's.
 */
export function clientAddress(req: IncomingMessage, behindProxy: boolean): string {
  const own = req.socket.remoteAddress ?? 'unknown';
  if (!behindProxy) return own;
  const forwarded = req.headers['x-forwarded-for'];
  const last = (Array.isArray(forwarded) ? forwarded.at(-1) : forwarded)?.split(',').at(-1)?.trim();
  return last && isIP(last) ? last : own;
}
