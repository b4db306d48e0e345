import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAY_MS, createRetention } from '../../main/history/retention.js';
import { createHistoryService, type HistoryService } from '../../main/history/service.js';
import { HISTORY_SETTINGS_FILE, loadHistorySettings, saveHistorySettings } from '../../main/history/settings.js';
import { silentLogger } from '../../main/ports.js';
import { openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import { ApiError } from '../../shared/contract/api-error.js';
import { DEFAULT_HISTORY_SETTINGS, type HistorySettings } from '../../shared/contract/history.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { fullEntry, minimalEntry, tempDir } from '../store/fixtures/entries.js';

let tmp: ReturnType<typeof tempDir>;
let store: HistoryStore;
const NOW = 100 * DAY_MS;

/** Sessions ending 1, 5, 20 and 60 days before NOW, plus an open one from 90 days ago. */
function seed(): void {
  store.saveMany([
    fullEntry('d1', NOW - 1 * DAY_MS),
    fullEntry('d5', NOW - 5 * DAY_MS),
    fullEntry('d20', NOW - 20 * DAY_MS),
    fullEntry('d60', NOW - 60 * DAY_MS),
    { ...minimalEntry('open', NOW - 90 * DAY_MS), status: 'awaiting_request_review' },
  ]);
}
const ids = async () => (await store.list({ limit: 50, offset: 0 })).entries.map((e) => e.id);

beforeEach(() => {
  tmp = tempDir();
  store = openHistoryStore(join(tmp.dir, 'history.db'));
  seed();
});
afterEach(async () => {
  await store.close();
  tmp.cleanup();
});

describe('settings file', () => {
  it('defaults when missing; saves atomically; reads back', () => {
    expect(loadHistorySettings(tmp.dir)).toEqual({ settings: DEFAULT_HISTORY_SETTINGS, path: join(tmp.dir, HISTORY_SETTINGS_FILE) });
    saveHistorySettings(join(tmp.dir, HISTORY_SETTINGS_FILE), { retentionDays: 30, retentionSessions: null });
    expect(JSON.parse(readFileSync(join(tmp.dir, HISTORY_SETTINGS_FILE), 'utf8'))).toEqual({ retentionDays: 30, retentionSessions: null });
    expect(loadHistorySettings(tmp.dir).settings).toEqual({ retentionDays: 30, retentionSessions: null });
  });

  it('reports a broken or invalid file and keeps everything (file untouched)', () => {
    const path = join(tmp.dir, HISTORY_SETTINGS_FILE);
    writeFileSync(path, '{"retentionDays": 0}');
    const invalid = loadHistorySettings(tmp.dir);
    expect(invalid.settings).toEqual(DEFAULT_HISTORY_SETTINGS);
    expect(invalid.problem).toMatch(/retentionDays/);
    writeFileSync(path, '{oops');
    expect(loadHistorySettings(tmp.dir).problem).toMatch(/history-settings\.json line 1, column 2/);
    expect(readFileSync(path, 'utf8')).toBe('{oops');
    expect(() => saveHistorySettings(path, { retentionDays: -1, retentionSessions: null })).toThrow();
  });
});

describe('retention', () => {
  const retention = (settings: HistorySettings, onPruned?: (n: number) => void) =>
    createRetention({ store, settings: () => settings, now: () => NOW, logger: silentLogger, onPruned });

  it('keeps everything without limits', async () => {
    expect(await retention(DEFAULT_HISTORY_SETTINGS).run()).toBe(0);
    expect(await ids()).toHaveLength(5);
  });

  it('prunes sessions older than N days, never an open one', async () => {
    const pruned = vi.fn();
    expect(await retention({ retentionDays: 10, retentionSessions: null }, pruned).run()).toBe(2);
    expect(await ids()).toEqual(['d1', 'd5', 'open']);
    expect(pruned).toHaveBeenCalledWith(2, expect.arrayContaining(['conv-d20', 'conv-d60']));
  });

  it('keeps the newest N sessions, and both limits together', async () => {
    expect(await retention({ retentionDays: null, retentionSessions: 3 }).run()).toBe(1);
    expect(await ids()).toEqual(['d1', 'd5', 'd20', 'open']);
    expect(await retention({ retentionDays: 3, retentionSessions: 2 }).run()).toBe(2);
    expect(await ids()).toEqual(['d1', 'open']);
  });

  it('prunes many sessions in batches without blocking, and again on the hourly timer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const many: HistoryEntry[] = [];
      for (let i = 0; i < 650; i++) many.push(minimalEntry(`bulk-${i}`, NOW - 50 * DAY_MS + i) as HistoryEntry);
      store.saveMany(many.map((e) => ({ ...e, status: 'delivered' as const })));
      const settings: HistorySettings = { retentionDays: null, retentionSessions: null };
      const r = createRetention({ store, settings: () => settings, now: () => NOW, logger: silentLogger, intervalMs: 1_000 });
      r.start();
      settings.retentionDays = 30;
      vi.advanceTimersByTime(1_000);
      await vi.waitFor(async () => expect(await ids()).toEqual(['d1', 'd5', 'd20', 'open']));
      r.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a stopped pruner does nothing and never rejects (e.g. the store closed at shutdown)', async () => {
    const r = retention({ retentionDays: 1, retentionSessions: null });
    r.stop();
    expect(await r.run()).toBe(0);
    expect(await ids()).toHaveLength(5);
    const closed = openHistoryStore(':memory:');
    await closed.close();
    const broken = createRetention({ store: closed, settings: () => ({ retentionDays: 1, retentionSessions: null }), now: () => NOW, logger: silentLogger });
    expect(await broken.run()).toBe(0);
  });
});

