/**
 * OpenID Connect sign-in of a team server, through `openid-client`: the authorization code flow
 * with PKCE (S256), `state` and `nonce`. {@link OidcClient.start} makes the provider's
 * authorization URL and the checks the browser keeps (in a short-lived cookie) until the provider
 * sends it back to the redirect URL; {@link OidcClient.finish} exchanges the code, verifies the ID
 * token (issuer, audience, signature, nonce) and returns who the provider vouched for. Who may
 * then sign in is decided by auth.ts (registered people only).
 *
 * The provider's metadata is discovered at the first sign-in (and again after a failure), so an
 * instance starts while the provider is unreachable.
 */
import * as client from 'openid-client';
import type { OidcIdentity } from './auth.js';

/** How a team server talks to its OpenID provider (`serve --oidc-issuer …`). */
export interface OidcSettings {
  /** The issuer URL (`https://accounts.example.com`, its `/.well-known/openid-configuration` is read). */
  issuer: string;
  clientId: string;
  /** The client secret (`MCP_CONSOLE_OIDC_CLIENT_SECRET`); absent: a public client (PKCE only). */
  clientSecret?: string;
  /** Where the provider sends the browser back: `<public address>/auth/oidc/callback` (the host's, when absent). */
  redirectUri?: string;
  /** Scopes asked, default `openid email profile`. */
  scope?: string;
  /** Match a first sign-in to a person by the identity's email or preferred username (a person an admin added with that name). */
  matchBy?: 'email' | 'preferred_username';
}

/** What the browser keeps between the start and the callback (never shown to the provider but as `state` and challenges). */
export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The client of one OpenID provider. */
export interface OidcClient {
  readonly settings: OidcSettings;
  /**
   * The provider's authorization URL for a new sign-in that comes back to `redirectUri` (unless the settings name one), and the checks to keep.
   * @throws Error when the provider's metadata cannot be discovered
   */
  start(redirectUri: string): Promise<{ url: string; checks: OidcChecks }>;
  /**
   * Finishes a sign-in from the URL the provider redirected the browser to.
   * @throws Error when the provider answered with an error, the state or nonce do not match, the
   *   code exchange failed or the ID token is not valid
   */
  finish(callbackUrl: URL, checks: OidcChecks): Promise<OidcIdentity>;
}

/** Whether `url` is on this machine (plain http is then allowed for the provider: tests and development). */
const isLoopback = (url: URL) => url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/** An OpenID Connect client for `settings`. */
export function oidcClient(settings: OidcSettings): OidcClient {
  let config: Promise<client.Configuration> | undefined;
  const configuration = () => {
    const issuer = new URL(settings.issuer);
    config ??= client
      .discovery(issuer, settings.clientId, settings.clientSecret, undefined, isLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : undefined)
      .catch((err: unknown) => {
        config = undefined; // discovered again at the next sign-in
        throw err;
      });
    return config;
  };
  return {
    settings,
    async start(redirectUri) {
      const cfg = await configuration();
      const checks: OidcChecks = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: settings.redirectUri ?? redirectUri,
        scope: settings.scope ?? 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      });
      return { url: url.href, checks };
    },
    async finish(callbackUrl, checks) {
      const cfg = await configuration();
      const tokens = await client.authorizationCodeGrant(cfg, callbackUrl, { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true });
      const claims = tokens.claims();
      if (!claims) throw new Error('the provider sent no ID token');
      const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);
      let more: Record<string, unknown> = claims;
      // Many providers put email and username only in the UserInfo answer; ask it when a match needs them.
      if (settings.matchBy && str(claims[settings.matchBy]) === undefined && cfg.serverMetadata().userinfo_endpoint) {
        more = await client.fetchUserInfo(cfg, tokens.access_token, claims.sub);
      }
      const email = more.email_verified === false ? undefined : str(more.email);
      const preferredUsername = str(more.preferred_username);
      return { issuer: claims.iss, subject: claims.sub, ...(email && { email }), ...(preferredUsername && { preferredUsername }) };
    },
  };
}
