/**
 * Debounced saving of drafts to main (`saveDraft`), per item: a save goes out
 * {@link DraftTiming.debounceMs} after the last change, and at the latest
 * {@link DraftTiming.maxWaitMs} after the first unsaved one, so what a person types is in main (and
 * in history) within a second of the last keystroke even while they keep typing. Parts queued for
 * one item merge (the newest of each part wins); each save names the version of the review it was
 * typed in (a part of another version is sent first). `flush` sends at once (the item is leaving
 * the review, or the page is closing).
 *
 * Nothing typed is lost while main cannot take it (the connection is down, the console restarts):
 * a save that fails for any reason other than a definite refusal (`not_found`: neither the queue
 * nor History has the item; `invalid_input`) is tried again — after {@link DraftTiming.retryMs},
 * doubling up to {@link DraftTiming.maxRetryMs} — for as long as the page lives, and every save
 * is kept in {@link UnsavedDrafts} (the page's localStorage: {@link storageDrafts}) from when it
 * goes out until main took it, so the next page sends what this one could not (autosave.ts).
 * No DOM and no store: timers, the send function and the storage are injected, so tests drive it
 * with fake ones.
 */
import type { DraftInput } from '../../../shared/contract/drafts.js';

/** When saves go out, in ms. */
export interface DraftTiming {
  /** Quiet time after the last change before saving. */
  debounceMs: number;
  /** Longest an unsaved change waits while changes keep coming. */
  maxWaitMs: number;
  /** Wait before trying a failed save again (doubled at each further failure). */
  retryMs: number;
  /** Longest wait between two tries. */
  maxRetryMs: number;
}

/** The default timing: 300 ms quiet, at most 1 s, retry after 2 s, then 4, 8 … up to 30 s. */
export const DRAFT_TIMING: DraftTiming = { debounceMs: 300, maxWaitMs: 1000, retryMs: 2000, maxRetryMs: 30_000 };

/** One save: the item, its draft parts, and the `contentVersion` of the review they were typed in. */
export interface DraftSave {
  itemId: string;
  draft: DraftInput;
  version?: string;
}

/**
 * Where saves wait until main took them, one per item and version (`key`): `put` before a save
 * goes out, `remove` once main took it (only if `seq` is still the one stored), `all` to send
 * again what a page before this one left.
 */
export interface UnsavedDrafts {
  put(key: string, save: DraftSave & { seq: number }): void;
  remove(key: string, seq: number): void;
  all(): DraftSave[];
}

/** The saver of one page. */
export interface DraftSaver {
  /** Queues `part` of `itemId`'s draft for saving, typed in the review of version `version`. */
  queue(itemId: string, part: DraftInput, version?: string): void;
  /** Sends `itemId`'s queued draft now, if any. */
  flush(itemId: string): void;
  /** Sends every queued draft now. */
  flushAll(): void;
  /** Whether `itemId` has a draft not yet sent. */
  pending(itemId: string): boolean;
}

/** Changes typed and not yet sent (the debounce). */
interface Pending {
  input: DraftInput;
  version?: string;
  /** When the oldest unsent change was queued (ms). */
  since: number;
  timer: unknown;
}

/**
 * What was sent of one item and version and not yet taken by main: every part since the last
 * save main took, merged (newest part wins), so a newer save carries an older one's parts too.
 */
interface Unsent {
  itemId: string;
  version?: string;
  input: DraftInput;
  /** Which save this is (counting every send): only the newest of its key is ever tried again. */
  save: number;
  retries: number;
  /** The retry waiting, if any. */
  timer?: unknown;
}

/** Time for the saver: `now` in ms, and one-shot timers. */
export interface SaverClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

const REAL_CLOCK: SaverClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as Parameters<typeof clearTimeout>[0]),
};

/** No storage: saves live in this page only. */
const NO_STORAGE: UnsavedDrafts = { put: () => undefined, remove: () => undefined, all: () => [] };

/** The storage key of an item's save of one version. */
export const unsavedKey = (itemId: string, version?: string): string => `${itemId}|${version ?? ''}`;

/** Errors after which a save is dropped: nothing will ever take it. */
const DEFINITE = new Set(['not_found', 'invalid_input']);

