import { describe, expect, it } from 'vitest';
import { isBase64, rememberBase64 } from '../../shared/domain/base64.js';
import { jsonLength, rememberJsonLength } from '../../shared/domain/json-length.js';
import { createStringMemo, MEMO_MIN_CHARS } from '../../shared/domain/string-memo.js';

describe('string memo: answers for big strings measured elsewhere', () => {
  it('remembers by content, never short strings, and drops the oldest past the size bound', () => {
    const memo = createStringMemo<number>(4, 10);
    memo.set('abc', 1); // too short
    expect(memo.get('abc')).toBeUndefined();
    memo.set('aaaa', 1);
    memo.set('bbbbb', 2);
    expect(memo.get('aa'.repeat(2))).toBe(1); // another string of the same content
    expect(memo.get('bbbbb')).toBe(2);
    memo.set('cccc', 3); // 4 + 5 + 4 > 10: the oldest goes
    expect([memo.get('aaaa'), memo.get('bbbbb'), memo.get('cccc')]).toEqual([undefined, 2, 3]);
    memo.set('d'.repeat(11), 4); // longer than the bound: not kept, nothing dropped
    expect([memo.get('d'.repeat(11)), memo.get('bbbbb'), memo.get('cccc')]).toEqual([undefined, 2, 3]);
  });

  it('jsonLength and isBase64 answer from what was remembered for a big string', () => {
    const text = `${'x'.repeat(MEMO_MIN_CHARS)}"\n`;
    const value = { messages: [{ content: { type: 'text', text } }] };
    const measured = jsonLength(value);
    expect(measured).toBe(JSON.stringify(value).length);
    // A remembered length is taken as it is: proof that the text is not scanned again.
    rememberJsonLength(text, jsonLength(text) + 1000);
    expect(jsonLength(value)).toBe(measured + 1000);
    rememberJsonLength(text, JSON.stringify(text).length);
    expect(jsonLength(value)).toBe(measured);

    const data = 'QUJD'.repeat(MEMO_MIN_CHARS / 4);
    expect(isBase64(data)).toBe(true);
    rememberBase64(data, false);
    expect(isBase64(data)).toBe(false);
    const short = 'not base64!';
    rememberBase64(short, true); // short strings are always checked
    expect(isBase64(short)).toBe(false);
  });
});
