/** HTTP as a team server's page speaks it, for tests: requests, cookies, the CSRF token, signing in. */
import http from 'node:http';
import https from 'node:https';

/** An HTTP answer. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP(S) request to `url`. */
export function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {}): Promise<Answer> {
  const u = new URL(url);
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(u, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, ...(opts.ca && { ca: opts.ca }) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The `name=value` pairs of an answer's `Set-Cookie` headers, by name. */
export function setCookies(a: Answer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of a.headers['set-cookie'] ?? []) {
    const pair = line.split(';')[0]!;
    const at = pair.indexOf('=');
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** The CSRF cookie pair and token a page gets from `/auth/session` at `base` (the address requests go to). */
export async function csrfOf(base: string, headers: Record<string, string> = {}): Promise<{ cookie: string; token: string }> {
  const session = await request(`${base}/auth/session`, { headers });
  const [name, value] = Object.entries(setCookies(session))[0]!;
  return { cookie: `${name}=${value}`, token: (JSON.parse(session.body) as { csrfToken: string }).csrfToken };
}

/** A sign-in POST from the page of `origin` with the CSRF token, as the page sends it; `cookie` adds cookies the browser holds. */
export async function postSignIn(base: string, origin: string, body: unknown, opts: { cookie?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const csrf = await csrfOf(base, opts.headers);
  return request(`${base}/auth/sign-in`, {
    method: 'POST',
    headers: { ...opts.headers, origin, 'content-type': 'application/json', cookie: [csrf.cookie, opts.cookie].filter(Boolean).join('; '), 'x-csrf-token': csrf.token },
    body: JSON.stringify(body),
  });
}
