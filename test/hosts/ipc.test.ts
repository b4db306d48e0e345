import { describe, expect, it } from 'vitest';
import { API_METHODS, EVENT_CHANNEL, requestChannel } from '../../shared/contract/api-methods.js';
import type { ApiReply } from '../../shared/contract/api.js';
import { forwardEvents, registerIpcHandlers, UNTRUSTED_SENDER_MESSAGE, type IpcMainLike } from '../../app/electron/ipc.js';
import type { SenderEventLike } from '../../app/electron/sender-check.js';
import { createFakeService, makeState } from '../support/fake-service.js';

type Handler = (event: SenderEventLike, ...args: unknown[]) => Promise<ApiReply>;

function fakeIpcMain(): IpcMainLike & { handlers: Map<string, Handler> } {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler(channel) {
      handlers.delete(channel);
    },
  };
}

const trusted: SenderEventLike = { sender: 'main', senderFrame: { url: 'file:///app/index.html', parent: null } };
const foreign: SenderEventLike = { sender: 'main', senderFrame: { url: 'https://evil.example/', parent: null } };

describe('IPC adapter', () => {
  it('registers one handler per API method and removes them again', () => {
    const ipc = fakeIpcMain();
    const off = registerIpcHandlers({ ipcMain: ipc, service: createFakeService().service, isTrusted: () => true });
    expect([...ipc.handlers.keys()].sort()).toEqual(API_METHODS.map(requestChannel).sort());
    off();
    expect(ipc.handlers.size).toBe(0);
  });

  it('dispatches trusted requests with zod-parsed input and wraps errors', async () => {
    const ipc = fakeIpcMain();
    const fake = createFakeService();
    registerIpcHandlers({ ipcMain: ipc, service: fake.service, isTrusted: (e) => e.senderFrame?.url === 'file:///app/index.html' });
    const call = (m: string, input: unknown) => ipc.handlers.get(requestChannel(m as (typeof API_METHODS)[number]))!(trusted, input);
    expect(await call('listHistory', {})).toEqual({ ok: true, value: { entries: [], total: 0 } });
    expect(fake.calls).toEqual([{ method: 'listHistory', input: { limit: 50, offset: 0 } }]);
    expect(await call('dismissItem', { itemId: 3 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(fake.calls).toHaveLength(1);
  });

  it('refuses untrusted senders before the service sees anything', async () => {
    const ipc = fakeIpcMain();
    const fake = createFakeService();
    const refused: Array<string | undefined> = [];
    registerIpcHandlers({
      ipcMain: ipc,
      service: fake.service,
      isTrusted: (e) => e.senderFrame?.url === 'file:///app/index.html',
      onRefused: (url) => refused.push(url),
    });
    for (const m of API_METHODS) {
      await expect(ipc.handlers.get(requestChannel(m))!(foreign, {})).rejects.toThrow(UNTRUSTED_SENDER_MESSAGE);
    }
    expect(fake.calls).toEqual([]);
    expect(refused).toHaveLength(API_METHODS.length);
    expect(refused[0]).toBe('https://evil.example/');
  });

  it('forwards events to a live window only', () => {
    const fake = createFakeService();
    const sent: unknown[][] = [];
    let destroyed = false;
    let target: { isDestroyed(): boolean; send(c: string, ...a: unknown[]): void } | null = {
      isDestroyed: () => destroyed,
      send: (...args) => sent.push(args),
    };
    const off = forwardEvents(fake.service, () => target);
    const e1 = { type: 'snapshot', state: makeState(1) } as const;
    fake.emit(e1);
    expect(sent).toEqual([[EVENT_CHANNEL, e1]]);
    destroyed = true;
    fake.emit(e1);
    target = null;
    fake.emit(e1);
    expect(sent).toHaveLength(1);
    off();
    expect(fake.listenerCount()).toBe(0);
  });
});
