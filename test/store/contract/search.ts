/**
 * Contract: full-text search. The same fields as the desktop always searched (prompt text of
 * every message received and sent, text inside tool results, system prompts, generated and
 * delivered responses, a draft's typed text, the server id and the call name); words as written,
 * no stemming and no stop words; case and accents ignored; every word required, the last one as a
 * prefix; operators and quotes are plain characters; the index follows every save and delete.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { WORDS, fullEntry, minimalEntry } from '../fixtures/entries.js';
import { search, type Bed } from './history-store-contract.js';

export function describeSearch(bed: Bed): void {
  const ids = async (query: string) => (await search(bed.store, query)).ids;

  describe('full-text search', () => {
    beforeEach(() => {
      bed.store.save(fullEntry('full', 2000));
      bed.store.save(minimalEntry('other', 3000, 'an unrelated question about the weather'));
      bed.store.save({ ...minimalEntry('gh', 1000, 'list my issues'), serverId: 'github', callName: 'tools/call search_issues' });
    });

    it.each(Object.entries(WORDS))('finds the word from the %s only in its entry', async (_where, word) => {
      expect(await search(bed.store, word)).toEqual({ ids: ['full'], total: 1 });
    });

    it('finds entries by server id and by tool name', async () => {
      expect(await ids('github')).toEqual(['gh']);
      expect(await ids('search_issues')).toEqual(['gh']);
      expect(await ids('trigger-sampling-request')).toEqual(['full']);
      expect(await ids('sampling')).toEqual(['full']);
    });

    it('ignores case and diacritics, and matches the last word as a prefix', async () => {
      expect(await ids('ZANZIBAR')).toEqual(['full']);
      expect(await ids('zänzibar')).toEqual(['full']);
      expect(await ids('ptero')).toEqual(['full']);
      expect(await ids('pterodactyl fl')).toEqual(['full']);
      expect(await ids('ptero fl')).toEqual([]); // only the last word is a prefix
    });

    it('requires every word and returns nothing for unknown words', async () => {
      expect(await ids('weather unrelated')).toEqual(['other']);
      expect(await ids('weather zanzibar')).toEqual([]);
      expect(await search(bed.store, 'xylophone')).toEqual({ ids: [], total: 0 });
    });

    it('orders matches newest first and pages them, total counting all matches', async () => {
      expect(await search(bed.store, 'about')).toEqual({ ids: ['other', 'full'], total: 2 });
      expect(await search(bed.store, 'about', 1, 1)).toEqual({ ids: ['full'], total: 2 });
    });

    it('keeps the index in sync when an entry is updated', async () => {
      bed.store.save({ ...fullEntry('full', 2000), delivered: { role: 'assistant', content: { type: 'text', text: 'a gazebo' }, model: 'm' } });
      expect(await ids(WORDS.delivered)).toEqual([]);
      expect(await ids('gazebo')).toEqual(['full']);
      expect(await ids(WORDS.generated)).toEqual(['full']);
      expect((await bed.store.list({ limit: 10, offset: 0 })).total).toBe(3);
    });

    it('never fails on hostile queries and treats operators as plain words', async () => {
      const hostile = [
        'foo"', 'a OR', 'OR', 'AND', 'NOT', '-x', 'x -y', '"unterminated', "it's", 'NEAR(a b)', 'a NEAR/2 b', 'a & b', 'a | !b', "'quoted':*", 'a <-> b',
        'server_id:github', '{server_id}: x', '^start', 'a*b', '* OR *', '(', ')', 'a AND (b', '\\', '%_', ';DROP TABLE history;--',
        '\u0000', '😀', 'x'.repeat(500), 'a '.repeat(250),
      ];
      for (const query of hostile) await expect(bed.store.list({ query, limit: 10, offset: 0 }), query).resolves.toBeDefined();
      expect(await ids('zanzibar"')).toEqual(['full']);
      expect(await ids('-zanzibar')).toEqual(['full']);
      expect(await ids('zanzibar OR weather')).toEqual([]); // "OR" is a word that appears nowhere
      expect(await ids('github:')).toEqual(['gh']);
      expect((await bed.store.list({ limit: 10, offset: 0 })).total).toBe(3);
    });
  });

  describe('full-text search: words as written', () => {
    beforeEach(() => {
      bed.store.saveMany([
        minimalEntry('fr', 1000, 'Crème brûlée à la française, naïve café'),
        minimalEntry('de', 2000, 'Straßenbahn über Zürich'),
        minimalEntry('el', 3000, 'ΑΘΗΝΑ και Μόσχα'),
        minimalEntry('run', 4000, 'running the numbers'),
        minimalEntry('mail', 5000, 'write to ops@example.com or see https://docs.example.org/v2.1/setup'),
        minimalEntry('cjk', 6000, '東京タワー 見学'),
      ]);
    });

    it('folds accents both ways: an unaccented word finds accented text, an accented word unaccented text', async () => {
      expect(await ids('creme brulee')).toEqual(['fr']);
      expect(await ids('CRÈME')).toEqual(['fr']);
      expect(await ids('brul')).toEqual(['fr']);
      expect(await ids('francaise')).toEqual(['fr']);
      expect(await ids('naive cafe')).toEqual(['fr']);
      expect(await ids('zurich')).toEqual(['de']);
      expect(await ids('uber zur')).toEqual(['de']);
      expect(await ids('cafè')).toEqual(['fr']);
    });

    it('folds case in every script', async () => {
      expect(await ids('αθηνα')).toEqual(['el']);
      expect(await ids('Αθην')).toEqual(['el']);
    });

    it('does not stem and drops no stop words', async () => {
      expect(await ids('runs')).toEqual([]);
      expect(await ids('run')).toEqual(['run']); // a prefix, as typed
      expect(await ids('running numbers')).toEqual(['run']);
      expect(await ids('number')).toEqual(['run']);
      expect(await ids('numbers the')).toEqual(['run']);
      expect(await ids('the running')).toEqual(['run']);
    });

    it('finds the parts of addresses, links and versions', async () => {
      expect(await ids('example')).toEqual(['mail']);
      expect(await ids('ops')).toEqual(['mail']);
      expect(await ids('ops@example.com')).toEqual(['mail']);
      expect(await ids('docs')).toEqual(['mail']);
      expect(await ids('setup')).toEqual(['mail']);
      expect(await ids('v2')).toEqual(['mail']);
      expect(await ids('https')).toEqual(['mail']);
    });

    it('finds text without spaces between words by its start', async () => {
      expect(await ids('東京')).toEqual(['cjk']);
      expect(await ids('見学')).toEqual(['cjk']);
    });
  });

  describe('full-text search: what a person typed', () => {
    it('finds an entry by the text of its kept draft', async () => {
      bed.store.save({ ...minimalEntry('d', 1000, 'plain request'), draft: { form: { note: 'my unsent tangerine edit' } } } as never);
      expect(await ids('tangerine')).toEqual(['d']);
    });
  });
}
