/**
 * The sign-in of a team server (`mcp-approval-console serve`, app/web/team-sign-in.ts) from the
 * page's side: whether the host this page came from asks people to sign in, and signing in with
 * the team's admin token. The loopback web host and Electron have no `/auth/session` (404 or no
 * fetch at all): the page starts as it always did.
 *
 * Only shared/ and DOM: this file runs in the renderer.
 */

/** Path of the session state on a team server; must equal `AUTH_PATHS` in app/web/team-sign-in.ts. */
export const SESSION_PATH = '/auth/session';
/** Path of the sign-in on a team server. */
export const SIGN_IN_PATH = '/auth/sign-in';

/** What the page does at start: the console as usual, or the team server's sign-in first. */
export type SessionGate = 'console' | 'sign-in';

/** The part of `fetch` these functions use (injectable for tests). */
export type FetchLike = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string; credentials?: 'same-origin' }) => Promise<{ status: number; json(): Promise<unknown> }>;

/**
 * Asks the host whether a sign-in is needed: `sign-in` only when it is a team server that says
 * `{signedIn: false}`; `console` for every other answer (the loopback web host answers 404; a
 * team server that cannot be reached shows the console's own "Cannot reach" state).
 * @throws nothing
 */
export async function sessionGate(fetchFn: FetchLike): Promise<SessionGate> {
  try {
    const res = await fetchFn(SESSION_PATH, { credentials: 'same-origin' });
    if (res.status !== 200) return 'console';
    const body = (await res.json()) as { signedIn?: unknown } | null;
    return body && typeof body === 'object' && body.signedIn === false ? 'sign-in' : 'console';
  } catch {
    return 'console';
  }
}

/** How a sign-in ended: `ok` (the session cookie is set), `wrong` token, `throttled` (wait `retryAfterS`), `unavailable` (the team database), or `failed` (anything else). */
export type SignInOutcome = { kind: 'ok' } | { kind: 'wrong' } | { kind: 'throttled'; retryAfterS: number } | { kind: 'unavailable' } | { kind: 'failed'; status: number };

/**
 * Signs in with the admin token: a JSON POST from this page (its Origin is the only one a team
 * server takes); the session comes back as an HttpOnly cookie the page never sees.
 * @throws nothing; a network failure is `failed` with status 0
 */
export async function signInWithToken(fetchFn: FetchLike, token: string): Promise<SignInOutcome> {
  let res: Awaited<ReturnType<FetchLike>>;
  try {
    res = await fetchFn(SIGN_IN_PATH, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ method: 'admin_token', token }) });
  } catch {
    return { kind: 'failed', status: 0 };
  }
  if (res.status === 204) return { kind: 'ok' };
  if (res.status === 401 || res.status === 400) return { kind: 'wrong' };
  if (res.status === 503) return { kind: 'unavailable' };
  if (res.status === 429) {
    const body = (await res.json().catch(() => null)) as { retryAfter?: unknown } | null;
    const wait = typeof body?.retryAfter === 'number' && body.retryAfter > 0 ? Math.ceil(body.retryAfter) : 60;
    return { kind: 'throttled', retryAfterS: wait };
  }
  return { kind: 'failed', status: res.status };
}
