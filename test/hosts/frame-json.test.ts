/**
 * app/web/frame-json.ts: a frame with long strings is written as exactly the text JSON.stringify
 * gives, whatever characters the strings hold.
 */
import { describe, expect, it } from 'vitest';
import { LONG_STRING_CHARS, stringifyWithLongStrings } from '../../app/web/frame-json.js';

const long = (piece: string) => piece.repeat(Math.ceil(LONG_STRING_CHARS / piece.length) + 1);

describe('stringifyWithLongStrings', () => {
  it.each([
    ['base64', long('QUJD+/9=')],
    ['prose with line breaks', long('A line of text.\n')],
    ['quotes and backslashes', long('say "hi" \\ there ')],
    ['control characters', long('a\u0000b\u0001c\u001f')],
    ['non-Latin text', long('中文テキスト ')],
    ['emoji (surrogate pairs)', long('ok 😀 ')],
    ['a lone surrogate', `${long('x')}\ud800`],
    ['U+2028 and U+2029', long('a\u2028b\u2029')],
    ['exactly at the threshold', 'y'.repeat(LONG_STRING_CHARS)],
  ])('%s: same text as JSON.stringify', (_name, text) => {
    const frame = { id: 7, reply: { ok: true, value: { item: { params: { messages: [{ role: 'user', content: [{ type: 'text', text }, { type: 'image', data: long('AAAA'), mimeType: 'image/png' }] }] } }, version: 3 } } };
    const out = stringifyWithLongStrings(frame);
    expect(out).toBe(JSON.stringify(frame));
    expect(JSON.parse(out)).toEqual(frame);
  });

  it('is exact when a short string reads like the marker it uses', () => {
    const frame = { a: long('B'), trap: '\u00000\u0000', trap2: '\u00001\u0000', b: [long('C'), null, 1.5, true], c: undefined, d: { toJSON: () => long('D') } };
    expect(stringifyWithLongStrings(frame)).toBe(JSON.stringify(frame));
  });

  it('throws as JSON.stringify does', () => {
    const cyclic: Record<string, unknown> = { text: long('E') };
    cyclic.self = cyclic;
    expect(() => stringifyWithLongStrings(cyclic)).toThrow(TypeError);
    expect(() => stringifyWithLongStrings({ n: 1n })).toThrow(TypeError);
  });
});
