import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_DETAIL, openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import { base64Bytes } from '../../main/store/media.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { fullEntry, minimalEntry, tempDir } from './fixtures/entries.js';

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;
let store: HistoryStore;

beforeEach(() => {
  tmp = tempDir();
  dbPath = join(tmp.dir, 'history.db');
  store = openHistoryStore(dbPath);
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

/** Row counts of the store's tables, read on a second connection. */
function counts(): Record<string, number> {
  const db = new Database(dbPath);
  try {
    const n = (sql: string) => (db.prepare(sql).raw().get() as [number])[0];
    return {
      history: n('SELECT count(*) FROM history'),
      data: n('SELECT count(*) FROM history_data'),
      blobs: n('SELECT count(*) FROM blobs'),
      links: n('SELECT count(*) FROM history_blobs'),
      fts: n(`SELECT count(*) FROM history_fts WHERE history_fts MATCH '"zanzibar"'`),
    };
  } finally {
    db.close();
  }
}

const PNG = Buffer.alloc(30_000, 7).toString('base64'); // 30,000 bytes decoded
const WAV = Buffer.alloc(12_345, 3).toString('base64');

/** An entry whose request holds an image (twice) and an audio clip, and whose response repeats the image. */
function mediaEntry(id: string, at: number, image = PNG): HistoryEntry {
  return fullEntry(id, at, {
    original: {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Tell me about zanzibar' }, { type: 'image', data: image, mimeType: 'image/png', _meta: { k: 1 } }] },
        { role: 'assistant', content: { type: 'text', text: 'ok' } },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 't', content: [{ type: 'image', data: image, mimeType: 'image/png' }, { type: 'resource', resource: { uri: 'file:///a.wav', mimeType: 'audio/wav', blob: WAV } }] }] },
      ],
      maxTokens: 50,
    },
    sent: { messages: [{ role: 'user', content: { type: 'audio', data: WAV, mimeType: 'audio/wav' } }], maxTokens: 50 },
    generated: { role: 'assistant', content: { type: 'image', data: image, mimeType: 'image/png' }, model: 'm' },
    delivered: { role: 'assistant', content: { type: 'image', data: image, mimeType: 'image/png' }, model: 'm' },
  });
}

describe('big payloads stored once', () => {
  it('stores each distinct payload once, round-trips the entry exactly, and reports its size', () => {
    const entry = mediaEntry('m1', 1000);
    store.save(entry);
    store.save(mediaEntry('m2', 2000)); // same payloads again
    expect(store.get('m1')).toStrictEqual(entry);
    expect(store.get('m2')).toStrictEqual(mediaEntry('m2', 2000));
    expect(counts()).toMatchObject({ blobs: 2, links: 4 });
    const item = store.list({ limit: 1, offset: 1 }).entries[0]!;
    expect(item).toMatchObject({ id: 'm1', mediaCount: 2, mediaBytes: 30_000 + 12_345 });

    const db = new Database(dbPath);
    try {
      const raw = db.prepare('SELECT original_json, sent_json, generated_json, delivered_json FROM history_data').raw().all() as string[][];
      expect(raw.flat().join('')).not.toContain(PNG.slice(0, 200)); // no inline copies in the rows
      expect(raw.flat().join('')).toContain('"blobRef"');
    } finally {
      db.close();
    }
  });

  it('drops a payload when no entry references it any more (update and delete)', () => {
    store.save(mediaEntry('m1', 1000));
    store.save(mediaEntry('m2', 2000, Buffer.alloc(500, 1).toString('base64')));
    expect(counts().blobs).toBe(3);
    store.save(minimalEntry('m2', 2000)); // m2 no longer has media: its own image goes, the shared audio stays
    expect(counts()).toMatchObject({ blobs: 2, links: 2 });
    expect(store.get('m1')).toStrictEqual(mediaEntry('m1', 1000));
    store.deleteSessions(['conv-m1']);
    expect(counts()).toMatchObject({ blobs: 0, links: 0 });
  });

  it('computes decoded sizes from base64', () => {
    expect(base64Bytes('')).toBe(0);
    expect(base64Bytes('QQ==')).toBe(1);
    expect(base64Bytes('QUI=')).toBe(2);
    expect(base64Bytes('QUJD')).toBe(3);
    expect(base64Bytes(PNG)).toBe(30_000);
  });

  it('leaves a raw blobRef field it did not create alone', () => {
    const odd = { ...minimalEntry('odd', 1), original: { messages: [{ role: 'user', content: { type: 'image', blobRef: 'abc', bytes: 3, mimeType: 'image/png' } }] } };
    store.save(odd);
    expect(store.get('odd')).toStrictEqual(odd);
  });
});

