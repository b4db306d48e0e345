/** How the PostgreSQL history cuts text into words and a search box into a tsquery (pure functions). */
import { describe, expect, it } from 'vitest';
import { searchDocument, toTsQuery, words } from '../../../main/store/pg/search.js';
import { WORDS, fullEntry, minimalEntry } from '../fixtures/entries.js';

describe('words', () => {
  it('cuts on everything but letters, marks, numbers and private use, lowercased in every script', () => {
    expect(words('Hello, WORLD! ops@example.com v2.1-beta_3 ΑΘΗΝΑ 東京タワー')).toEqual(['hello', 'world', 'ops', 'example', 'com', 'v2', '1', 'beta', '3', 'αθηνα', '東京タワー']);
    expect(words('e\u0301te\u0301')).toEqual(['été']); // composed first, so unaccent sees one letter
    expect(words(' \u0000 -- ')).toEqual([]);
  });
});

describe('toTsQuery', () => {
  it('quotes every word, ANDs them and makes the last one a prefix', () => {
    expect(toTsQuery('hello world')).toBe("'hello' & 'world':*");
    expect(toTsQuery('  Spaced\tOUT\n')).toBe("'spaced' & 'out':*");
  });

  it('keeps a word with punctuation inside as a phrase of its parts', () => {
    expect(toTsQuery('trigger-sampling-request')).toBe("('trigger' <-> 'sampling' <-> 'request':*)");
    expect(toTsQuery('ops@example.com now')).toBe("('ops' <-> 'example' <-> 'com') & 'now':*");
  });

  it('gives operators and quotes no meaning, drops words without a letter or digit, and returns null when nothing is left', () => {
    expect(toTsQuery("a | !b & 'c':* <-> d")).toBe("'a' & 'b' & 'c' & 'd':*");
    expect(toTsQuery('foo - *')).toBe("'foo':*");
    expect(toTsQuery('')).toBeNull();
    expect(toTsQuery(" ' * ( ! ")).toBeNull();
    expect(toTsQuery('日本語')).toBe("'日本語':*");
  });
});

describe('searchDocument', () => {
  it('holds the words of every searched field', () => {
    const doc = searchDocument(fullEntry('a')).split(' ');
    expect(doc).toEqual(expect.arrayContaining([...Object.values(WORDS), 'everything', 'tools', 'call', 'trigger', 'sampling', 'request', 'lookup']));
  });

  it('stops within what one tsvector can hold, keeping the first words', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`);
    const doc = searchDocument(minimalEntry('m', 1, many.join(' ')));
    expect(doc.startsWith('srv w0 w1 w2')).toBe(true);
    expect(Buffer.byteLength(doc)).toBeLessThan(700_000);
    expect(doc.split(' ').length).toBeLessThan(many.length);
  });
});
