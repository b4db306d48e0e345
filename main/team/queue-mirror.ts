/**
 * This instance's side of the shared queue: the items it holds (their callers' connections are
 * its own) written as rows (queue-rows.ts) for every instance to read.
 *
 * The request side changes items through a hub that tells the mirror ({@link QueueMirror.hub});
 * each change is noted at once (the item's review phase counted: a new status or content version is
 * a new phase, the key of a decision: decisions.ts) and written a moment later, the changes of the
 * same moment in one transaction that notifies every instance of the ids. Only items a person may
 * review are written: from the moment one awaits a review or an answer, until it leaves the queue.
 * A row is written after History committed the item's state (a row never shows what History does
 * not hold), and each big media payload it references is in History's `blobs` first.
 *
 * When the database cannot be reached, the changes stay noted and are written once it is back
 * (the latest state of each item). Items held under an id this instance lost (it was cut off past
 * its lease: main/team/instances.ts) are never written again: a survivor ended them.
 */
import { createHash } from 'node:crypto';
import type { ItemView } from '../../shared/contract/state.js';
import { waitsOnPerson } from '../../shared/contract/status.js';
import { elideMedia } from '../../shared/domain/media-refs.js';
import type { Logger } from '../logger.js';
import type { StateHub } from '../state-hub.js';
import type { HistoryStore } from '../store/history-api.js';
import { isConnectionError } from '../store/pg/connection.js';
import { BLOB_SQL, mediaBlobParams } from '../store/pg/write.js';
import type { TeamDatabase } from './database.js';
import { TEAM_CHANNEL } from './notify.js';
import { DELETE_ITEMS_SQL, encodeItem, HELD_PAYLOADS_SQL, NOTIFY_ITEMS_SQL, UPSERT_ITEMS_SQL, upsertItemsParams, type ItemRow } from './queue-rows.js';

/** What the mirror keeps of one item the request side holds. */
interface Track {
  /** The instance id it is held under (this instance's id when it arrived). */
  heldAs: string;
  /** Review phases so far (1 from the first change). */
  phase: number;
  /** The status and version of the current phase. */
  key: string;
  /** It awaited a person at some point: it is (or will be) a row. */
  shared: boolean;
  /** It left the hub: its row is to be deleted. */
  removed: boolean;
  /** The item as last written. */
  written?: ItemView;
  requestWritten: boolean;
  /** Media payloads by reference, with their SHA-256 (a payload is hashed once). */
  media: Map<string, { data: string; sha256: string }>;
  /** SHA-256 of the payloads known to be in `blobs`. */
  stored: Set<string>;
  /** Held under an id this instance lost: never written again. */
  lost: boolean;
}

/** What the mirror needs. */
export interface MirrorDeps {
  team: Pick<TeamDatabase, 'conn' | 'lease'>;
  hub: StateHub;
  history: Pick<HistoryStore, 'durable'>;
  logger: Logger;
}

/** This instance's items as rows. */
export interface QueueMirror {
  /** The hub the request side changes items through (everything else passes to the console's hub). */
  hub: StateHub;
  /** Whether this instance holds item `id` now, and its review phase. */
  local(id: string): { phase: number } | undefined;
  /** The instance id item `id` is held under, when this instance holds it. */
  heldAs(id: string): string | undefined;
  /** Marks the items held under `oldId` lost (see the module comment). */
  leaseLost(oldId: string): void;
  /** Writes every item again (after a reconnect: a write may have been missed). */
  rewrite(): void;
  /** Resolves once every change noted before the call was written (or failed). */
  flushed(): Promise<void>;
  /** Stops writing. */
  close(): void;
}

