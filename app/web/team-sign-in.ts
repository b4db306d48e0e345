/**
 * The sign-in of a team server's web UI over HTTP (the host: team-host.ts; who may sign in:
 * main/team/auth.ts):
 *
 * - `GET /auth/session`: `{signedIn, methods, csrfToken, subject?, name?, role?}` for the page to
 *   show the sign-in screen or the console; sets the CSRF cookie when the browser has none;
 * - `POST /auth/sign-in` (JSON `{"method": "password", "name": "…", "password": "…"}` or
 *   `{"method": "admin_token", "token": "…"}`): 204 with a new session cookie, 401 for wrong
 *   credentials, 429 (with `Retry-After`) after too many failures from one address or for one name;
 * - `POST /auth/sign-out`: ends the session, clears the cookie, 204;
 * - `POST /auth/oidc/start` (OpenID Connect configured): `{url}`, the provider's authorization
 *   URL, with the sign-in's checks in a short-lived cookie; `GET /auth/oidc/callback`: where the
 *   provider sends the browser back (team-oidc.ts).
 *
 * The session cookie is `HttpOnly`, `SameSite=Strict`, `Path=/`, and `Secure` with the `__Host-`
 * prefix when the public address is https; every sign-in makes a new session id and ends the one
 * the browser brought (session fixation). State-changing calls (sign-in, sign-out, OIDC start)
 * need the page's own `Origin`, a JSON body (sign-in) and the CSRF token as `X-CSRF-Token`: the
 * value of the HttpOnly CSRF cookie, which the page learns only from `/auth/session`
 * (double submit; another site can neither read it nor set the header). The UI's WebSocket checks
 * the same Origin (cross-site WebSocket hijacking).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { parseCookie, stringifySetCookie } from 'cookie';
import { z } from 'zod';
import { readBody } from '../../main/http/loopback.js';
import { HistoryUnavailableError } from '../../main/store/history-api.js';
import type { Credentials, TeamAuth } from '../../main/team/auth.js';
import type { OidcClient } from '../../main/team/oidc.js';

/** The session cookie's name on a plain-HTTP (loopback) address. */
export const SESSION_COOKIE = 'mcp-console-session';
/** The session cookie's name on an https address (`__Host-`: Secure, Path=/, no Domain, as browsers enforce). */
export const SECURE_SESSION_COOKIE = '__Host-mcp-console-session';
/** The CSRF cookie's name on a plain-HTTP (loopback) address. */
export const CSRF_COOKIE = 'mcp-console-csrf';
/** The CSRF cookie's name on an https address. */
export const SECURE_CSRF_COOKIE = '__Host-mcp-console-csrf';
/** The header state-changing calls carry the CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';
/** Paths of the sign-in endpoints. */
export const AUTH_PATHS = { session: '/auth/session', signIn: '/auth/sign-in', signOut: '/auth/sign-out', oidcStart: '/auth/oidc/start', oidcCallback: '/auth/oidc/callback' } as const;
/** Failed sign-ins allowed from one address, and for one name, within {@link SIGN_IN_WINDOW_MS}. */
export const SIGN_IN_ATTEMPTS = 10;
/** The window failed sign-ins are counted in, in ms. */
export const SIGN_IN_WINDOW_MS = 5 * 60 * 1000;
/** Largest sign-in body, in bytes. */
const SIGN_IN_BODY_BYTES = 4096;

const SignInSchema = z.union([
  z.object({ method: z.literal('admin_token').default('admin_token'), token: z.string().min(1).max(512) }).strict(),
  z.object({ method: z.literal('password'), name: z.string().trim().min(1).max(200), password: z.string().min(1).max(1024) }).strict(),
]);

/** The cookie name for a public address that is https (`secure`) or not. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The `Set-Cookie` value of a session `id` that lasts `maxAgeS` seconds. */
export function sessionCookie(id: string, secure: boolean, maxAgeS: number): string {
  return stringifySetCookie({ name: sessionCookieName(secure), value: id, httpOnly: true, secure, sameSite: 'strict', path: '/', maxAge: Math.max(0, Math.floor(maxAgeS)) });
}

/** The value of cookie `name` in the request's `Cookie` header, if any. */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  return parseCookie(header)[name] || undefined;
}

/** The session id the request's `Cookie` header carries, if any. */
export function sessionIdOf(req: IncomingMessage, secure: boolean): string | undefined {
  return cookieOf(req, sessionCookieName(secure));
}

