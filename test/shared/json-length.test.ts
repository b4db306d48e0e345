import { describe, expect, it } from 'vitest';
import { jsonLength } from '../../shared/domain/json-length.js';

const cases: Array<[string, unknown]> = [
  ['null', null],
  ['numbers', [0, -1.5, 1e21, 3.14159, Number.NaN, Infinity, -0]],
  ['booleans', { a: true, b: false }],
  ['escapes', 'quote " backslash \\ newline \n tab \t cr \r bs \b ff \f nul \u0000 esc \u001b del \u007f'],
  ['unicode', 'é 中文 😀 pair \ud83d\ude00'],
  ['lone surrogates', 'high \ud800 low \udc00 end \ud83d'],
  ['keys with escapes', { 'a"b': 1, 'c\nd': [1, 2], '中': { '\ud800': null } }],
  ['skipped members', { a: undefined, b: () => 1, c: Symbol('x'), d: 1 }],
  ['array holes and undefined', [undefined, () => 1, Symbol('y'), 1]],
  ['empty', [[], {}, '', [{}]]],
  ['toJSON', { when: new Date(0), nested: { toJSON: () => ({ x: 'y' }) } }],
  [
    'a sampling request',
    {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hello "world"\n' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
        { role: 'assistant', content: { type: 'tool_use', id: 't1', name: 'x', input: { q: 1.5, deep: [null, true] } } },
      ],
      maxTokens: 100,
      modelPreferences: { hints: [{ name: 'claude' }], costPriority: 0.3 },
    },
  ],
];

describe('jsonLength: JSON.stringify(value).length without the string', () => {
  it.each(cases)('%s', (_name, value) => {
    expect(jsonLength(value)).toBe((JSON.stringify(value) ?? '').length);
  });

  it('every code unit from 0 to 0xFFFF, alone and in pairs', () => {
    let all = '';
    for (let c = 0; c <= 0xffff; c++) all += String.fromCharCode(c);
    expect(jsonLength(all)).toBe(JSON.stringify(all).length);
    expect(jsonLength({ [all.slice(0, 0x100)]: all.slice(0xd700, 0xe100) })).toBe(JSON.stringify({ [all.slice(0, 0x100)]: all.slice(0xd700, 0xe100) }).length);
  });

  it('a cycle throws as JSON.stringify does', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => jsonLength(a)).toThrow(TypeError);
  });
});
