/**
 * The renderer's mirror of main's state (renderer/mirror.ts `startMirror`): item changes apply on
 * the version right before them; when a patch was missed, the whole state is fetched again and
 * the patches that arrived meanwhile are applied on top. Whole items are fetched when opened and
 * kept current by the patches' `details`.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleApi, ConsoleEvent } from '../../shared/contract/api.js';
import { projectItem } from '../../shared/domain/item-summary.js';
import type { ConsoleState, ItemView, SamplingItemView } from '../../shared/contract/state.js';
import { startMirror } from '../../renderer/mirror.js';
import { openItemDetail, prefetchItem, PREFETCH_HOLD_MS, useConsole } from '../../renderer/store.js';
import { withItemMedia } from '../../renderer/item-media.js';
import { elideMedia, mediaRefsIn } from '../../shared/domain/media-refs.js';
import { MEDIA_REF_MIN_CHARS } from '../../shared/contract/media-refs.js';

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
  original: { messages: [{ role: 'user', content: { type: 'text', text: 'Tell me a story' } }], maxTokens: 1 },
  model: { providerId: 'manual', modelId: 'manual', reason: '' },
};
const state = (version: number, items: ItemView[]): ConsoleState => ({
  version,
  servers: [],
  calls: [],
  items: items.map(projectItem),
  providers: [],
  notices: [],
  settings: { host: 'test', userDataDir: '/u', serversConfigPath: '/u/s', providersConfigPath: '/u/p', historyPath: '/u/h' },
});
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** A fake API: `served` states in turn, `whole` items by id at `version`, and the event emitter. */
function fakeApi(served: ConsoleState[], whole: () => { item: ItemView; version: number }) {
  let emit: (e: ConsoleEvent) => void = () => undefined;
  const counts = { getState: 0, getItem: 0 };
  const api = {
    onEvent: (fn: (e: ConsoleEvent) => void) => {
      emit = fn;
      return () => undefined;
    },
    getState: async () => served[counts.getState++]!,
    getItem: async () => {
      counts.getItem++;
      return structuredClone(whole());
    },
  } as unknown as ConsoleApi;
  return { api, counts, emit: (e: ConsoleEvent) => emit(e) };
}

