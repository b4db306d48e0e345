import { describe, expect, it } from 'vitest';
import { argumentsLine } from '../../shared/domain/call-args.js';

describe('argumentsLine: a call\'s arguments as one short line', () => {
  it('lists key: value in order, strings quoted, objects as compact JSON', () => {
    expect(argumentsLine({ prompt: 'Write a limerick', maxTokens: 100, opts: { a: [1, 2] }, on: true, none: null })).toBe(
      'prompt: "Write a limerick", maxTokens: 100, opts: {"a":[1,2]}, on: true, none: null',
    );
    expect(argumentsLine({})).toBe('');
    expect(argumentsLine(undefined)).toBe('');
  });
  it('cuts each value at 40 characters and the line at the limit, with "…"; line breaks show as \\n, space runs as one space', () => {
    const line = argumentsLine({ text: `first\n\n${'x'.repeat(100)}`, n: 1, s: 'a    b' });
    expect(line).toBe(`text: "first\\n\\n${'x'.repeat(29)}…, n: 1, s: "a b"`);
    const long = argumentsLine(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, i])), 50);
    expect(long).toHaveLength(50);
    expect(long.endsWith('…')).toBe(true);
  });
});
