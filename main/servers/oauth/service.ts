/**
 * OAuth for HTTP servers (MCP authorization), through the SDK's OAuth client (`auth()` with an
 * `OAuthClientProvider`: discovery of the protected resource and authorization server metadata,
 * dynamic client registration, authorization code with PKCE, token refresh).
 *
 * - Connecting never opens a browser: a server that answers 401 with no stored tokens shows
 *   `needs_auth` and a "Sign in" button.
 * - "Sign in" (`signIn`) runs `auth()`, which ends at the authorization URL; the console opens it in
 *   the system browser through the host's `openExternal` port (Electron), or hands it back for the
 *   renderer to open in a new tab (web host). The redirect comes back to the loopback callback
 *   (callback-server.ts) where the `state` is checked, the code exchanged, the tokens stored in
 *   the secret store, and the server reconnected.
 * - On a 401 with stored tokens the transport asks `onUnauthorized`, which lets `auth()` refresh;
 *   when the refresh token no longer works the server shows "sign in again".
 * - "Sign out" deletes the server's tokens and registration, then reconnects (→ `needs_auth`).
 */
import { auth, extractWWWAuthenticateParams, UnauthorizedError, type AuthProvider } from '@modelcontextprotocol/client';
import { ApiError } from '../../../shared/contract/api-error.js';
import type { ServerAuthView } from '../../../shared/contract/state.js';
import { isStdio, type ServerConfig } from '../../config.js';
import type { ConnectionAuth } from '../../mcp/connection.js';
import type { Logger } from '../../ports.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { createCallbackServer, type CallbackServer } from './callback-server.js';
import { ConsoleOAuthProvider } from './provider.js';
import { ui } from '../../../shared/contract/ui-text.js';

/** What the OAuth service needs. */
export interface OAuthServiceDeps {
  secrets: SecretStore;
  /** Opens a URL in the system browser (Electron); absent in the web host. */
  openExternal?: (url: string) => Promise<void>;
  logger: Logger;
  now: () => number;
  /** Called when a server's sign-in state changed (publish state). */
  onChange(): void;
  /** Callback server (tests may share one); default: a fresh loopback server. */
  callback?: CallbackServer;
}

/** What `signIn` resolves with. */
export interface SignInStart {
  /** Where the person authorizes; empty when stored tokens were still good (no sign-in needed). */
  authorizationUrl: string;
  /** True when the console opened it in the system browser; else the renderer opens it. */
  opened: boolean;
}

/** The OAuth operations of the console. */
export interface OAuthService {
  /** OAuth for a server's connection: HTTP entries only (stdio gets undefined). */
  forServer(serverId: string, config: ServerConfig): ConnectionAuth | undefined;
  /**
   * Starts signing in to `serverId`; `reconnect` runs once tokens are stored.
   * @throws ApiError not_found (no such HTTP server), invalid_state (discovery or registration failed)
   */
  signIn(serverId: string, reconnect: () => Promise<void>): Promise<SignInStart>;
  /** Deletes the server's tokens and registration, then runs `reconnect`. @throws ApiError not_found */
  signOut(serverId: string, reconnect: () => Promise<void>): Promise<void>;
  /** Whether OAuth is set up for `serverId` (it has an HTTP connection, or a bridge asked for it). */
  has(serverId: string): boolean;
  close(): Promise<void>;
}

