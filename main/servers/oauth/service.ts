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
import { createCallbackServer, type CallbackHandler, type CallbackParams, type CallbackServer } from './callback-server.js';
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

/** What the service keeps per server: its URL, its OAuth provider, and the sign-in state shown. */
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

/** What one service keeps between calls; the steps below read and change it. */
interface OAuthState {
  readonly deps: OAuthServiceDeps;
  readonly callback: CallbackServer;
  /** The record of each server OAuth is set up for, by server id. */
  readonly records: Map<string, ServerRecord>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Creates the service. */
export function createOAuthService(deps: OAuthServiceDeps): OAuthService {
  const st: OAuthState = { deps, callback: deps.callback ?? createCallbackServer(), records: new Map() };
  return {
    forServer: (serverId, config) => forServer(st, serverId, config),
    signIn: (serverId, reconnect) => signIn(st, serverId, reconnect),
    signOut: (serverId, reconnect) => signOut(st, serverId, reconnect),
    has: (serverId) => st.records.has(serverId),
    async close() {
      await st.callback.close();
    },
  };
}

/** Reads the record's sign-in state from its stored tokens (a store that cannot be read sets `error`), then calls `onChange`. */
async function refreshStatus(st: OAuthState, rec: ServerRecord): Promise<void> {
  try {
    const s = await rec.provider.status();
    rec.signedIn = s.signedIn;
    rec.expiresAt = s.expiresAt;
  } catch (err) {
    rec.error = `the secret store cannot be read: ${message(err)}`;
  }
  st.deps.onChange();
}

/** The sign-in state of a record as shown; undefined when signed out with nothing to say. */
function authView(rec: ServerRecord): ServerAuthView | undefined {
  if (rec.pendingState) return { status: 'pending', error: rec.error };
  if (rec.signedIn) return { status: 'signed_in', expiresAt: rec.expiresAt, error: rec.error };
  return rec.error ? { status: 'signed_out', error: rec.error } : undefined;
}

/** The record of `serverId`. @throws ApiError not_found when OAuth is not set up for it */
function record(st: OAuthState, serverId: string): ServerRecord {
  const rec = st.records.get(serverId);
  if (!rec) throw new ApiError('not_found', ui('error.noHttpServer', { server: serverId }));
  return rec;
}

/** Forgets the record's pending authorization (its `state` at the callback server) and its error. */
function clearPending(st: OAuthState, rec: ServerRecord): void {
  if (rec.pendingState) st.callback.forget(rec.pendingState);
  rec.pendingState = undefined;
  rec.error = undefined;
}

/** {@link OAuthService.forServer}: drops the record of a stdio entry; else makes a record when there is none for this URL, and returns its auth. */
function forServer(st: OAuthState, serverId: string, config: ServerConfig): ConnectionAuth | undefined {
  if (isStdio(config)) {
    st.records.delete(serverId);
    return undefined;
  }
  let rec = st.records.get(serverId);
  if (!rec || rec.url !== config.url) {
    rec = newRecord(st, serverId, config.url);
    st.records.set(serverId, rec);
    void refreshStatus(st, rec);
  }
  const current = rec;
  const provider: AuthProvider = {
    token: async () => (await current.provider.tokens())?.access_token,
    onUnauthorized: (ctx) => onUnauthorized(st, current, ctx),
  };
  return { provider, view: () => authView(current) };
}

/** A signed-out record for `serverId` at `url`, with an OAuth provider whose events update it. */
function newRecord(st: OAuthState, serverId: string, url: string): ServerRecord {
  const { deps, callback } = st;
  const fresh: ServerRecord = {
    url,
    signedIn: false,
    provider: new ConsoleOAuthProvider(serverId, url, {
      secrets: deps.secrets,
      now: deps.now,
      redirectUrl: () => callback.redirectUrl(),
      events: {
        onAuthorizationUrl: (authorizationUrl) => {
          if (fresh.interactive) return fresh.interactive(authorizationUrl);
          // Outside a sign-in: the stored tokens no longer refresh.
          fresh.error = 'Your sign-in has expired: sign in again.';
          deps.onChange();
        },
        onTokensChanged: () => void refreshStatus(st, fresh),
      },
    }),
  };
  return fresh;
}

/**
 * The transport's 401 hook: refreshes the stored tokens, one refresh per record at a time (requests
 * refused together share it).
 * @throws UnauthorizedError "Sign-in required" when there are no stored tokens; what {@link refreshTokens} throws
 */
async function onUnauthorized(st: OAuthState, rec: ServerRecord, ctx: UnauthorizedContext): Promise<void> {
  // No tokens: the person has to sign in (never from a background connect).
  if (!(await rec.provider.tokens())) throw new UnauthorizedError('Sign-in required');
  await st.callback.start(); // auth() treats a provider without redirect URL as non-interactive
  rec.refreshing ??= refreshTokens(rec.provider, ctx).finally(() => (rec.refreshing = undefined));
  await rec.refreshing;
}

/** {@link OAuthService.signIn}: runs `auth()` up to the authorization URL, waits for its callback, and opens it in the browser when the host can. */
async function signIn(st: OAuthState, serverId: string, reconnect: () => Promise<void>): Promise<SignInStart> {
  const { deps, callback } = st;
  const rec = record(st, serverId);
  await callback.start();
  clearPending(st, rec);
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
    await refreshStatus(st, rec);
    await reconnect();
    return { authorizationUrl: '', opened: false };
  }
  expectCallback(st, serverId, rec, reconnect);
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
}

