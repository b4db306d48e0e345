/**
 * A second session in the other protocol era, for the tools that need it (./era-needs.ts): opened
 * on demand when such a tool is called, closed after {@link ERA_SESSION_IDLE_MS} without calls,
 * and never shown apart — its requests carry the server's id, so the Queue, History and the
 * Servers screen see one server. The server's own connection stays as it is.
 */
import type { ProtocolEra } from '../../shared/contract/primitives.js';
import type { Logger } from '../ports.js';
import type { ServerConnection } from './connection.js';
import type { EraNeeds } from './era-needs.js';

/** How long a second session stays open without calls, in ms (5 min). */
export const ERA_SESSION_IDLE_MS = 5 * 60_000;

/** The second sessions of every server. */
export interface EraSessions {
  /**
   * The connection to call `tool` of `serverId` on: `primary` when its era fits what the tool
   * needs (or nothing is known), else a session in the needed era, opened (and waited for) now.
   * @throws Error when that session cannot be opened (its status message)
   */
  forTool(serverId: string, tool: string, primary: ServerConnection): Promise<ServerConnection>;
  /** Closes a server's second sessions (the server was removed, restarted or the console stops). */
  close(serverId: string): Promise<void>;
  closeAll(): Promise<void>;
  /** The open second sessions (e.g. for their pids at shutdown). */
  connections(): ServerConnection[];
}

/** Creates the manager. `open` builds a (not yet connected) connection of `serverId` pinned to `era`. */
export function createEraSessions(deps: {
  needs: EraNeeds;
  open(serverId: string, era: ProtocolEra): ServerConnection | undefined;
  logger: Logger;
  idleMs?: number;
}): EraSessions {
  const sessions = new Map<string, { conn: ServerConnection; ready: Promise<void>; timer?: NodeJS.Timeout }>();
  const idleMs = deps.idleMs ?? ERA_SESSION_IDLE_MS;
  const key = (serverId: string, era: ProtocolEra) => `${serverId}\u0000${era}`;

  const closeKey = async (k: string) => {
    const s = sessions.get(k);
    if (!s) return;
    sessions.delete(k);
    clearTimeout(s.timer);
    await s.conn.close().catch(() => undefined);
  };
  const arm = (k: string) => {
    const s = sessions.get(k);
    if (!s) return;
    clearTimeout(s.timer);
    s.timer = setTimeout(() => {
      if (s.conn.inFlight() > 0) return arm(k);
      void closeKey(k);
    }, idleMs);
    s.timer.unref?.();
  };

  return {
    async forTool(serverId, tool, primary) {
      const need = deps.needs.get(serverId, tool);
      const current = primary.view().era;
      if (!need || !current || need.needs === current) return primary;
      const k = key(serverId, need.needs);
      let s = sessions.get(k);
      if (!s) {
        const conn = deps.open(serverId, need.needs);
        if (!conn) return primary;
        s = { conn, ready: conn.connect() };
        sessions.set(k, s);
        deps.logger.info('opened a second session in the era a tool needs', { server: serverId, tool, era: need.needs });
      }
      await s.ready;
      arm(k);
      const view = s.conn.view();
      if (view.status !== 'ready') {
        await closeKey(k);
        throw new Error(`could not open a ${need.needs === 'legacy' ? '2025-11-25' : '2026-07-28'} session to "${serverId}" for ${tool}: ${view.error ?? view.status}`);
      }
      return s.conn;
    },
    async close(serverId) {
      await Promise.all([...sessions.keys()].filter((k) => k.startsWith(`${serverId}\u0000`)).map(closeKey));
    },
    async closeAll() {
      await Promise.all([...sessions.keys()].map(closeKey));
    },
    connections: () => [...sessions.values()].map((s) => s.conn),
  };
}