describe('renderer mirror', () => {
  beforeEach(() => useConsole.setState({ mirror: null, details: {}, drafts: {} }));

  it('applies item changes in order, and fetches the whole state again after a missed patch', async () => {
    const { api, counts, emit } = fakeApi([state(1, [item]), state(4, [{ ...item, status: 'rejected', updatedAt: 4 }])], () => ({ item, version: 1 }));
    const stop = startMirror(api);
    await settle();
    expect(useConsole.getState().mirror?.version).toBe(1);
    emit({ type: 'patch', patch: { version: 2, items: { upsert: [], remove: [], change: [{ id: 'a', set: { status: 'generating' } }] } } });
    expect(useConsole.getState().mirror?.items[0]?.status).toBe('generating');
    // Version 3 never arrives; version 4's change cannot apply to version 2.
    emit({ type: 'patch', patch: { version: 4, items: { upsert: [], remove: [], change: [{ id: 'a', set: { status: 'rejected' } }] } } });
    expect(useConsole.getState().mirror?.version).toBe(2); // still shown while fetching
    emit({ type: 'patch', patch: { version: 5, notices: [{ id: 'n', level: 'info', message: 'later', at: 5 }] } });
    await settle();
    expect(counts.getState).toBe(2);
    const mirror = useConsole.getState().mirror!;
    expect(mirror.version).toBe(5);
    expect(mirror.items[0]).toMatchObject({ status: 'rejected' });
    expect(mirror.notices).toHaveLength(1);
    stop();
  });

  it('holds summaries only; an opened item is fetched whole, and a streaming response reaches it as its new text', async () => {
    const generating: SamplingItemView = { ...item, status: 'generating', generation: { startedAt: 2, text: 'Once' } };
    const { api, counts, emit } = fakeApi([state(2, [generating])], () => ({ item: generating, version: 2 }));
    const stop = startMirror(api);
    await settle();
    const mirror = useConsole.getState().mirror!;
    expect(mirror.items[0]).toMatchObject({ kind: 'sampling', preview: 'Tell me a story', generatingSince: 2 });
    expect(JSON.stringify(mirror)).not.toContain('"original"');
    expect(counts.getItem).toBe(0); // nothing open, nothing fetched

    const close = openItemDetail('a');
    await settle();
    expect(counts.getItem).toBe(1);
    expect(useConsole.getState().details.a?.item).toMatchObject({ generation: { text: 'Once' } });
    emit({ type: 'patch', patch: { version: 3, items: { upsert: [], remove: [] }, details: [{ id: 'a', append: ' upon' }] } });
    emit({ type: 'patch', patch: { version: 4, items: { upsert: [], remove: [] }, details: [{ id: 'a', append: ' a time' }] } });
    expect(useConsole.getState().details.a?.item).toMatchObject({ generation: { text: 'Once upon a time' } });
    expect(useConsole.getState().details.a?.version).toBe(4);
    expect(counts.getItem).toBe(1); // deltas, not the item again
    close();
    stop();
  });

  it('a prefetched item is fetched once, is there when its view opens, and stays among the recently used after the hold', async () => {
    vi.useFakeTimers();
    try {
      const { api, counts } = fakeApi([state(1, [item])], () => ({ item, version: 1 }));
      const stop = startMirror(api);
      await vi.advanceTimersByTimeAsync(0);
      prefetchItem('a');
      await vi.advanceTimersByTimeAsync(0);
      expect(counts.getItem).toBe(1);
      expect(useConsole.getState().details.a?.item.id).toBe('a');
      const close = openItemDetail('a');
      expect(counts.getItem).toBe(1); // the view found it fetched
      await vi.advanceTimersByTimeAsync(PREFETCH_HOLD_MS);
      expect(useConsole.getState().details.a).toBeDefined(); // still open in the view
      close();
      expect(useConsole.getState().details.a).toBeDefined(); // closed: kept among the recently used
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a reply older than the mirror catches up with the patches that arrived before it', async () => {
    const generating: SamplingItemView = { ...item, status: 'generating', generation: { startedAt: 2, text: 'A' } };
    let release: () => void = () => undefined;
    const { api, emit } = fakeApi([state(2, [generating])], () => ({ item: generating, version: 2 }));
    const slow = api.getItem;
    api.getItem = (input) => new Promise((resolve) => (release = () => void slow(input).then(resolve)));
    const stop = startMirror(api);
    await settle();
    const close = openItemDetail('a');
    emit({ type: 'patch', patch: { version: 3, items: { upsert: [], remove: [] }, details: [{ id: 'a', append: 'B' }] } });
    release();
    await settle();
    expect(useConsole.getState().details.a).toMatchObject({ item: { generation: { text: 'AB' } }, version: 3 });
    close();
    stop();
  });

  describe('media by reference', () => {
    const image = 'QUJD'.repeat(MEDIA_REF_MIN_CHARS / 4 + 1);
    const withImage: SamplingItemView = {
      ...item,
      original: { messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data: image }] }], maxTokens: 1 },
    };
    /** A fake whose `getItem` elides as main does and whose `getItemMedia` answers when `release` is called (or fails with `fail`). */
    function mediaApi() {
      const { api, counts, emit } = fakeApi([state(1, [withImage])], () => ({ item: withImage, version: 1 }));
      const { value, refs, payloads } = elideMedia(withImage);
      const asked: string[][] = [];
      let answer: (ok: boolean) => void = () => undefined;
      api.getItem = async () => (counts.getItem++, { item: value, version: 1, media: refs });
      api.getItemMedia = ({ refs: wanted }) => {
        asked.push(wanted);
        return new Promise((resolve, reject) => (answer = (ok) => (ok ? resolve({ media: wanted.map((ref) => ({ ref, data: payloads.get(ref)! })) }) : reject(new Error('gone')))));
      };
      return { api, emit, asked, release: () => answer(true), fail: () => answer(false), ref: refs[0]!.ref };
    }
    const data = () => ((useConsole.getState().details.a?.item as SamplingItemView | undefined)?.original.messages[0]!.content as Array<{ data?: string }> | undefined)?.[1]?.data;

    it('the item is shown with references at once; its payloads are fetched after it and put in place', async () => {
      const { api, asked, release, ref } = mediaApi();
      const stop = startMirror(api);
      await settle();
      const close = openItemDetail('a');
      await settle();
      expect(data()).toBe(ref); // the review can show the item before its image arrives
      expect(asked).toEqual([[ref]]);
      release();
      await settle();
      expect(data()).toBe(image);
      close();
      stop();
    });

    it('params built before the payloads came wait for them; a failed fetch leaves the references and the approval fails in words', async () => {
      const { api, asked, release, fail, ref } = mediaApi();
      const stop = startMirror(api);
      await settle();
      const close = openItemDetail('a');
      await settle();
      const built = (useConsole.getState().details.a!.item as SamplingItemView).original;
      const sending = withItemMedia('a', built);
      expect(asked).toHaveLength(1); // joined the fetch under way, not a second one
      release();
      expect(mediaRefsIn(await sending)).toEqual([]);
      expect(JSON.stringify(await sending)).toContain(image);

      // Fetched again for params still holding the reference (the fetch above is over): it fails.
      const again = withItemMedia('a', built);
      expect(asked).toEqual([[ref], [ref]]);
      fail();
      await expect(again).rejects.toThrow(/could not be loaded/);
      expect(await withItemMedia('a', withImage.original)).toBe(withImage.original); // nothing to fetch
      close();
      stop();
    });
  });

  it("keeps one draft entry per item and drops its parts when the item leaves the review they were made for", async () => {
    const { api, emit } = fakeApi([state(1, [item])], () => ({ item, version: 1 }));
    const stop = startMirror(api);
    await settle();
    const request = { texts: { '0:0': 'edited' }, editing: {}, systemPrompt: '', maxTokens: '1', temperature: '', model: '' };
    const { setRequestDraft, setRequestExtras, setResponseDraft } = useConsole.getState();
    setRequestDraft('a', request);
    setRequestExtras('a', { removedBlocks: {}, removedTools: { t: true } });
    expect(useConsole.getState().drafts.a).toEqual({ request, requestExtras: { removedBlocks: {}, removedTools: { t: true } } });
    setResponseDraft('a', { texts: { '0:0': 'mine' }, editing: {} });
    emit({ type: 'patch', patch: { version: 2, items: { upsert: [], remove: [], change: [{ id: 'a', set: { status: 'awaiting_response_review' } }] } } });
    expect(useConsole.getState().drafts.a).toEqual({ response: { texts: { '0:0': 'mine' }, editing: {} } });
    emit({ type: 'patch', patch: { version: 3, items: { upsert: [], remove: ['a'] } } });
    expect(useConsole.getState().drafts.a).toBeUndefined();
    stop();
  });
});
