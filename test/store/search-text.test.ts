import { describe, expect, it } from 'vitest';
import { FTS_COLUMN_MAX_CHARS, ftsColumns, toFtsQuery } from '../../main/store/search-text.js';
import { previewOf } from '../../main/sampling/record.js';
import { WORDS, fullEntry, minimalEntry } from './fixtures/entries.js';

describe('toFtsQuery', () => {
  it('quotes every word, ANDs them and makes the last one a prefix', () => {
    expect(toFtsQuery('hello world')).toBe('"hello" "world"*');
    expect(toFtsQuery('  spaced\tout\n')).toBe('"spaced" "out"*');
  });

  it('neutralises FTS5 syntax', () => {
    expect(toFtsQuery('a OR "b')).toBe('"a" "OR" """b"*');
    expect(toFtsQuery('-x NEAR(y')).toBe('"-x" "NEAR(y"*');
    expect(toFtsQuery('col:val')).toBe('"col:val"*');
  });

  it('drops words with no letter or digit and returns null when nothing is left', () => {
    expect(toFtsQuery('foo - *')).toBe('"foo"*');
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery(' " * ( ')).toBeNull();
    expect(toFtsQuery('日本語')).toBe('"日本語"*');
  });
});

describe('ftsColumns', () => {
  it('collects prompt text (received and sent, tool results included), system prompt and responses', () => {
    const cols = ftsColumns(fullEntry('a'));
    expect(cols.server_id).toBe('everything');
    expect(cols.call_name).toBe('tools/call trigger-sampling-request');
    expect(cols.prompt).toContain(WORDS.userText);
    expect(cols.prompt).toContain(WORDS.toolResultText);
    expect(cols.prompt).toContain(WORDS.sentOnly);
    expect(cols.system_prompt).toContain(WORDS.systemPrompt);
    expect(cols.response).toContain(WORDS.generated);
    expect(cols.response).toContain(WORDS.delivered);
    // Binary payloads are not indexed.
    expect(Object.values(cols).join(' ')).not.toContain('iVBORw0KGgo');
  });

  it('does not throw on raw params of any shape', () => {
    for (const original of [undefined, null, 42, 'text', [], { messages: 'x' }, { messages: [null, { content: 7 }] }]) {
      expect(() => ftsColumns({ ...minimalEntry('r', 1), original })).not.toThrow();
    }
  });

  it('indexes the first megabyte of each column of a huge prompt, not all of it', () => {
    const huge = `needle-start ${'word '.repeat(600_000)} needle-end`;
    const entry = { ...minimalEntry('big', 1), original: { messages: [{ role: 'user', content: { type: 'text', text: huge } }], maxTokens: 10 } };
    const cols = ftsColumns(entry);
    expect(cols.prompt.length).toBe(FTS_COLUMN_MAX_CHARS);
    expect(cols.prompt.startsWith('needle-start')).toBe(true);
    expect(previewOf(entry.original as never)).toBe(`needle-start ${'word '.repeat(40)}`.slice(0, 200).trim());
  });
});
