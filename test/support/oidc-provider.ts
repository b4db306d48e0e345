/**
 * A real OpenID provider (`oidc-provider`) on loopback for the tests, with its development login
 * form (any name signs in: the account id is the name typed) and a browser-like walk through it
 * over plain HTTP: redirects followed, cookies kept, forms filled and posted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { request, type Answer } from './team-http.js';

/** A running provider. */
export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

/**
 * Starts a provider with one confidential client `console` (secret `console-secret`) whose
 * redirect URL is `redirectUri`; accounts say `email` `<id>@example.com` and `preferred_username` `<id>`.
 */
export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: 'console', client_secret: 'console-secret', redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, email: `${id}@example.com`, email_verified: true, preferred_username: id }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
  });
  provider.on('server_error', () => undefined);
  server.on('request', provider.callback());
  return { issuer, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/** The inputs of the first form of an HTML page, and where it posts. */
function formOf(html: string, base: string): { action: string; fields: Record<string, string> } | undefined {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
  }
  return { action: new URL(form[1]!, base).href, fields };
}

/**
 * Walks a browser from `authorizationUrl` through the provider's login (as `login`) and consent
 * until the provider redirects to a URL starting with `stopAt`; returns that URL (not fetched).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, stopAt: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (a: Answer) => {
    for (const line of a.headers['set-cookie'] ?? []) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = authorizationUrl;
  let post: string | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(stopAt)) return url;
    const answer = await request(url, post === undefined ? { headers: { cookie: cookie() } } : { method: 'POST', headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' }, body: post });
    keep(answer);
    post = undefined;
    if (answer.status >= 300 && answer.status < 400) {
      url = new URL(String(answer.headers.location), url).href;
      continue;
    }
    const form = answer.status === 200 ? formOf(answer.body, url) : undefined;
    if (!form) throw new Error(`the provider answered ${answer.status} at ${url}: ${answer.body.slice(0, 300)}`);
    if ('login' in form.fields) Object.assign(form.fields, { login, password: 'any' });
    url = form.action;
    post = new URLSearchParams(form.fields).toString();
  }
  throw new Error('the provider did not redirect back');
}