describe('history service', () => {
  let service: HistoryService;
  const notices: string[] = [];
  const reopened: HistoryEntry[] = [];
  beforeEach(() => {
    service = createHistoryService({
      store,
      userDataDir: tmp.dir,
      now: () => NOW,
      logger: silentLogger,
      notify: (_level, message) => notices.push(message),
      reopenDraft: (entry) => {
        reopened.push(entry);
        return 'draft-7';
      },
    });
  });
  afterEach(() => service.dispose());

  it('saves settings, prunes to match, and reports what it pruned', async () => {
    expect(await service.methods.getHistorySettings({})).toEqual(DEFAULT_HISTORY_SETTINGS);
    const result = await service.methods.setHistorySettings({ retentionSessions: 2 });
    expect(result).toEqual({ settings: { retentionDays: null, retentionSessions: 2 }, pruned: 2 });
    expect(await ids()).toEqual(['d1', 'd5', 'open']);
    expect(loadHistorySettings(tmp.dir).settings).toEqual({ retentionDays: null, retentionSessions: 2 });
    expect(await service.methods.getHistorySettings({})).toEqual({ retentionDays: null, retentionSessions: 2 });
  });

  it('deletes whole sessions of the given entries', async () => {
    store.save({ ...fullEntry('d1-next', NOW - DAY_MS + 1), conversationId: 'conv-d1' });
    expect(await service.methods.deleteHistory({ ids: ['d1', 'nope'] })).toEqual({ deleted: 2, sessions: 1 });
    expect(await ids()).toEqual(['d5', 'd20', 'd60', 'open']);
  });

  it('re-opens a past request through the pipeline, or says it is unknown', async () => {
    expect(await service.methods.reopenHistoryEntry({ id: 'd5' })).toEqual({ itemId: 'draft-7' });
    expect(reopened).toEqual([fullEntry('d5', NOW - 5 * DAY_MS)]);
    await expect(service.methods.reopenHistoryEntry({ id: 'gone' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.methods.reopenHistoryEntry({ id: 'gone' })).rejects.toBeInstanceOf(ApiError);
  });

  it('exports, counts and lists facets', async () => {
    const file = await service.methods.exportHistory({ format: 'jsonl', filter: { query: 'zanzibar' } });
    expect(file.sessions).toBe(4);
    expect((await service.methods.historyStats({})).servers.map((s) => [s.serverId, s.requests])).toEqual([
      ['everything', 4],
      ['srv', 1],
    ]);
    expect((await service.methods.historyFacets({})).servers).toEqual(['everything', 'srv']);
  });
});
