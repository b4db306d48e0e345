import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../main/store/history-store.js';
import { BIG_TEXT_CHARS, TEXTS_DIR } from '../../main/store/big-texts.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { minimalEntry, tempDir } from './fixtures/entries.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const textOf = (e: HistoryEntry | null) => (e?.original as { messages: Array<{ content: { text: string } }> }).messages[0]!.content.text;

describe('history: big texts live in files beside the database', () => {
  it('a prepared entry stores a reference, reads back whole, and its later saves do not write the text again', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'history.db');
    const store = openHistoryStore(path);
    const big = `${'é prose with "quotes" \n'.repeat(BIG_TEXT_CHARS / 10)}end`;
    const entry = minimalEntry('big', 1000, big);
    await store.prepareEntry(entry);
    store.save(entry);
    store.save({ ...entry, status: 'rejected', endedAt: 2000 });
    expect(textOf(await store.get('big'))).toBe(big);
    const files = readdirSync(join(dir, TEXTS_DIR));
    expect(files).toHaveLength(1);
    if (process.platform !== 'win32') expect(statSync(join(dir, TEXTS_DIR, files[0]!)).mode & 0o077).toBe(0);
    await store.close();
    const raw = new Database(path);
    const row = raw.prepare('SELECT length(original_json) AS n FROM history_data').get() as { n: number };
    raw.close();
    expect(row.n).toBeLessThan(1000); // the row holds {textRef, bytes}, not the text

    // An entry saved without prepare keeps its text in the row, as before.
    const again = openHistoryStore(path);
    again.save(minimalEntry('inline', 3000, big));
    expect(textOf(await again.get('inline'))).toBe(big);
    expect(readdirSync(join(dir, TEXTS_DIR))).toHaveLength(1);
    await again.close();
  });

  it('deleting the session removes the file (once older than the grace period); a missing file reads as a note, not a crash', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const store = openHistoryStore(join(dir, 'history.db'));
    const big = 'x'.repeat(BIG_TEXT_CHARS);
    const entry = { ...minimalEntry('gone', 1000, big), status: 'rejected' as const, endedAt: 1500 };
    await store.prepareEntry(entry);
    store.save(entry);
    const [file] = readdirSync(join(dir, TEXTS_DIR));
    const filePath = join(dir, TEXTS_DIR, file!);
    await store.deleteSessions(['gone']);
    expect(existsSync(filePath)).toBe(true); // younger than 10 minutes: an entry may be about to use it
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(filePath, hourAgo, hourAgo);
    await store.deleteSessions(['nothing-else']);
    expect(existsSync(filePath)).toBe(false);

    const kept = { ...minimalEntry('kept', 2000, big), status: 'rejected' as const, endedAt: 2500 };
    await store.prepareEntry(kept);
    store.save(kept);
    const [again] = readdirSync(join(dir, TEXTS_DIR));
    const { unlinkSync } = await import('node:fs');
    unlinkSync(join(dir, TEXTS_DIR, again!));
    expect(textOf(await store.get('kept'))).toMatch(/^\[This text was kept in .*history-texts.*, which cannot be read/);
    await store.close();
  });
});