/** Creates a saver over `send` (the API's `saveDraft`), keeping saves in `kept` until main took them. */
export function createDraftSaver(
  send: (input: DraftSave) => Promise<unknown>,
  timing: DraftTiming = DRAFT_TIMING,
  clock: SaverClock = REAL_CLOCK,
  kept: UnsavedDrafts = NO_STORAGE,
): DraftSaver {
  const queued = new Map<string, Pending>();
  /** Sent and not yet taken, by {@link unsavedKey}. */
  const unsent = new Map<string, Unsent>();
  let saves = 0;

  const schedule = (itemId: string, p: Omit<Pending, 'timer'>, delay: number) => {
    const before = queued.get(itemId);
    if (before) clock.clearTimer(before.timer);
    queued.set(itemId, { ...p, timer: clock.setTimer(() => flush(itemId), delay) });
  };

  /** Sends what `key` holds unsent (kept in storage first); a failure is tried again unless a newer save of it went out. */
  const sendUnsent = (key: string) => {
    const u = unsent.get(key);
    if (!u) return;
    if (u.timer !== undefined) clock.clearTimer(u.timer);
    u.timer = undefined;
    const mine = (u.save = ++saves);
    const save: DraftSave = { itemId: u.itemId, draft: u.input, ...(u.version !== undefined && { version: u.version }) };
    kept.put(key, { ...save, seq: mine });
    const done = () => {
      if (unsent.get(key)?.save === mine) unsent.delete(key);
      kept.remove(key, mine);
    };
    Promise.resolve()
      .then(() => send(save))
      .then(done, (err: unknown) => {
        const code = (err as { code?: unknown } | null)?.code;
        if (typeof code === 'string' && DEFINITE.has(code)) return done();
        if (unsent.get(key)?.save !== mine) return; // a newer save of this key went out: it carries this text too
        u.timer = clock.setTimer(() => sendUnsent(key), Math.min(timing.retryMs * 2 ** u.retries, timing.maxRetryMs));
        u.retries++;
      });
  };

  const flush = (itemId: string) => {
    const p = queued.get(itemId);
    if (!p) return;
    clock.clearTimer(p.timer);
    queued.delete(itemId);
    const key = unsavedKey(itemId, p.version);
    const before = unsent.get(key);
    unsent.set(key, { itemId, ...(p.version !== undefined && { version: p.version }), input: { ...before?.input, ...p.input }, save: before?.save ?? 0, retries: 0, timer: before?.timer });
    sendUnsent(key);
  };

  return {
    queue(itemId, part, version) {
      if (queued.has(itemId) && queued.get(itemId)!.version !== version) flush(itemId); // typed in another review: its own save
      const before = queued.get(itemId);
      const now = clock.now();
      const since = before?.since ?? now;
      const delay = Math.max(0, Math.min(timing.debounceMs, since + timing.maxWaitMs - now));
      schedule(itemId, { input: { ...before?.input, ...part }, version, since }, delay);
    },
    flush,
    flushAll: () => [...queued.keys()].forEach(flush),
    pending: (itemId) => queued.has(itemId),
  };
}

/** Key of the page's storage where saves wait until main took them. */
export const UNSAVED_KEY = 'mcp-console-unsaved-drafts';

/** Most characters of text one kept save may hold (the storage holds some 5 million in all). */
const STORAGE_MAX_CHARS = 1_000_000;

/** Whether the texts of `value` stay under {@link STORAGE_MAX_CHARS} (stops counting once over). */
function fitsStorage(value: unknown): boolean {
  let left = STORAGE_MAX_CHARS;
  const stack: unknown[] = [value];
  while (stack.length > 0 && left > 0) {
    const v = stack.pop();
    if (typeof v === 'string') left -= v.length;
    else if (v !== null && typeof v === 'object') stack.push(...Object.values(v));
  }
  return left > 0;
}

/** Saves older than this are not sent again by a later page (ms): a week. */
const UNSAVED_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

type Stored = Record<string, DraftSave & { seq: number; at: number }>;

/**
 * {@link UnsavedDrafts} in `storage` (the page's localStorage), under {@link UNSAVED_KEY}. A
 * storage that is full or unavailable keeps nothing (saves still go on being tried in the page).
 */
export function storageDrafts(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): UnsavedDrafts {
  const read = (): Stored => {
    try {
      return (JSON.parse(storage?.getItem(UNSAVED_KEY) ?? '{}') as Stored | null) ?? {};
    } catch {
      return {};
    }
  };
  const write = (all: Stored) => {
    try {
      storage?.setItem(UNSAVED_KEY, JSON.stringify(all));
    } catch {
      // full or unavailable: the save is still tried from this page
    }
  };
  return {
    put(key, save) {
      if (!fitsStorage(save.draft)) return; // a pasted megabyte prompt: tried from this page only
      write({ ...read(), [key]: { ...save, at: Date.now() } });
    },
    remove(key, seq) {
      const all = read();
      if (all[key]?.seq !== seq) return;
      delete all[key];
      write(all);
    },
    all: () =>
      Object.values(read())
        .filter((s) => Date.now() - s.at < UNSAVED_MAX_AGE_MS)
        .map(({ itemId, draft, version }) => ({ itemId, draft, ...(version !== undefined && { version }) })),
  };
}
