/**
 * The renderer's mirror of main's state (renderer/store.ts `startMirror`): item changes apply on
 * the version right before them; when a patch was missed, the whole state is fetched again and
 * the patches that arrived meanwhile are applied on top.
 */
import { describe, expect, it } from 'vitest';
import type { ConsoleApi, ConsoleEvent } from '../../shared/api.js';
import type { ConsoleState, SamplingItemView } from '../../shared/state.js';
import { startMirror, useConsole } from '../../renderer/store.js';

const item: SamplingItemView = {
  id: 'a',
  conversationId: 'a',
  origin: 'server',
  round: 1,
  serverId: 's',
  era: 'legacy',
  association: { exact: true, calls: [] },
  status: 'awaiting_request_review',
  receivedAt: 1,
  updatedAt: 1,
  original: { messages: [], maxTokens: 1 },
  model: { providerId: 'manual', modelId: 'manual', reason: '' },
};
const state = (version: number, items: SamplingItemView[]): ConsoleState => ({
  version,
  servers: [],
  calls: [],
  items,
  providers: [],
  notices: [],
  settings: { host: 'test', userDataDir: '/u', serversConfigPath: '/u/s', providersConfigPath: '/u/p', historyPath: '/u/h' },
});
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('renderer mirror', () => {
  it('applies item changes in order, and fetches the whole state again after a missed patch', async () => {
    let emit: (e: ConsoleEvent) => void = () => undefined;
    const served = [state(1, [item]), state(4, [{ ...item, status: 'rejected', updatedAt: 4 }])];
    let fetched = 0;
    const api = {
      onEvent: (fn: (e: ConsoleEvent) => void) => {
        emit = fn;
        return () => undefined;
      },
      getState: async () => served[fetched++]!,
    } as unknown as ConsoleApi;
    const stop = startMirror(api);
    await settle();
    expect(useConsole.getState().mirror?.version).toBe(1);
    emit({ type: 'patch', patch: { version: 2, items: { upsert: [], remove: [], change: [{ id: 'a', set: { status: 'generating', updatedAt: 2 } }] } } });
    expect(useConsole.getState().mirror?.items[0]?.status).toBe('generating');
    // Version 3 never arrives; version 4's change cannot apply to version 2.
    emit({ type: 'patch', patch: { version: 4, items: { upsert: [], remove: [], change: [{ id: 'a', set: { status: 'rejected', updatedAt: 4 } }] } } });
    expect(useConsole.getState().mirror?.version).toBe(2); // still shown while fetching
    emit({ type: 'patch', patch: { version: 5, notices: [{ id: 'n', level: 'info', message: 'later', at: 5 }] } });
    await settle();
    expect(fetched).toBe(2);
    const mirror = useConsole.getState().mirror!;
    expect(mirror.version).toBe(5);
    expect(mirror.items[0]).toMatchObject({ status: 'rejected', updatedAt: 4 });
    expect(mirror.notices).toHaveLength(1);
    stop();
  });
});