/** Marks the record pending under the authorization request's `state` and has the callback server finish the sign-in. @throws ApiError internal when there is no `state` */
function expectCallback(st: OAuthState, serverId: string, rec: ServerRecord, reconnect: () => Promise<void>): void {
  const state = rec.provider.currentState();
  if (!state) throw new ApiError('internal', 'the authorization request carries no state');
  rec.pendingState = state;
  st.callback.expect(state, (params) => finishSignIn(st, serverId, rec, reconnect, params));
}

/** The callback's answer: exchanges the code for tokens, stores them and reconnects; a failure is kept in `error` and shown on the page. */
async function finishSignIn(st: OAuthState, serverId: string, rec: ServerRecord, reconnect: () => Promise<void>, params: CallbackParams): ReturnType<CallbackHandler> {
  const { deps } = st;
  rec.pendingState = undefined;
  try {
    if (params.error) throw new Error(`the authorization server said: ${params.error}`);
    if (!params.code) throw new Error('the callback carried no authorization code');
    await auth(rec.provider, { serverUrl: rec.url, authorizationCode: params.code, iss: params.iss });
    rec.error = undefined;
    await refreshStatus(st, rec);
    void reconnect().catch((err: unknown) => deps.logger.warn('reconnect after sign-in failed', { server: serverId, error: message(err) }));
    return { ok: true, message: `You are signed in to "${serverId}". You can close this tab and go back to the console.` };
  } catch (err) {
    rec.error = `Sign-in failed: ${message(err)}`;
    deps.onChange();
    return { ok: false, message: `${rec.error}. Go back to the console and try again.` };
  }
}

/** {@link OAuthService.signOut}: forgets a pending sign-in, deletes the tokens and registration, then reconnects. */
async function signOut(st: OAuthState, serverId: string, reconnect: () => Promise<void>): Promise<void> {
  const rec = record(st, serverId);
  clearPending(st, rec);
  await rec.provider.invalidateCredentials('all');
  await refreshStatus(st, rec);
  await reconnect();
}

/** What the transport passes to `onUnauthorized`. */
type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];

/**
 * Lets the SDK's `auth()` refresh the stored tokens after the server refused them (HTTP 401).
 * @throws UnauthorizedError "Sign-in expired" when they no longer refresh
 */
async function refreshTokens(provider: ConsoleOAuthProvider, ctx: UnauthorizedContext): Promise<void> {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(ctx.response);
  const result = await auth(provider, { serverUrl: ctx.serverUrl, resourceMetadataUrl, scope, fetchFn: ctx.fetchFn });
  if (result !== 'AUTHORIZED') throw new UnauthorizedError('Sign-in expired');
}
