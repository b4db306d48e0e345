/**
 * The team's shared queue: every instance's state hub shows the items a person may review on any
 * instance of the team — its own (held here: their callers' connections are this process's) and
 * the others' (held there) — alike; the renderer cannot tell them apart.
 *
 * Held here: queue-mirror.ts writes them as rows (queue-rows.ts). Held elsewhere: each `item`
 * notification names the rows that changed; they are read and put into the hub (a row gone: the
 * item leaves the hub). The rows are the truth: after the listener reconnected (notifications may
 * have been missed) every row is read again, and this instance's own are written again. A window
 * opens a remote item like a local one (`getItem`); its big media come from History's payloads
 * (`getItemMedia`). Decisions about any item go through decisions.ts.
 */
import type { ApiResults } from '../../shared/contract/api.js';
import type { MediaPayload } from '../../shared/contract/media-refs.js';
import { mediaRefsIn, parseMediaRef } from '../../shared/domain/media-refs.js';
import type { Logger } from '../logger.js';
import type { StateHub } from '../state-hub.js';
import type { HistoryStore } from '../store/history-api.js';
import { isConnectionError } from '../store/pg/connection.js';
import { blobString, type BlobEncoding } from '../store/pg/write.js';
import type { TeamDatabase } from './database.js';
import { TEAM_CHANNEL } from './notify.js';
import { createQueueMirror, type QueueMirror } from './queue-mirror.js';
import { ALL_ROWS_SQL, decodeItem, mediaOf, NOTIFY_ITEMS_SQL, PAYLOADS_SQL, REQUESTS_SQL, ROWS_SQL, type ItemRow } from './queue-rows.js';

/** Where an item of the shared queue is held: here (and its review phase), or on `holder` (null: nobody, it ended when its holder stopped). */
export type ItemPlace = { local: true; phase: number } | { local: false; holder: string | null; phase: number };

/** What the queue keeps of an item held elsewhere. */
interface Remote {
  holder: string | null;
  phase: number;
  rev: number;
  request: unknown;
  /** Media reference → SHA-256 of the payload. */
  media: Record<string, string>;
}

/** What {@link createTeamQueue} needs. */
export interface TeamQueueDeps {
  team: Pick<TeamDatabase, 'conn' | 'notifier' | 'lease'>;
  /** The console's state hub. */
  hub: StateHub;
  history: Pick<HistoryStore, 'durable'>;
  logger: Logger;
}

/** The shared queue as one instance sees it. */
export interface TeamQueue {
  /** This instance's side (the hub its request side uses, its review phases). */
  mirror: QueueMirror;
  /** Where item `id` is held; undefined when the shared queue has no such item. */
  placeOf(id: string): ItemPlace | undefined;
  /** `getItem` of an item held elsewhere (its media by reference); undefined when it is not one. */
  openRemote(id: string): ApiResults['getItem'] | undefined;
  /** `getItemMedia` of an item held elsewhere, from History's payloads; undefined when it is not one. @throws (rejects) HistoryUnavailableError while the database cannot be reached */
  remoteMedia(id: string, refs: readonly string[]): Promise<MediaPayload[] | undefined>;
  /** Removes an item nobody holds any more (dismissed). @throws (rejects) HistoryUnavailableError while the database cannot be reached */
  forgetOrphan(id: string): Promise<void>;
  /** Reads every row (at start, and after a reconnect). */
  readAll(): Promise<void>;
  /** Resolves once the rows notified before the call are read (tests). */
  settled(): Promise<void>;
  /** Stops following the rows and writing this instance's. */
  close(): void;
}

