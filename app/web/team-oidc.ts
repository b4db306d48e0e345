/**
 * OpenID Connect sign-in over HTTP (the protocol: main/team/oidc.ts; who may sign in:
 * main/team/auth.ts; the rest of the sign-in: team-sign-in.ts):
 *
 * - `POST /auth/oidc/start` (the page's Origin and CSRF token, as every state-changing call):
 *   `{url}`, the provider's authorization URL; the sign-in's state, nonce and PKCE verifier go in
 *   a cookie (`HttpOnly`, `SameSite=Lax` so that it comes back with the provider's redirect,
 *   10 minutes, `__Host-` on https) — any instance can finish the sign-in;
 * - `GET /auth/oidc/callback`: the provider's redirect. The code is exchanged and the ID token
 *   checked; a registered person gets a new session (the one the browser brought ends) and goes to
 *   `/`; anything else goes to `/?signIn=<reason>` (`oidc_failed`, `oidc_unknown`) with no session.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringifySetCookie } from 'cookie';
import { z } from 'zod';
import type { OidcChecks } from '../../main/team/oidc.js';
import { AUTH_PATHS, cookieOf, csrfOk, json, startSession, type SignInContext } from './team-sign-in.js';

/** The cookie holding a sign-in's checks on a plain-HTTP (loopback) address. */
export const OIDC_COOKIE = 'mcp-console-oidc';
/** Its name on an https address. */
export const SECURE_OIDC_COOKIE = '__Host-mcp-console-oidc';
/** How long a sign-in at the provider may take, in seconds. */
export const OIDC_START_MAX_AGE_S = 600;

const ChecksSchema = z.object({ state: z.string().min(1).max(200), nonce: z.string().min(1).max(200), codeVerifier: z.string().min(43).max(128) }).strict();

/** Whether `path` is one of the OpenID Connect endpoints. */
export function isOidcPath(path: string): boolean {
  return path === AUTH_PATHS.oidcStart || path === AUTH_PATHS.oidcCallback;
}

const cookieName = (secure: boolean) => (secure ? SECURE_OIDC_COOKIE : OIDC_COOKIE);
const checksCookie = (value: string, secure: boolean, maxAgeS: number) =>
  stringifySetCookie({ name: cookieName(secure), value, httpOnly: true, secure, sameSite: 'lax', path: '/', maxAge: maxAgeS });

/**
 * Answers one request to an OpenID Connect endpoint (see the module's comment); 404 when OpenID
 * Connect is not configured.
 * @throws HistoryUnavailableError when the database cannot be reached (the caller answers 503)
 */
export async function handleOidc(ctx: SignInContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (!ctx.oidc) return json(ctx, res, 404, { error: 'not_found', message: 'OpenID Connect is not configured on this server' });
  if (path === AUTH_PATHS.oidcStart) return start(ctx, req, res);
  if (req.method !== 'GET') return json(ctx, res, 405, { error: 'method_not_allowed' }, { Allow: 'GET' });
  await callback(ctx, req, res);
}

async function start(ctx: SignInContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  if (req.method !== 'POST') return json(ctx, res, 405, { error: 'method_not_allowed' }, { Allow: 'POST' });
  if (req.headers.origin !== ctx.origin) return json(ctx, res, 403, { error: 'origin', message: `only pages of ${ctx.origin} may sign in` });
  if (!csrfOk(req, ctx.secure)) return json(ctx, res, 403, { error: 'csrf', message: 'the CSRF token is missing or wrong: reload the page' });
  let started: Awaited<ReturnType<NonNullable<SignInContext['oidc']>['start']>>;
  try {
    started = await ctx.oidc!.start(`${ctx.origin}${AUTH_PATHS.oidcCallback}`);
  } catch {
    return json(ctx, res, 502, { error: 'oidc_unavailable', message: 'the OpenID provider cannot be reached' });
  }
  const value = Buffer.from(JSON.stringify(started.checks)).toString('base64url');
  json(ctx, res, 200, { url: started.url }, { 'Set-Cookie': checksCookie(value, ctx.secure, OIDC_START_MAX_AGE_S) });
}

/** The checks the browser brought back, or undefined. */
function checksOf(req: IncomingMessage, secure: boolean): OidcChecks | undefined {
  const raw = cookieOf(req, cookieName(secure));
  if (!raw || raw.length > 2000) return undefined;
  try {
    return ChecksSchema.parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch {
    return undefined;
  }
}

async function callback(ctx: SignInContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const clear = checksCookie('', ctx.secure, 0);
  const back = (to: string, cookies: string[]) => {
    res.writeHead(303, { ...ctx.headers, Location: to, 'Cache-Control': 'no-store', 'Set-Cookie': cookies });
    res.end();
  };
  const checks = checksOf(req, ctx.secure);
  if (!checks) return back('/?signIn=oidc_failed', [clear]);
  let identity;
  try {
    // The callback URL as the provider was told it (the public address), with the provider's parameters.
    const redirect = ctx.oidc!.settings.redirectUri ?? `${ctx.origin}${AUTH_PATHS.oidcCallback}`;
    identity = await ctx.oidc!.finish(new URL(`${redirect}${(req.url ?? '').slice(AUTH_PATHS.oidcCallback.length)}`), checks);
  } catch {
    return back('/?signIn=oidc_failed', [clear]);
  }
  const signedIn = await ctx.auth.signInOidc(identity, { address: ctx.clientOf(req) });
  if (!signedIn) return back('/?signIn=oidc_unknown', [clear]);
  back('/', [clear, await startSession(ctx, req, signedIn)]);
}
