/**
 * A review never vanishes under the person's hands (renderer/store.ts, screens/queue/review-hold.ts):
 * while a review of an item waiting on the person is shown, a change of the mirror that ends its
 * phase without this window's decision — another status, another version, the item gone — holds
 * it in the same update (the view goes on showing it, so nothing unmounts); a phase this window
 * decided moves on; a held review keeps its edits until it is dismissed.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { projectItem } from '../../shared/domain/item-summary.js';
import type { ConsoleState, ItemView, SamplingItemView } from '../../shared/contract/state.js';
import { releaseReview, reviewPhase, setMirror, showReview, useConsole } from '../../renderer/store.js';

const item: SamplingItemView = {
  id: 'a',
  conversationId: 'a',
  origin: 'server',
  round: 1,
  serverId: 's',
  era: 'legacy',
  association: { exact: true, calls: [] },
  status: 'awaiting_response_review',
  receivedAt: 1,
  updatedAt: 1,
  original: { messages: [{ role: 'user', content: { type: 'text', text: 'Tell me a story' } }], maxTokens: 1 },
  model: { providerId: 'manual', modelId: 'manual', reason: '' },
  response: { draft: { role: 'assistant', content: { type: 'text', text: '' }, model: 'manual' }, manual: true, generatedAt: 1 },
  contentVersion: '1'.repeat(64),
};
const other: SamplingItemView = { ...item, id: 'b', conversationId: 'b', status: 'awaiting_request_review', contentVersion: '2'.repeat(64) };
const state = (version: number, items: ItemView[]): ConsoleState => ({
  version,
  servers: [],
  calls: [],
  items: items.map(projectItem),
  providers: [],
  notices: [],
  settings: { host: 'test', userDataDir: '/u', serversConfigPath: '/u/s', providersConfigPath: '/u/p', historyPath: '/u/h' },
});
const typed = { texts: { '0:0': 'half a sentence' }, editing: {} };

beforeEach(() => {
  useConsole.setState({ mirror: null, details: {}, drafts: {}, held: {}, decided: {} });
  setMirror(state(1, [item, other]), { a: { item, version: 1 }, b: { item: other, version: 1 } });
  useConsole.getState().setResponseDraft('a', typed);
});

describe('a shown review that ends under the person', () => {
  it.each([
    ['the server stopped waiting', { ...item, status: 'timed_out' as const, contentVersion: undefined, outcome: { at: 5, message: 'The server stopped waiting (timeout)', stopped: 'server_stopped_waiting' as const } }],
    ['another window sent it', { ...item, status: 'delivered' as const, contentVersion: undefined }],
    ['the response was regenerated elsewhere (same status, another version)', { ...item, contentVersion: '3'.repeat(64) }],
  ])('%s: held as it was shown, in the same update, its edits kept', (_why, next) => {
    const hide = showReview(item);
    setMirror(state(2, [next, other]), { a: { item: next, version: 2 }, b: { item: other, version: 2 } });
    const s = useConsole.getState();
    expect(s.held.a?.item).toBe(item);
    expect(s.drafts.a?.response).toEqual(typed); // not pruned with the phase
    expect(s.held.b).toBeUndefined(); // the other item is left alone
    hide();
  });

  it('the item gone from the queue (dismissed elsewhere, the console restarted): held', () => {
    const hide = showReview(item);
    setMirror(state(2, [other]), { b: { item: other, version: 2 } });
    expect(useConsole.getState().held.a?.item).toBe(item);
    hide();
  });

  it('a phase this window decided moves on (once); a review not shown is not held', () => {
    const hide = showReview(item);
    useConsole.getState().markDecided('a', reviewPhase(item));
    const generating = { ...item, status: 'generating' as const, contentVersion: undefined };
    setMirror(state(2, [generating, other]), { a: { item: generating, version: 2 } });
    expect(useConsole.getState().held.a).toBeUndefined();
    expect(useConsole.getState().decided.a).toBeUndefined(); // used up
    hide();
    // The same phase again (a failed generation back in review), shown, then the server gives up: held.
    const again = showReview(item);
    const delivered = { ...item, status: 'timed_out' as const, contentVersion: undefined };
    setMirror(state(3, [delivered, other]), { a: { item: delivered, version: 3 } });
    expect(useConsole.getState().held.a?.item).toBe(item);
    again();
    releaseReview('a');
    const rejected = { ...other, status: 'rejected' as const };
    setMirror(state(4, [delivered, rejected]), {});
    expect(useConsole.getState().held.b).toBeUndefined();
  });

  it('dismissed: no longer held, its edits leave the store', () => {
    const hide = showReview(item);
    setMirror(state(2, [other]), {});
    hide();
    releaseReview('a');
    expect(useConsole.getState().held.a).toBeUndefined();
    expect(useConsole.getState().drafts.a).toBeUndefined();
  });
});