interface ServerRecord {
  url: string;
  provider: ConsoleOAuthProvider;
  signedIn: boolean;
  expiresAt?: number;
  pendingState?: string;
  /** Set while `signIn` waits for the authorization URL. */
  interactive?: (url: URL) => void;
  error?: string;
  /**
   * The refresh under way: requests refused at the same moment share it, since servers that
   * rotate refresh tokens refuse the second use of one (`invalid_grant`), which would sign out.
   */
  refreshing?: Promise<void>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Creates the service. */
export function createOAuthService(deps: OAuthServiceDeps): OAuthService {
  const callback = deps.callback ?? createCallbackServer();
  const records = new Map<string, ServerRecord>();

  const refreshStatus = async (rec: ServerRecord) => {
    try {
      const s = await rec.provider.status();
      rec.signedIn = s.signedIn;
      rec.expiresAt = s.expiresAt;
    } catch (err) {
      rec.error = `the secret store cannot be read: ${message(err)}`;
    }
    deps.onChange();
  };

  const view = (rec: ServerRecord): ServerAuthView | undefined => {
    if (rec.pendingState) return { status: 'pending', error: rec.error };
    if (rec.signedIn) return { status: 'signed_in', expiresAt: rec.expiresAt, error: rec.error };
    return rec.error ? { status: 'signed_out', error: rec.error } : undefined;
  };

  const record = (serverId: string): ServerRecord => {
    const rec = records.get(serverId);
    if (!rec) throw new ApiError('not_found', ui('error.noHttpServer', { server: serverId }));
    return rec;
  };

  return {
    forServer(serverId, config) {
      if (isStdio(config)) {
        records.delete(serverId);
        return undefined;
      }
      let rec = records.get(serverId);
      if (!rec || rec.url !== config.url) {
        const fresh: ServerRecord = {
          url: config.url,
          signedIn: false,
          provider: new ConsoleOAuthProvider(serverId, config.url, {
            secrets: deps.secrets,
            now: deps.now,
            redirectUrl: () => callback.redirectUrl(),
            events: {
              onAuthorizationUrl: (url) => {
                if (fresh.interactive) return fresh.interactive(url);
                // Outside a sign-in: the stored tokens no longer refresh.
                fresh.error = 'Your sign-in has expired: sign in again.';
                deps.onChange();
              },
              onTokensChanged: () => void refreshStatus(fresh),
            },
          }),
        };
        rec = fresh;
        records.set(serverId, rec);
        void refreshStatus(rec);
      }
      const current = rec;
      const provider: AuthProvider = {
        token: async () => (await current.provider.tokens())?.access_token,
        onUnauthorized: async (ctx) => {
          // No tokens: the person has to sign in (never from a background connect).
          if (!(await current.provider.tokens())) throw new UnauthorizedError('Sign-in required');
          await callback.start(); // auth() treats a provider without redirect URL as non-interactive
          current.refreshing ??= refreshTokens(current.provider, ctx).finally(() => (current.refreshing = undefined));
          await current.refreshing;
        },
      };
      return { provider, view: () => view(current) };
    },

    async signIn(serverId, reconnect) {
      const rec = record(serverId);
      await callback.start();
      if (rec.pendingState) callback.forget(rec.pendingState);
      rec.pendingState = undefined;
      rec.error = undefined;
      let authorizationUrl: URL | undefined;
      rec.interactive = (url) => void (authorizationUrl = url);
      let result: Awaited<ReturnType<typeof auth>>;
      try {
        result = await auth(rec.provider, { serverUrl: rec.url });
      } catch (err) {
        rec.error = `Sign-in failed: ${message(err)}`;
        deps.onChange();
        throw new ApiError('invalid_state', ui('error.signInFailed', { server: serverId, why: message(err) }));
      } finally {
        rec.interactive = undefined;
      }
      if (result === 'AUTHORIZED' || !authorizationUrl) {
        await refreshStatus(rec);
        await reconnect();
        return { authorizationUrl: '', opened: false };
      }
      const state = rec.provider.currentState();
      if (!state) throw new ApiError('internal', 'the authorization request carries no state');
      rec.pendingState = state;
      callback.expect(state, async (params) => {
        rec.pendingState = undefined;
        try {
          if (params.error) throw new Error(`the authorization server said: ${params.error}`);
          if (!params.code) throw new Error('the callback carried no authorization code');
          await auth(rec.provider, { serverUrl: rec.url, authorizationCode: params.code, iss: params.iss });
          rec.error = undefined;
          await refreshStatus(rec);
          void reconnect().catch((err: unknown) => deps.logger.warn('reconnect after sign-in failed', { server: serverId, error: message(err) }));
          return { ok: true, message: `You are signed in to "${serverId}". You can close this tab and go back to the console.` };
        } catch (err) {
          rec.error = `Sign-in failed: ${message(err)}`;
          deps.onChange();
          return { ok: false, message: `${rec.error}. Go back to the console and try again.` };
        }
      });
      deps.onChange();
      let opened = false;
      if (deps.openExternal) {
        try {
          await deps.openExternal(authorizationUrl.href);
          opened = true;
        } catch (err) {
          deps.logger.warn('could not open the browser', { server: serverId, error: message(err) });
        }
      }
      return { authorizationUrl: authorizationUrl.href, opened };
    },

    async signOut(serverId, reconnect) {
      const rec = record(serverId);
      if (rec.pendingState) callback.forget(rec.pendingState);
      rec.pendingState = undefined;
      rec.error = undefined;
      await rec.provider.invalidateCredentials('all');
      await refreshStatus(rec);
      await reconnect();
    },

    has: (serverId) => records.has(serverId),

    async close() {
      await callback.close();
    },
  };
}

/**
 * Lets the SDK's `auth()` refresh the stored tokens after the server refused them (HTTP 401).
 * @throws UnauthorizedError "Sign-in expired" when they no longer refresh
 */
async function refreshTokens(provider: ConsoleOAuthProvider, ctx: Parameters<NonNullable<AuthProvider["onUnauthorized"]>>[0]): Promise<void> {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(ctx.response);
  const result = await auth(provider, { serverUrl: ctx.serverUrl, resourceMetadataUrl, scope, fetchFn: ctx.fetchFn });
  if (result !== 'AUTHORIZED') throw new UnauthorizedError('Sign-in expired');
}
