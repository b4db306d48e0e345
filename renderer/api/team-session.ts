/**
 * The sign-in of a team server (`mcp-approval-console serve`, app/web/team-sign-in.ts) from the
 * page's side: whether the host this page came from asks people to sign in (and how they may),
 * signing in with a name and password, the team's admin token or single sign-on, and signing
 * out. Every state-changing call carries the CSRF token `/auth/session` gave. The loopback web
 * host and Electron have no `/auth/session` (404 or no fetch at all): the page starts as it
 * always did.
 *
 * Only shared/ and DOM: this file runs in the renderer.
 */

/** Path of the session state on a team server; must equal `AUTH_PATHS` in app/web/team-sign-in.ts. */
export const SESSION_PATH = '/auth/session';
/** Path of the sign-in on a team server. */
export const SIGN_IN_PATH = '/auth/sign-in';
/** Path of the sign-out on a team server. */
export const SIGN_OUT_PATH = '/auth/sign-out';
/** Path that starts an OpenID Connect sign-in. */
export const OIDC_START_PATH = '/auth/oidc/start';
/** The header carrying the CSRF token. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** What the page does at start: the console as usual, or the team server's sign-in first. */
export type SessionGate = 'console' | 'sign-in';

/** The sign-in methods a team server may offer. */
export type TeamSignInMethod = 'password' | 'admin_token' | 'oidc';

/** What `/auth/session` said: the gate, the methods offered, and the CSRF token (empty off a team server). */
export interface TeamSessionInfo {
  gate: SessionGate;
  methods: TeamSignInMethod[];
  csrfToken: string;
}

/** The part of `fetch` these functions use (injectable for tests). */
export type FetchLike = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string; credentials?: 'same-origin' }) => Promise<{ status: number; json(): Promise<unknown> }>;

const METHODS: readonly string[] = ['password', 'admin_token', 'oidc'];

/**
 * Asks the host whether a sign-in is needed: `sign-in` only when it is a team server that says
 * `{signedIn: false}`; `console` for every other answer (the loopback web host answers 404; a
 * team server that cannot be reached shows the console's own "Cannot reach" state).
 * @throws nothing
 */
export async function teamSession(fetchFn: FetchLike): Promise<TeamSessionInfo> {
  const none: TeamSessionInfo = { gate: 'console', methods: [], csrfToken: '' };
  try {
    const res = await fetchFn(SESSION_PATH, { credentials: 'same-origin' });
    if (res.status !== 200) return none;
    const body = (await res.json()) as { signedIn?: unknown; methods?: unknown; csrfToken?: unknown } | null;
    if (!body || typeof body !== 'object') return none;
    const methods = Array.isArray(body.methods) ? (body.methods.filter((m) => typeof m === 'string' && METHODS.includes(m)) as TeamSignInMethod[]) : [];
    const csrfToken = typeof body.csrfToken === 'string' ? body.csrfToken : '';
    return { gate: body.signedIn === false ? 'sign-in' : 'console', methods, csrfToken };
  } catch {
    return none;
  }
}

let teamServer = false;

/** Notes that this page came from a team server (its `/auth/session` offered sign-in methods). */
export function markTeamServer(): void {
  teamServer = true;
}

/** Whether this page came from a team server: only then is there a person to ask `whoAmI` about. */
export function isTeamServer(): boolean {
  return teamServer;
}

/** {@link teamSession}'s gate alone. @throws nothing */
export async function sessionGate(fetchFn: FetchLike): Promise<SessionGate> {
  return (await teamSession(fetchFn)).gate;
}

/** How a sign-in ended: `ok` (the session cookie is set), `wrong` credentials, `throttled` (wait `retryAfterS`), `unavailable` (the team database), or `failed` (anything else). */
export type SignInOutcome = { kind: 'ok' } | { kind: 'wrong' } | { kind: 'throttled'; retryAfterS: number } | { kind: 'unavailable' } | { kind: 'failed'; status: number };

/** What a person signs in with. */
export type SignInCredentials = { method: 'admin_token'; token: string } | { method: 'password'; name: string; password: string };

/** A POST of this page with the CSRF token (and a JSON body). */
function post(fetchFn: FetchLike, url: string, csrfToken: string, body?: unknown) {
  return fetchFn(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), [CSRF_HEADER]: csrfToken },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/**
 * Signs in: a JSON POST from this page (its Origin is the only one a team server takes) with the
 * CSRF token; the session comes back as an HttpOnly cookie the page never sees.
 * @throws nothing; a network failure is `failed` with status 0
 */
export async function signIn(fetchFn: FetchLike, credentials: SignInCredentials, csrfToken: string): Promise<SignInOutcome> {
  let res: Awaited<ReturnType<FetchLike>>;
  try {
    res = await post(fetchFn, SIGN_IN_PATH, csrfToken, credentials);
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

/** Signs in with the team's admin token ({@link signIn}). @throws nothing */
export function signInWithToken(fetchFn: FetchLike, token: string, csrfToken = ''): Promise<SignInOutcome> {
  return signIn(fetchFn, { method: 'admin_token', token }, csrfToken);
}

/**
 * Starts a single sign-on: the provider's URL to send the browser to, or the failure.
 * @throws nothing
 */
export async function startSingleSignOn(fetchFn: FetchLike, csrfToken: string): Promise<{ url: string } | { kind: 'failed'; status: number }> {
  try {
    const res = await post(fetchFn, OIDC_START_PATH, csrfToken);
    const body = res.status === 200 ? ((await res.json()) as { url?: unknown } | null) : null;
    return typeof body?.url === 'string' ? { url: body.url } : { kind: 'failed', status: res.status };
  } catch {
    return { kind: 'failed', status: 0 };
  }
}

/**
 * Signs out of a team server (the session ends on every instance). True once signed out.
 * @throws nothing
 */
export async function signOut(fetchFn: FetchLike): Promise<boolean> {
  const { csrfToken } = await teamSession(fetchFn);
  try {
    return (await post(fetchFn, SIGN_OUT_PATH, csrfToken)).status === 204;
  } catch {
    return false;
  }
}