/** Creates the shared queue over the console's hub (items held elsewhere are read in the background). */
export function createTeamQueue(deps: TeamQueueDeps): TeamQueue {
  const { team, hub, logger } = deps;
  const mirror = createQueueMirror({ team, hub, history: deps.history, logger });
  const remote = new Map<string, Remote>();
  const wanted = new Set<string>();
  let full = false;
  let reading: Promise<void> | undefined;

  const schedule = () => {
    reading ??= read().finally(() => {
      reading = undefined;
      if ((full || wanted.size > 0) && team.conn.available()) schedule();
    });
    return reading;
  };
  const read = async () => {
    try {
      while (full || wanted.size > 0) {
        if (full) {
          full = false;
          await readIndex();
        }
        const ids = [...wanted].filter((id) => mirror.heldAs(id) === undefined);
        wanted.clear();
        if (ids.length > 0) await readRows(ids);
      }
    } catch (err) {
      if (isConnectionError(err)) full = true; // read everything once the database is back
      else logger.error('team queue: could not read items', { error: String(err) });
    }
  };
  /** Every row's revision: the rows that changed are read, the items whose row is gone leave. */
  const readIndex = async () => {
    const rows = await team.conn.query<{ id: string; rev: number }>(ALL_ROWS_SQL);
    const present = new Set(rows.map((r) => r.id));
    for (const id of remote.keys()) if (!present.has(id)) drop(id);
    for (const r of rows) if (remote.get(r.id)?.rev !== r.rev) wanted.add(r.id);
  };
  const readRows = async (ids: string[]) => {
    const rows = await team.conn.query<Omit<ItemRow, 'request'>>(ROWS_SQL, [ids]);
    const me = team.lease.id();
    const changed = rows.filter((r) => remote.get(r.id)?.rev !== r.rev && mirror.heldAs(r.id) === undefined && r.holder !== me);
    const unknown = changed.filter((r) => !remote.has(r.id)).map((r) => r.id);
    const requests = new Map(unknown.length === 0 ? [] : (await team.conn.query<{ id: string; request: string }>(REQUESTS_SQL, [unknown])).map((r) => [r.id, r.request]));
    for (const row of changed) {
      try {
        const known = remote.get(row.id);
        const request = known ? known.request : JSON.parse(requests.get(row.id) ?? '');
        hub.upsertItem(decodeItem(row, request));
        remote.set(row.id, { holder: row.holder, phase: row.phase, rev: row.rev, request, media: mediaOf(row) });
      } catch (err) {
        logger.warn('team queue: an item row could not be read', { item: row.id, error: String(err) });
      }
    }
    const found = new Set(rows.map((r) => r.id));
    for (const id of ids) if (!found.has(id)) drop(id);
  };
  const drop = (id: string) => {
    if (!remote.delete(id)) return;
    hub.removeItem(id);
  };

  const unsubscribe = team.notifier.subscribe('item', (e) => {
    if (e.id === undefined) return;
    wanted.add(e.id);
    void schedule();
  });
  const unresync = team.notifier.onResync(() => {
    full = true;
    void schedule();
    mirror.rewrite();
  });
  team.conn.onAvailable(() => {
    if (full || wanted.size > 0) void schedule();
  });

  return {
    mirror,
    placeOf(id) {
      const local = mirror.local(id);
      if (local) return { local: true, phase: local.phase };
      const r = remote.get(id);
      return r && { local: false, holder: r.holder, phase: r.phase };
    },
    openRemote(id) {
      if (!remote.has(id)) return undefined;
      const found = hub.open(id);
      if (!found) return undefined;
      const refs = mediaRefsIn(found.item).map((ref) => ({ ref, chars: parseMediaRef(ref)?.chars ?? 0 }));
      return refs.length > 0 ? { ...found, media: refs } : found;
    },
    async remoteMedia(id, refs) {
      const r = remote.get(id);
      if (!r) return undefined;
      const hashes = [...new Set(refs.map((ref) => r.media[ref]).filter((h): h is string => h !== undefined))];
      if (hashes.length === 0) return [];
      const rows = await team.conn.query<{ sha256: string; encoding: BlobEncoding; data: Buffer }>(PAYLOADS_SQL, [hashes]);
      const bySha = new Map(rows.map((b) => [b.sha256, blobString(b.encoding, b.data)]));
      return refs.flatMap((ref) => {
        const data = r.media[ref] === undefined ? undefined : bySha.get(r.media[ref]!);
        return data === undefined ? [] : [{ ref, data }];
      });
    },
    async forgetOrphan(id) {
      await team.conn.transaction(async (query) => {
        const gone = await query<{ id: string }>('DELETE FROM team_items WHERE id = $1 AND holder IS NULL RETURNING id', [id]);
        if (gone.length > 0) await query(NOTIFY_ITEMS_SQL, [TEAM_CHANNEL, [id], team.lease.id()]);
      });
    },
    async readAll() {
      full = true;
      await schedule();
    },
    async settled() {
      while (reading) await reading;
    },
    close() {
      unsubscribe();
      unresync();
      mirror.close();
    },
  };
}
