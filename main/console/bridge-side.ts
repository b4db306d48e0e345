/**
 * The bridge side, one step of `createConsole` (main/console.ts): the console's end of the local
 * channel bridges talk to (main/bridge/listener.ts). A bridged server's requests enter the one
 * door (`requests`) with source `bridge`, under the server id the bridge names (its entry's name
 * in mcp-servers.json for `bridge <name>`, else its `--name` or the name derived from its command
 * or URL: main/bridge/args.ts).
 */
import { startBridgeListener, type BridgeListener } from '../bridge/listener.js';
import type { Foundation } from './foundation.js';
import type { RequestSide } from './request-side.js';
import { ui } from '../../shared/contract/ui-text.js';

/** The bridge side's handle. */
export interface BridgeSide {
  /** The listener, when this console listens (another console on the same folder may). */
  listener?: BridgeListener;
  /** Ends the requests still under review with a clear error to their bridges and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts listening for bridges. Never throws: a failure (a file in the socket's way) is a notice,
 * and the console runs without bridges.
 */
export async function startBridgeSide(f: Foundation, req: RequestSide): Promise<BridgeSide> {
  try {
    // The `bridged` slice: which servers hosts run through the bridge now (the Servers screen lists
    // them). A bridge can only say hello once the listener is there, so `listener` is set by then.
    const publish = () => f.hub.set('bridged', listener?.connected() ?? []);
    const listener = await startBridgeListener({
      dir: f.dir,
      requests: req.requests,
      logger: f.logger,
      now: f.now,
      onChange: () => queueMicrotask(publish),
      onElicitationComplete: (serverId, elicitationId) => req.elicitations.complete(serverId, elicitationId),
    });
    return { ...(listener && { listener }), close: async () => listener?.close() };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    f.logger.warn('bridges cannot reach this console', { error: message });
    f.notify('warning', ui('notice.bridgeUnreachable', { why: message }));
    return { close: async () => undefined };
  }
}
