/**
 * Big inputs: every built-in detector and the person's patterns run in linear time, so texts of
 * 1 MB and 25 MB (the request cap) in the shapes that made backtracking patterns quadratic — one
 * long word, digits and spaces, dotted runs, base64, minified JSON, CJK, many PEM headers, many
 * "@" or "+" — are scanned within the test timeout, and secrets sprinkled into them are still
 * found. (Times are measured by `npm run bench`, ids redaction.scan_ms_1mb / _25mb.)
 */
import { describe, expect, it } from 'vitest';
import { CustomPatternSchema, detectSensitive, type DetectOptions } from '../../shared/domain/sensitive-data.js';
import { RulesFileSchema } from '../../shared/contract/rules.js';
import { userPatternFound, userPatternProblem, userPatternProblemKind } from '../../shared/domain/user-pattern.js';

const MB = 1 << 20;
const fill = (unit: string, bytes: number): string => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

/** Text shapes of about `bytes` characters. */
export const SHAPES: Record<string, (bytes: number) => string> = {
  'one long word': (n) => fill('a', n),
  'digits and spaces': (n) => fill('1234 5678 ', n),
  'dotted runs': (n) => fill('a.', n),
  base64: (n) => fill('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkrLw', n),
  'minified JSON': (n) => JSON.stringify(Array.from({ length: Math.ceil(n / 24) }, (_, i) => ({ id: i, k: `v-${i}` }))).slice(0, n),
  'CJK text': (n) => fill('中文文本测试数据没有空格', n),
  'many PEM headers': (n) => fill('-----BEGIN PRIVATE KEY-----\n', n),
  'many @': (n) => fill('a@', n),
  'e-mail domain run': (n) => `x@${fill('a.', n)}`,
  'many +': (n) => fill('+1 ', n),
  'secret prefixes': (n) => fill('sk-ant-a', n),
};

/** Real-looking secrets, each with the detector that must find it. */
const SECRETS: Array<[string, string]> = [
  ['openai', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['github', `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`],
  ['aws_access_key', 'AKIAIOSFODNN7EXAMPLE'],
  ['email', 'ada.lovelace@example.org'],
  ['phone', '+1 415 555 2671'],
  ['luhn', '4111 1111 1111 1111'],
  ['private_key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'],
];

/** `base` with every secret inserted at spread-out places, each on a line of its own. */
function sprinkle(base: string): { text: string; at: Array<[string, number]> } {
  let text = '';
  const at: Array<[string, number]> = [];
  const step = Math.floor(base.length / (SECRETS.length + 1));
  SECRETS.forEach(([detector, secret], i) => {
    text += `${base.slice(i * step, (i + 1) * step)}\nhere: `;
    at.push([detector, text.length]);
    text += `${secret} is it.\n`;
  });
  return { text: text + base.slice(SECRETS.length * step), at };
}

function expectAllFound(text: string, at: Array<[string, number]>, options: DetectOptions = {}): void {
  const findings = detectSensitive(text, options);
  for (const [detector, start] of at) expect(findings.find((f) => f.start === start)?.detector, `${detector} at ${start}`).toBe(detector);
}

describe('built-in detectors on 1 MB', () => {
  for (const [shape, make] of Object.entries(SHAPES)) {
    it(`${shape}: scanned, and sprinkled secrets are found`, () => {
      const base = make(MB);
      detectSensitive(base); // the adversarial text alone
      const { text, at } = sprinkle(fill('The quick brown fox jumps over the lazy dog. ', MB / 4) + base);
      expectAllFound(text, at);
    });
  }
});

describe('built-in detectors on 25 MB (the request cap)', () => {
  for (const shape of ['one long word', 'digits and spaces', 'base64', 'many PEM headers']) {
    it(`${shape}`, () => {
      const { text, at } = sprinkle(SHAPES[shape]!(25 * MB));
      expectAllFound(text, at);
    }, 120_000);
  }

  // With a phone region every digit window is a national-number candidate, and libphonenumber
  // costs up to ~0.5 ms a call: once per window this took minutes.
  it('digits and spaces, with a phone region', () => {
    const { text, at } = sprinkle(SHAPES['digits and spaces']!(25 * MB));
    expectAllFound(text, at, { phoneRegion: 'US' });
  }, 120_000);
});

describe("the person's patterns run on a linear-time engine", () => {
  it('a pattern that backtracks exponentially in JavaScript runs in linear time', () => {
    expect(userPatternFound('(a+)+$', 'a'.repeat(MB))).toBe(true);
    expect(userPatternFound('(a+)+$', `${'a'.repeat(MB)}!`)).toBe(false);
    expect(userPatternFound('^(a|a)+$', `${'a'.repeat(MB)}!`)).toBe(false);
    const found = detectSensitive(`${'a'.repeat(MB)} EMP-1234 `, { patterns: [{ id: 'emp', label: 'Employee id', regex: '(?:[A-Z]+)+-\\d{4}' }] });
    expect(found.map((f) => f.value)).toEqual(['EMP-1234']);
  });

  it('look-ahead and back-references are refused when saved, with a message that says why', () => {
    expect(userPatternProblem('(a)\\1')).toMatch(/back-references .* not supported/);
    expect(userPatternProblem('foo(?=bar)')).toMatch(/look-ahead .* not supported/);
    expect(userPatternProblem('[')).toMatch(/not a valid pattern/);
    expect(userPatternProblem('(?<!x)emp-\\d+')).toBeUndefined(); // look-behind is linear in re2js
    // The renderer words the kind in the person's language (rules.json `pattern.*`).
    expect(userPatternProblemKind('(a)\\k<n>')?.kind).toBe('back_reference');
    expect(userPatternProblemKind('(?!x)y')?.kind).toBe('look_ahead');
    expect(userPatternProblemKind('a{2')).toBeUndefined(); // RE2 reads an unclosed brace as literal text
    expect(userPatternProblemKind('(')).toEqual({ kind: 'syntax', detail: expect.stringMatching(/missing/) });
    const pattern = CustomPatternSchema.safeParse({ id: 'x', label: 'X', regex: '(\\w)\\1' });
    expect(pattern.success).toBe(false);
    expect(pattern.error?.issues[0]?.message).toMatch(/back-references/);
    const rules = RulesFileSchema.safeParse({ version: 1, servers: { s: { rules: [{ id: 'r', name: 'R', when: { messageText: { pattern: 'x(?!y)' } }, action: { kind: 'approve_all' } }] } } });
    expect(rules.success).toBe(false);
    expect(rules.error?.issues[0]?.message).toMatch(/look-ahead/);
  });
});
