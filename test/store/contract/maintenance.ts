/**
 * Contract: media and big texts round-trip exactly; whole sessions are deleted; retention picks
 * the right sessions; requests a stop left unfinished are marked interrupted.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_DETAIL } from '../../../main/store/maintenance.js';
import { BIG_TEXT_CHARS } from '../../../main/store/media.js';
import type { HistoryEntry } from '../../../shared/contract/state.js';
import { fullEntry, minimalEntry } from '../fixtures/entries.js';
import { page, type Bed } from './history-store-contract.js';

/** Base64 of 30,000 decoded bytes (an image) and of 12,345 (audio). */
export const PNG = Buffer.alloc(30_000, 7).toString('base64');
export const WAV = Buffer.alloc(12_345, 3).toString('base64');

/** An entry whose request holds an image (twice) and an audio clip, and whose response repeats the image. */
export function mediaEntry(id: string, at: number, image = PNG): HistoryEntry {
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

const textOf = (e: HistoryEntry | null) => (e?.original as { messages: Array<{ content: { text: string } }> }).messages[0]!.content.text;

export function describeMaintenance(bed: Bed): void {
  describe('media and big texts', () => {
    it('round-trips payloads shared between entries exactly, and reports their size', async () => {
      bed.store.save(mediaEntry('m1', 1000));
      bed.store.save(mediaEntry('m2', 2000)); // same payloads again
      expect(await bed.store.get('m1')).toStrictEqual(mediaEntry('m1', 1000));
      expect(await bed.store.conversation('conv-m2')).toStrictEqual([mediaEntry('m2', 2000)]);
      expect((await bed.store.list({ limit: 1, offset: 1 })).entries[0]).toMatchObject({ id: 'm1', mediaCount: 2, mediaBytes: 30_000 + 12_345 });
    });

    it('keeps base64 that is not canonical exactly as it came, and a raw blobRef field it did not create', async () => {
      const odd = mediaEntry('odd', 1000, 'aGVsbG8\n=='); // a line break and odd padding
      bed.store.save(odd);
      expect(await bed.store.get('odd')).toStrictEqual(odd);
      const raw = { ...minimalEntry('raw', 1), original: { messages: [{ role: 'user', content: { type: 'image', blobRef: 'abc', bytes: 3, mimeType: 'image/png' } }] } };
      bed.store.save(raw);
      expect(await bed.store.get('raw')).toStrictEqual(raw);
    });

    it('keeps an entry whole when its payloads change or another entry using them goes', async () => {
      bed.store.save(mediaEntry('m1', 1000));
      bed.store.save(mediaEntry('m2', 2000, Buffer.alloc(500, 1).toString('base64')));
      bed.store.save(minimalEntry('m2', 2000)); // m2 no longer has media
      expect(await bed.store.get('m2')).toStrictEqual(minimalEntry('m2', 2000));
      expect(await bed.store.get('m1')).toStrictEqual(mediaEntry('m1', 1000));
      bed.store.save(mediaEntry('m3', 3000));
      await bed.store.deleteSessions(['conv-m1']);
      expect(await bed.store.get('m3')).toStrictEqual(mediaEntry('m3', 3000));
    });

    it('stores a sent request equal to the original, and a delivered response equal to the generated one, faithfully', async () => {
      const base = fullEntry('same', 1000);
      const entry: HistoryEntry = { ...base, sent: base.original as HistoryEntry['sent'], delivered: base.generated };
      bed.store.save(entry);
      expect(await bed.store.get('same')).toStrictEqual(entry);
      bed.store.save(base);
      expect(await bed.store.get('same')).toStrictEqual(base);
    });

    it('a big text with U+0000 and a lone surrogate, prepared, reads back exactly', async () => {
      const big = `${'x\u0000y \ud800 '.repeat(BIG_TEXT_CHARS / 6)}end`;
      const entry = minimalEntry('odd-big', 1000, big);
      await bed.store.prepareEntry(entry);
      bed.store.save(entry);
      expect(textOf(await bed.store.get('odd-big'))).toBe(big);
    });

    it('a big text prepared before its first save reads back whole, through later saves and a restart', async () => {
      const big = `${'é prose with "quotes" \n'.repeat(BIG_TEXT_CHARS / 10)}end`;
      const entry = minimalEntry('big', 1000, big);
      await bed.store.prepareEntry(entry);
      bed.store.save(entry);
      bed.store.save({ ...entry, status: 'rejected', endedAt: 2000 });
      expect(textOf(await bed.store.get('big'))).toBe(big);
      bed.store.save(minimalEntry('inline', 3000, `${big}!`)); // not prepared: stored inline
      const again = await bed.t.reopen();
      expect(textOf(await again.get('big'))).toBe(big);
      expect(textOf(await again.get('inline'))).toBe(`${big}!`);
      expect((await page(again, { query: 'prose quot', limit: 5, offset: 0 })).ids).toEqual(['inline', 'big']);
    });
  });

  describe('delete and retention candidates', () => {
    const DAY = 86_400_000;
    beforeEach(() => {
      bed.store.saveMany([
        { ...fullEntry('old-1', 1 * DAY), conversationId: 'old' },
        { ...fullEntry('old-2', 2 * DAY), conversationId: 'old' },
        { ...fullEntry('mid', 5 * DAY), conversationId: 'mid' },
        { ...fullEntry('new', 9 * DAY), conversationId: 'new' },
        { ...minimalEntry('open', 1 * DAY), conversationId: 'open' }, // still awaiting review
      ]);
    });

    it('deletes whole sessions with their search rows, and nothing else', async () => {
      expect(await bed.store.deleteSessions(['old', 'unknown'])).toBe(2);
      expect(await bed.store.get('old-1')).toBeNull();
      expect((await page(bed.store, { limit: 10, offset: 0 })).ids).toEqual(['new', 'mid', 'open']);
      expect((await page(bed.store, { query: 'zanzibar', limit: 10, offset: 0 })).ids).toEqual(['new', 'mid']);
      expect(await bed.store.deleteSessions([])).toBe(0);
    });

    it('chooses sessions older than a cutoff or beyond the newest N, never an open one', async () => {
      expect(await bed.store.pruneCandidates({ olderThan: 3 * DAY })).toEqual(['old']); // 'old' ends on day 2
      expect(await bed.store.pruneCandidates({ olderThan: 2 * DAY })).toEqual([]); // its newest entry is not older
      expect(await bed.store.pruneCandidates({ keepSessions: 1 })).toEqual(['old', 'mid']);
      expect(await bed.store.pruneCandidates({ keepSessions: 5 })).toEqual([]);
      expect(await bed.store.pruneCandidates({ olderThan: 6 * DAY, keepSessions: 2 })).toEqual(['old', 'mid']);
      expect(await bed.store.pruneCandidates({ olderThan: 100 * DAY })).not.toContain('open');
    });
  });

  describe('markInterrupted', () => {
    it('ends every unfinished entry as interrupted, with an event, and leaves finished ones alone', async () => {
      const { endedAt: _e, delivered: _d, ...rest } = fullEntry('r', 1000);
      const reviewing: HistoryEntry = { ...rest, status: 'awaiting_response_review' };
      const generating = { ...minimalEntry('g', 2000), status: 'generating' as const };
      const drafted = { ...minimalEntry('k', 2500), draft: { form: { note: 'typed' } } } as unknown as HistoryEntry;
      const done = fullEntry('d', 3000);
      bed.store.saveMany([reviewing, generating, drafted, done]);
      expect(await bed.store.markInterrupted(9_999)).toBe(3);
      expect(await bed.store.get('r')).toStrictEqual({
        ...reviewing,
        status: 'interrupted',
        endedAt: 9_999,
        notDelivered: { cause: 'console_stopped', at: 9_999, draft: false },
        events: [...reviewing.events, { at: 9_999, kind: 'interrupted', detail: INTERRUPTED_DETAIL, detailUi: { code: 'event.interrupted' } }],
      });
      expect(await bed.store.get('g')).toMatchObject({ status: 'interrupted', endedAt: 9_999 });
      expect(await bed.store.get('k')).toMatchObject({ status: 'interrupted', notDelivered: { draft: true }, draft: { form: { note: 'typed' } } });
      expect(await bed.store.get('d')).toStrictEqual(done);
      expect((await bed.store.list({ status: ['interrupted'], limit: 10, offset: 0 })).total).toBe(3);
      expect(await bed.store.markInterrupted(10_000)).toBe(0); // idempotent
    });
  });
}
