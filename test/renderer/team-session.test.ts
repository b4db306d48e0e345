/**
 * The page's side of a team server's sign-in: the sign-in is shown only when a team server says
 * nobody is signed in (never on the loopback web host, which has no /auth/session), and each
 * answer of the sign-in endpoint becomes the outcome the form words for the person.
 */
import { describe, expect, it } from 'vitest';
import { sessionGate, signIn, signInWithToken, signOut, startSingleSignOn, teamSession, type FetchLike } from '../../renderer/api/team-session.js';

/** A fetch that answers `status` with `body`, recording what it was asked. */
function answering(status: number, body?: unknown): FetchLike & { asked: { url: string; init?: Parameters<FetchLike>[1] }[] } {
  const asked: { url: string; init?: Parameters<FetchLike>[1] }[] = [];
  const fn = async (url: string, init?: Parameters<FetchLike>[1]) => {
    asked.push({ url, ...(init && { init }) });
    return { status, json: async () => (body === undefined ? Promise.reject(new SyntaxError('not JSON')) : body) };
  };
  return Object.assign(fn, { asked });
}

describe('sessionGate', () => {
  it('asks for a sign-in only when a team server says nobody is signed in', async () => {
    expect(await sessionGate(answering(200, { signedIn: false, methods: ['admin_token'] }))).toBe('sign-in');
    expect(await sessionGate(answering(200, { signedIn: true, methods: ['admin_token'], subject: 'admin' }))).toBe('console');
  });

  it('starts the console on the loopback web host (404, an HTML page, no network) as before', async () => {
    expect(await sessionGate(answering(404))).toBe('console');
    expect(await sessionGate(answering(200))).toBe('console'); // not JSON
    expect(await sessionGate(async () => Promise.reject(new TypeError('failed to fetch')))).toBe('console');
  });
});

describe('signInWithToken', () => {
  it('posts the token as JSON from the page and is ok on 204', async () => {
    const fetchFn = answering(204);
    expect(await signInWithToken(fetchFn, 'secret-token', 'csrf-token')).toEqual({ kind: 'ok' });
    expect(fetchFn.asked[0]).toMatchObject({ url: '/auth/sign-in', init: { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'csrf-token' } } });
    expect(JSON.parse(fetchFn.asked[0]!.init!.body!)).toEqual({ method: 'admin_token', token: 'secret-token' });
  });

  it('words each refusal: wrong token, too many tries (with the wait), database unreachable, anything else', async () => {
    expect(await signInWithToken(answering(401, { error: 'wrong_credentials' }), 'x')).toEqual({ kind: 'wrong' });
    expect(await signInWithToken(answering(429, { error: 'too_many_attempts', retryAfter: 42 }), 'x')).toEqual({ kind: 'throttled', retryAfterS: 42 });
    expect(await signInWithToken(answering(503, { error: 'unavailable' }), 'x')).toEqual({ kind: 'unavailable' });
    expect(await signInWithToken(answering(403, { error: 'origin' }), 'x')).toEqual({ kind: 'failed', status: 403 });
    expect(await signInWithToken(async () => Promise.reject(new TypeError('offline')), 'x')).toEqual({ kind: 'failed', status: 0 });
  });
});

describe('teamSession', () => {
  it('reads the methods offered and the CSRF token; off a team server there are none', async () => {
    expect(await teamSession(answering(200, { signedIn: false, methods: ['password', 'admin_token', 'oidc', 'magic'], csrfToken: 'tok' }))).toEqual({ gate: 'sign-in', methods: ['password', 'admin_token', 'oidc'], csrfToken: 'tok' });
    expect(await teamSession(answering(404))).toEqual({ gate: 'console', methods: [], csrfToken: '' });
  });
});

describe('signIn with a name and password, single sign-on, sign-out', () => {
  it('posts the name and password as JSON with the CSRF token; 401 is wrong', async () => {
    const fetchFn = answering(204);
    expect(await signIn(fetchFn, { method: 'password', name: 'ana', password: 'pw-pw-pw-pw-pw' }, 'tok')).toEqual({ kind: 'ok' });
    expect(fetchFn.asked[0]!.init!.headers).toEqual({ 'Content-Type': 'application/json', 'X-CSRF-Token': 'tok' });
    expect(JSON.parse(fetchFn.asked[0]!.init!.body!)).toEqual({ method: 'password', name: 'ana', password: 'pw-pw-pw-pw-pw' });
    expect(await signIn(answering(401), { method: 'password', name: 'ana', password: 'x' }, 'tok')).toEqual({ kind: 'wrong' });
  });

  it("starts single sign-on with the CSRF token and returns the provider's URL; a refusal is a failure", async () => {
    const fetchFn = answering(200, { url: 'https://idp.example/authorize?x=1' });
    expect(await startSingleSignOn(fetchFn, 'tok')).toEqual({ url: 'https://idp.example/authorize?x=1' });
    expect(fetchFn.asked[0]).toMatchObject({ url: '/auth/oidc/start', init: { method: 'POST', headers: { 'X-CSRF-Token': 'tok' } } });
    expect(await startSingleSignOn(answering(403, { error: 'csrf' }), 'tok')).toEqual({ kind: 'failed', status: 403 });
  });

  it('signs out with the CSRF token the session answer gives', async () => {
    const asked: { url: string; init?: Parameters<FetchLike>[1] }[] = [];
    const fetchFn: FetchLike = async (url, init) => {
      asked.push({ url, ...(init && { init }) });
      return url === '/auth/session' ? { status: 200, json: async () => ({ signedIn: true, methods: ['password'], csrfToken: 'fresh' }) } : { status: 204, json: async () => null };
    };
    expect(await signOut(fetchFn)).toBe(true);
    expect(asked[1]).toMatchObject({ url: '/auth/sign-out', init: { method: 'POST', headers: { 'X-CSRF-Token': 'fresh' } } });
  });
});
