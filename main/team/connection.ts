/**
 * The UI connection an API call came on, carried with the call (node:async_hooks
 * `AsyncLocalStorage`) like the actor (main/audit/actor.ts): a claim belongs to the connection
 * that took it, so closing that connection releases it, and a take-over needs the caller's role.
 * The team server's host runs each call of a connection inside {@link onConnection}; the desktop
 * runs none.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Viewer } from '../../shared/contract/roles.js';

/** One open UI connection: its id (random, per connection) and the person it acts for. */
export interface UiConnection {
  id: string;
  principal: Viewer;
}

const current = new AsyncLocalStorage<UiConnection>();

/** Runs `fn` as a call of `connection` (for everything it starts). */
export function onConnection<T>(connection: UiConnection, fn: () => T): T {
  return current.run(connection, fn);
}

/** The connection of the call running now, if a host said which. */
export function currentConnection(): UiConnection | undefined {
  return current.getStore();
}