describe('repeated parts', () => {
  it('stores a sent request equal to the original, and a delivered response equal to the generated one, once', () => {
    const base = fullEntry('same', 1000);
    const entry: HistoryEntry = { ...base, sent: base.original as HistoryEntry['sent'], delivered: base.generated };
    store.save(entry);
    expect(store.get('same')).toStrictEqual(entry);
    const db = new Database(dbPath);
    try {
      expect(db.prepare('SELECT sent_json, delivered_json FROM history_data').raw().get()).toEqual(['=', '=']);
    } finally {
      db.close();
    }
    store.save(base); // different again: stored in full
    expect(store.get('same')).toStrictEqual(base);
  });
});

describe('delete and retention candidates', () => {
  const DAY = 86_400_000;
  beforeEach(() => {
    store.saveMany([
      { ...fullEntry('old-1', 1 * DAY), conversationId: 'old' },
      { ...fullEntry('old-2', 2 * DAY), conversationId: 'old' },
      { ...fullEntry('mid', 5 * DAY), conversationId: 'mid' },
      { ...fullEntry('new', 9 * DAY), conversationId: 'new' },
      { ...minimalEntry('open', 1 * DAY), conversationId: 'open' }, // still awaiting review
    ]);
  });

  it('deletes whole sessions with their data, search rows and links, and nothing else', () => {
    expect(store.deleteSessions(['old', 'unknown'])).toBe(2);
    expect(store.get('old-1')).toBeNull();
    expect(store.list({ limit: 10, offset: 0 }).entries.map((e) => e.id)).toEqual(['new', 'mid', 'open']);
    expect(counts()).toMatchObject({ history: 3, data: 3, fts: 2 });
    expect(store.deleteSessions([])).toBe(0);
  });

  it('chooses sessions older than a cutoff or beyond the newest N, never an open one', () => {
    expect(store.pruneCandidates({ olderThan: 3 * DAY })).toEqual(['old']); // 'old' ends on day 2
    expect(store.pruneCandidates({ olderThan: 2 * DAY })).toEqual([]); // its newest entry is not older
    expect(store.pruneCandidates({ keepSessions: 1 })).toEqual(['old', 'mid']);
    expect(store.pruneCandidates({ keepSessions: 5 })).toEqual([]);
    expect(store.pruneCandidates({ olderThan: 6 * DAY, keepSessions: 2 })).toEqual(['old', 'mid']);
    expect(store.pruneCandidates({ olderThan: 100 * DAY })).not.toContain('open');
  });
});

describe('markInterrupted', () => {
  it('ends every unfinished entry as interrupted, with an event, and leaves finished ones alone', () => {
    const { endedAt: _e, delivered: _d, ...rest } = fullEntry('r', 1000);
    const reviewing: HistoryEntry = { ...rest, status: 'awaiting_response_review' };
    const generating = { ...minimalEntry('g', 2000), status: 'generating' as const };
    const done = fullEntry('d', 3000);
    store.saveMany([reviewing, generating, done]);
    expect(store.markInterrupted(9_999)).toBe(2);
    const r = store.get('r')!;
    expect(r).toStrictEqual({
      ...reviewing,
      status: 'interrupted',
      endedAt: 9_999,
      notDelivered: { cause: 'console_stopped', at: 9_999, draft: false },
      events: [...reviewing.events, { at: 9_999, kind: 'interrupted', detail: INTERRUPTED_DETAIL, detailUi: { code: 'event.interrupted' } }],
    });
    expect(store.get('g')).toMatchObject({ status: 'interrupted', endedAt: 9_999 });
    expect(store.get('d')).toStrictEqual(done);
    expect(store.list({ status: ['interrupted'], limit: 10, offset: 0 }).total).toBe(2);
    expect(store.markInterrupted(10_000)).toBe(0); // idempotent
  });
});
