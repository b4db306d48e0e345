/**
 * OAuth for a bridged HTTP server, as the console already does it: the bridge holds no tokens of
 * its own. Its transport asks the console (over the channel) for the access token of the sign-in
 * the console holds for the server — made with "Sign in" on the console's Servers screen — and on
 * a 401 asks the console to refresh it. When the person signs out there, the console tells the
 * bridge, which drops the token it holds. When nobody signed in, or the sign-in can no longer be
 * refreshed, the transport fails with an UnauthorizedError whose message says where to sign in.
 */
import { UnauthorizedError, type AuthProvider } from '@modelcontextprotocol/client';
import type { ConsoleLink } from './console-link.js';

/** The AuthProvider of a bridged HTTP server, and `forget` for when the person signed out in the console. */
export interface BridgeAuthProvider extends AuthProvider {
  /** Drops the access token held: the next request goes without one and asks the console on its 401. */
  forget(): void;
}

/** The AuthProvider of a bridged HTTP server at `url` (its `serverId` names it in the console). */
export function bridgeAuthProvider(link: Pick<ConsoleLink, 'auth'>, url: string, serverId: string): BridgeAuthProvider {
  let asked = false;
  let token: string | undefined;
  return {
    forget() {
      asked = true; // not asked again until the server refuses: the console has nothing now
      token = undefined;
    },
    async token() {
      if (!asked) {
        asked = true;
        token = await link.auth(url).catch(() => undefined); // no console, or nothing stored: try without
      }
      return token;
    },
    async onUnauthorized(ctx) {
      const wwwAuthenticate = ctx.response.headers.get('www-authenticate') ?? undefined;
      try {
        token = await link.auth(url, { ...(wwwAuthenticate && { wwwAuthenticate }) });
      } catch (err) {
        throw new UnauthorizedError(`${serverId} needs sign-in: ${err instanceof Error ? err.message : String(err)}`);
      }
      asked = true;
      if (!token) throw new UnauthorizedError(`${serverId} needs sign-in: sign in to "${serverId}" on MCP Approval Console's Servers screen, then restart the server in your host`);
    },
  };
}