/** Creates the mirror over the console's hub. */
export function createQueueMirror(deps: MirrorDeps): QueueMirror {
  const { hub, team, logger } = deps;
  const tracks = new Map<string, Track>();
  const dirty = new Set<string>();
  let running: Promise<void> | undefined;
  let closed = false;

  const note = (id: string, item: ItemView | undefined) => {
    let t = tracks.get(id);
    if (!item) {
      if (!t) return;
      if (!t.shared) return void tracks.delete(id);
      t.removed = true;
    } else {
      if (!t) tracks.set(id, (t = { heldAs: team.lease.id(), phase: 0, key: '', shared: false, removed: false, requestWritten: false, media: new Map(), stored: new Set(), lost: false }));
      t.removed = false;
      const key = `${item.status}|${item.contentVersion ?? ''}`;
      if (key !== t.key) {
        t.key = key;
        t.phase++;
      }
      if (waitsOnPerson(item.status)) t.shared = true;
      if (!t.shared) return;
    }
    dirty.add(id);
    schedule();
  };
  const schedule = () => {
    if (running || closed) return;
    running = new Promise<void>((resolve) => setImmediate(resolve)).then(drain).finally(() => {
      running = undefined;
      if (dirty.size > 0 && team.conn.available()) schedule();
    });
  };
  const drain = async () => {
    while (dirty.size > 0 && !closed) {
      const ids = [...dirty];
      dirty.clear();
      try {
        await write(ids);
      } catch (err) {
        // Unreachable: written again once it is back (connection.ts onAvailable). Refused: a defect, logged once.
        if (isConnectionError(err)) ids.forEach((id) => dirty.add(id));
        else logger.error('team queue: could not write items', { items: ids.length, error: String(err) });
        return;
      }
    }
  };
  const write = async (ids: string[]) => {
    const upserts: Array<{ t: Track; item: ItemView }> = [];
    const deletes: string[] = [];
    for (const id of ids) {
      const t = tracks.get(id);
      if (!t || t.lost || !t.shared) continue;
      if (t.removed) deletes.push(id);
      else {
        const item = hub.getItem(id);
        if (item && item !== t.written) upserts.push({ t, item });
      }
    }
    if (upserts.length === 0 && deletes.length === 0) return;
    if (upserts.length > 0) await deps.history.durable().catch((err: unknown) => logger.warn('team queue: History not durable before writing items', { error: String(err) }));
    const rows = await Promise.all(upserts.map(({ t, item }) => rowOf(t, item)));
    await storePayloads(upserts.map((u) => u.t));
    const me = team.lease.id();
    await team.conn.transaction(async (query) => {
      if (rows.length > 0) await query(UPSERT_ITEMS_SQL, upsertItemsParams(rows));
      if (deletes.length > 0) await query(DELETE_ITEMS_SQL, [deletes, me]);
      await query(NOTIFY_ITEMS_SQL, [TEAM_CHANNEL, [...rows.map((r) => r.id), ...deletes], me]);
    });
    upserts.forEach(({ t, item }) => ((t.written = item), (t.requestWritten = true)));
    for (const id of deletes) if (tracks.get(id)?.removed) tracks.delete(id);
  };
  /** The row of `item`, its payloads hashed (once each, off the event loop). */
  const rowOf = async (t: Track, item: ItemView): Promise<Omit<ItemRow, 'rev'>> => {
    const elided = elideMedia(item);
    for (const [ref, data] of elided.payloads) {
      if (t.media.get(ref)?.data === data) continue;
      t.media.set(ref, { data, sha256: await sha256Of(data) });
    }
    for (const ref of [...t.media.keys()]) if (!elided.payloads.has(ref)) t.media.delete(ref);
    return encodeItem(item, elided, t.heldAs, t.phase, !t.requestWritten, (ref) => t.media.get(ref)!.sha256);
  };
  /** Puts in History's `blobs` the payloads it does not hold yet (a response's media before History saved it). */
  const storePayloads = async (list: Track[]) => {
    const wanted = new Map<string, { data: string }>();
    for (const t of list) for (const m of t.media.values()) if (!t.stored.has(m.sha256)) wanted.set(m.sha256, m);
    if (wanted.size === 0) return;
    const held = new Set((await team.conn.query<{ sha256: string }>(HELD_PAYLOADS_SQL, [[...wanted.keys()]])).map((r) => r.sha256));
    for (const [sha256, m] of wanted) {
      if (!held.has(sha256)) await team.conn.query(BLOB_SQL, mediaBlobParams({ sha256, data: m.data, bytes: Math.floor((m.data.length * 3) / 4), mimeType: null }));
    }
    for (const t of list) for (const m of t.media.values()) t.stored.add(m.sha256);
  };
  team.conn.onAvailable(() => schedule());

  return {
    hub: {
      ...hub,
      upsertItem(item) {
        hub.upsertItem(item);
        note(item.id, item);
      },
      removeItem(id) {
        hub.removeItem(id);
        note(id, undefined);
      },
    },
    local(id) {
      const t = tracks.get(id);
      return t && !t.removed && !t.lost ? { phase: t.phase } : undefined;
    },
    heldAs: (id) => tracks.get(id)?.heldAs,
    leaseLost(oldId) {
      for (const t of tracks.values()) if (t.heldAs === oldId) t.lost = true;
    },
    rewrite() {
      for (const [id, t] of tracks) {
        if (!t.shared || t.lost) continue;
        t.written = undefined;
        dirty.add(id);
      }
      schedule();
    },
    async flushed() {
      while (running || (dirty.size > 0 && team.conn.available() && !closed)) {
        schedule();
        await running;
      }
    },
    close() {
      closed = true;
    },
  };
}

/** Hex SHA-256 of a payload's base64 text as UTF-8 (History's key for it: main/store/media.ts). */
async function sha256Of(data: string): Promise<string> {
  if (data.length < 1 << 20) return createHash('sha256').update(data).digest('hex');
  return Buffer.from(await crypto.subtle.digest('SHA-256', Buffer.from(data, 'utf8'))).toString('hex');
}
