/**
 * The contract of servers agent hosts run through the console's bridge, as main shows them: the
 * host a request came through (`via`), the bridged servers connected now with their sign-in,
 * roots and the host's recent calls. Types only.
 */
import type { ServerAuthView } from './server-views.js';

/**
 * The agent host a bridged server runs under (`mcp-approval-console bridge`): the host's
 * `clientInfo` name and version, shown as "via <host>". Absent for the console's own connections.
 */
export interface RequestVia {
  host: string;
  version?: string;
}

/** A server an agent host runs through the console's bridge (`mcp-approval-console bridge`), connected now. */
export interface BridgedServerView {
  /** Its id in the console (queue, History, rules, limits). */
  serverId: string;
  /** The host that runs it, once the host said who it is. */
  via?: RequestVia;
  /** When the bridge connected, epoch ms. */
  since: number;
  /** Its requests the console is handling now. */
  pending: number;
  /** For an HTTP server its bridge asked the console's OAuth for: the sign-in ("Sign in" on its row). */
  auth?: ServerAuthView;
  /** The host's client requests through this bridge, newest first (the last few; open ones have no `endedAt`). */
  calls?: BridgedCallView[];
  /**
   * Its bridge is gone, but its server needs sign-in (a host ends a server whose connection failed):
   * kept listed until signed in, so the person can sign in and the host's next start works.
   */
  disconnected?: true;
  /**
   * The console's roots for it (`file://` URIs), offered when its host declares none of its own;
   * set for a connected row (edit them with `setServerRoots`).
   */
  roots?: Array<{ uri: string; name?: string }>;
}

/** One client request of an agent host's through the bridge (`tools/call`, `prompts/get`, `resources/read`). */
export interface BridgedCallView {
  callId: string;
  kind: 'tools/call' | 'prompts/get' | 'resources/read';
  /** Tool or prompt name, or resource URI. */
  name: string;
  /** Its arguments as one short line. */
  args?: string;
  /** Epoch ms the console first heard of it, and of its end (absent while it runs). */
  startedAt: number;
  endedAt?: number;
}
