/**
 * The SDK's `OAuthClientProvider` for one HTTP server, backed by the secret store: the client
 * registration (dynamic client registration, RFC 7591) and the tokens are kept there as JSON under
 * `oauth:<key>:client` / `oauth:<key>:tokens`, where `<key>` is a hash of the server's name and
 * URL (a changed URL is another resource: its tokens are not reused). The PKCE verifier, the
 * discovery state and the OAuth `state` live in memory for the one sign-in they belong to.
 *
 * The redirect goes to the console's loopback callback (127.0.0.1, any port: RFC 8252 §7.3 has the
 * authorization server accept any port for loopback redirects, so a registration outlives a
 * restart). Tokens are never logged and never put in state.
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { SecretStore } from '../../secrets/secret-store.js';

/** What the provider reports to the OAuth service. */
export interface ProviderEvents {
  /** The SDK wants the person to authorize at `url` (interactive sign-in, or tokens that no longer refresh). */
  onAuthorizationUrl(url: URL, state: string | undefined): void;
  /** Tokens were saved or dropped. */
  onTokensChanged(): void;
}

/** Secret-store names of one server's OAuth data. */
export function oauthSecretNames(serverId: string, serverUrl: string): { tokens: string; client: string } {
  const key = createHash('sha256').update(`${serverId}\n${serverUrl}`).digest('hex').slice(0, 24);
  return { tokens: `oauth:${key}:tokens`, client: `oauth:${key}:client` };
}

/** Stored tokens with when they were saved (to tell when the access token expires). */
interface SavedTokens {
  tokens: StoredOAuthTokens;
  savedAt: number;
}

/** An OAuthClientProvider for one server. */
export class ConsoleOAuthProvider implements OAuthClientProvider {
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;
  private expectedState?: string;
  private cache?: { tokens?: SavedTokens; client?: StoredOAuthClientInformation };
  private readonly names: { tokens: string; client: string };

  constructor(
    readonly serverId: string,
    readonly serverUrl: string,
    private readonly deps: { secrets: SecretStore; redirectUrl(): string | undefined; events: ProviderEvents; now(): number },
  ) {
    this.names = oauthSecretNames(serverId, serverUrl);
  }

  get redirectUrl(): string | undefined {
    return this.deps.redirectUrl();
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.deps.redirectUrl();
    return {
      client_name: 'MCP Approval Console',
      redirect_uris: redirect ? [redirect] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** A fresh random `state` for each authorization request; the callback must bring it back. */
  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  /** The state the current authorization request carries. */
  currentState(): string | undefined {
    return this.expectedState;
  }

  private async load(): Promise<NonNullable<ConsoleOAuthProvider['cache']>> {
    if (this.cache) return this.cache;
    const [tokens, client] = await Promise.all([this.deps.secrets.get(this.names.tokens), this.deps.secrets.get(this.names.client)]);
    const parse = <T>(text: string | undefined): T | undefined => {
      if (!text) return undefined;
      try {
        return JSON.parse(text) as T;
      } catch {
        return undefined;
      }
    };
    this.cache = { tokens: parse<SavedTokens>(tokens), client: parse<StoredOAuthClientInformation>(client) };
    return this.cache;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    return (await this.load()).client;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    const cache = await this.load();
    cache.client = info;
    await this.deps.secrets.set(this.names.client, JSON.stringify(info));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.load()).tokens?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const cache = await this.load();
    cache.tokens = { tokens, savedAt: this.deps.now() };
    await this.deps.secrets.set(this.names.tokens, JSON.stringify(cache.tokens));
    this.deps.events.onTokensChanged();
  }

  /** Whether tokens are stored, and when the access token expires (epoch ms) if known. */
  async status(): Promise<{ signedIn: boolean; expiresAt?: number }> {
    const saved = (await this.load()).tokens;
    if (!saved) return { signedIn: false };
    const expiresIn = saved.tokens.expires_in;
    return { signedIn: true, expiresAt: typeof expiresIn === 'number' ? saved.savedAt + expiresIn * 1000 : undefined };
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.deps.events.onAuthorizationUrl(authorizationUrl, this.expectedState);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in is in progress for this server (no PKCE verifier)');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const cache = await this.load();
    if (scope === 'all' || scope === 'tokens') {
      cache.tokens = undefined;
      await this.deps.secrets.delete(this.names.tokens);
      this.deps.events.onTokensChanged();
    }
    if (scope === 'all' || scope === 'client') {
      cache.client = undefined;
      await this.deps.secrets.delete(this.names.client);
    }
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}