/** The CSRF cookie's name for a public address that is https (`secure`) or not. */
export function csrfCookieName(secure: boolean): string {
  return secure ? SECURE_CSRF_COOKIE : CSRF_COOKIE;
}

/** Whether the request's `X-CSRF-Token` header equals its CSRF cookie (compared in constant time). */
export function csrfOk(req: IncomingMessage, secure: boolean): boolean {
  const cookie = cookieOf(req, csrfCookieName(secure));
  const header = req.headers[CSRF_HEADER];
  if (!cookie || typeof header !== 'string' || cookie.length !== header.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(header));
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
  /** OpenID Connect, when configured. */
  oidc?: OidcClient;
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
    if (!csrfOk(req, ctx.secure)) {
      req.resume();
      return json(ctx, res, 403, { error: 'csrf', message: 'the CSRF token is missing or wrong: reload the page' });
    }
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
  const had = cookieOf(req, csrfCookieName(ctx.secure));
  const csrfToken = had && had.length === 43 ? had : randomBytes(32).toString('base64url');
  const setCsrf: Record<string, string> = csrfToken === had ? {} : { 'Set-Cookie': csrfCookie(csrfToken, ctx.secure) };
  json(ctx, res, 200, { signedIn: principal !== undefined, methods: ctx.auth.methods, csrfToken, ...(principal && { subject: principal.subject, name: principal.name, role: principal.role }) }, setCsrf);
}

/** The `Set-Cookie` value of the CSRF cookie (for the browser session; HttpOnly: the page reads the token from `/auth/session`). */
function csrfCookie(token: string, secure: boolean): string {
  return stringifySetCookie({ name: csrfCookieName(secure), value: token, httpOnly: true, secure, sameSite: 'strict', path: '/' });
}

/** Sets the new session's cookie, ending the session the browser brought (a session id is never carried across a sign-in). */
export async function startSession(ctx: SignInContext, req: IncomingMessage, signedIn: { sessionId: string; expiresAt: number }): Promise<string> {
  const brought = sessionIdOf(req, ctx.secure);
  if (brought && brought !== signedIn.sessionId) await ctx.auth.signOut(brought);
  return sessionCookie(signedIn.sessionId, ctx.secure, (signedIn.expiresAt - Date.now()) / 1000);
}

async function signIn(ctx: SignInContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return json(ctx, res, 415, { error: 'content_type', message: 'send the credentials as application/json' });
  const client = ctx.clientOf(req);
  const waitClient = ctx.limiter.retryAfter(client);
  if (waitClient > 0) {
    req.resume();
    return tooMany(ctx, res, waitClient);
  }
  const body = await readBody(req, SIGN_IN_BODY_BYTES);
  let parsed: Credentials | undefined;
  try {
    parsed = body === 'too_large' ? undefined : SignInSchema.parse(JSON.parse(body.toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (!parsed) return json(ctx, res, 400, { error: 'invalid_input', message: 'expected {"method": "password", "name": "…", "password": "…"} or {"method": "admin_token", "token": "…"}' });
  // A name is limited too, so guessing one person's password from many addresses is slowed as well.
  const nameKey = parsed.method === 'password' ? `name:${parsed.name.toLowerCase()}` : undefined;
  const waitName = nameKey ? ctx.limiter.retryAfter(nameKey) : 0;
  if (waitName > 0) return tooMany(ctx, res, waitName);
  const signedIn = await ctx.auth.signIn(parsed, { address: client });
  if (!signedIn) {
    ctx.limiter.failed(client);
    if (nameKey) ctx.limiter.failed(nameKey);
    return json(ctx, res, 401, { error: 'wrong_credentials' });
  }
  ctx.limiter.succeeded(client);
  if (nameKey) ctx.limiter.succeeded(nameKey);
  res.writeHead(204, { ...ctx.headers, 'Cache-Control': 'no-store', 'Set-Cookie': await startSession(ctx, req, signedIn) });
  res.end();
}

function tooMany(ctx: SignInContext, res: ServerResponse, wait: number): void {
  json(ctx, res, 429, { error: 'too_many_attempts', retryAfter: wait }, { 'Retry-After': String(wait) });
}

async function signOut(ctx: SignInContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  const id = sessionIdOf(req, ctx.secure);
  if (id) await ctx.auth.signOut(id, { address: ctx.clientOf(req) });
  res.writeHead(204, { ...ctx.headers, 'Cache-Control': 'no-store', 'Set-Cookie': sessionCookie('', ctx.secure, 0) });
  res.end();
}

/** Answers with a JSON body. */
export function json(ctx: SignInContext, res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
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
