/**
 * The Electron IPC adapter: one `ipcMain.handle` per API method, each refusing untrusted senders
 * and then routing through {@link dispatch} (the same zod validation as the web host); and the
 * event forwarder that pushes the service's events to the main window only.
 *
 * No runtime `electron` import (only structural types), so it is unit-tested with a fake ipcMain
 * in test/hosts/ipc.test.ts.
 */
import { API_METHODS, EVENT_CHANNEL, requestChannel } from '../../shared/contract/api-methods.js';
import type { ApiReply, ConsoleService } from '../../shared/contract/api.js';
import { dispatch } from '../../main/api/dispatch.js';
import type { SenderEventLike } from './sender-check.js';

/** The part of Electron's `ipcMain` the adapter uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: SenderEventLike, ...args: unknown[]) => Promise<ApiReply>): void;
  removeHandler(channel: string): void;
}

/** Options of {@link registerIpcHandlers}. */
export interface IpcAdapterOptions {
  ipcMain: IpcMainLike;
  service: ConsoleService;
  /** The sender check (app/electron/sender-check.ts `isTrustedIpcEvent` bound to the window). */
  isTrusted(event: SenderEventLike): boolean;
  /** Told about refused senders (URL only), for the log. */
  onRefused?(url: string | undefined): void;
}

/** Thrown to an untrusted sender; the renderer sees a rejected `invoke`. */
export const UNTRUSTED_SENDER_MESSAGE = 'console API: untrusted sender';

/**
 * Registers a handler on `requestChannel(m)` for every method in `API_METHODS`. Each handler
 * takes exactly one argument (the input), refuses untrusted senders by throwing
 * {@link UNTRUSTED_SENDER_MESSAGE} (so a foreign frame learns nothing and reaches no service
 * code), and otherwise resolves with `dispatch(service, m, input)` — an {@link ApiReply}, never a
 * throw.
 * @returns a function that removes every handler again.
 */
export function registerIpcHandlers(opts: IpcAdapterOptions): () => void {
  for (const method of API_METHODS) {
    opts.ipcMain.handle(requestChannel(method), async (event, input) => {
      if (!opts.isTrusted(event)) {
        opts.onRefused?.(event.senderFrame?.url);
        throw new Error(UNTRUSTED_SENDER_MESSAGE);
      }
      return dispatch(opts.service, method, input);
    });
  }
  return () => {
    for (const method of API_METHODS) opts.ipcMain.removeHandler(requestChannel(method));
  };
}

/** The part of a `WebContents` events are sent to. */
export interface EventSink {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/**
 * Forwards every service event to `target()` on {@link EVENT_CHANNEL}, only while it exists and is
 * not destroyed (events for a closed window are dropped; the next window starts from getState).
 * @returns the unsubscribe function.
 */
export function forwardEvents(service: ConsoleService, target: () => EventSink | null): () => void {
  return service.onEvent((event) => {
    const t = target();
    if (t && !t.isDestroyed()) t.send(EVENT_CHANNEL, event);
  });
}
