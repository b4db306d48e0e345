/**
 * Redaction (shared/domain/sensitive-data.ts detectors, shared/domain/redaction.ts): each detector finds what it should and leaves look-alikes alone,
 * placeholders are typed, requests are redacted in every text place, and scrubbing keeps JSON shape.
 */
import { describe, expect, it } from 'vitest';
import { detectInRequest, redactRequest, redactText, scrubJson } from '../../shared/domain/redaction.js';
import { CustomPatternSchema, detectSensitive, luhnValid } from '../../shared/domain/sensitive-data.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';

const key36 = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

/** [name, text, detector expected (undefined = nothing found), value expected] */
const FINDS: Array<[string, string, string | undefined, string?]> = [
  ['OpenAI project key', 'use sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z please', 'openai', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'],
  ['Anthropic key', `key: sk-ant-api03-${'x1Y2z3'.repeat(10)}`, 'anthropic'],
  ['GitHub PAT (classic)', `token ghp_${key36}`, 'github', `ghp_${key36}`],
  ['GitHub fine-grained PAT', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'github'],
  ['GitLab token', 'glpat-abcdefghij0123456789', 'gitlab'],
  ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE is the id', 'aws_access_key', 'AKIAIOSFODNN7EXAMPLE'],
  ['AWS secret (only the value)', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  ['Google API key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', 'google'],
  ['Slack bot token', 'xoxb-123456789012-abcdefghijkl', 'slack'],
  ['Stripe live key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'stripe'],
  ['npm token', `npm_${key36}`, 'npm'],
  ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'jwt'],
  ['Bearer header (only the token)', 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123', 'bearer', 'abcdefghijklmnopqrstuvwxyz0123'],
  ['private key block', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----', 'private_key'],
  ['password in a URL (only the password)', 'postgres://admin:hunter2pass@db.example.com/app', 'url_password', 'hunter2pass'],
  ['password assignment', 'password=S3cr3t!xyz', 'password_assignment', 'S3cr3t!xyz'],
  ['api_key assignment', 'api_key: "9f8e7d6c5b4a"', 'assignment', '9f8e7d6c5b4a'],
  ['e-mail', 'write to jane.doe+work@example.co.uk today', 'email', 'jane.doe+work@example.co.uk'],
  ['international phone', 'call +44 20 7946 0958 now', 'phone', '+44 20 7946 0958'],
  ['Visa test number (Luhn)', 'card 4111 1111 1111 1111 exp', 'luhn', '4111 1111 1111 1111'],
  ['Amex with dashes (Luhn)', 'card 3782-822463-10005', 'luhn', '3782-822463-10005'],
  // look-alikes
  ['16 digits failing Luhn', 'order 4111 1111 1111 1112', undefined],
  ['prose "token:"', 'token: the next step is easy', undefined],
  ['a plain URL without password', 'see https://example.com/a@b', undefined],
  ['a short sk- word', 'task sk-short', undefined],
  ['a national number without a region', 'call 020 7946 0958', undefined],
];

describe('detectors', () => {
  it.each(FINDS)('%s', (_name, text, detector, value) => {
    const found = detectSensitive(text);
    if (detector === undefined) return expect(found).toEqual([]);
    expect(found.map((f) => f.detector)).toContain(detector);
    const hit = found.find((f) => f.detector === detector)!;
    expect(text.slice(hit.start, hit.end)).toBe(hit.value);
    if (value) expect(hit.value).toBe(value);
  });

  it('reads national phone numbers in the configured region', () => {
    expect(detectSensitive('call (415) 555-2671', { phoneRegion: 'US' }).map((f) => f.kind)).toEqual(['phone']);
    expect(detectSensitive('call (415) 555-2671')).toEqual([]);
  });

  it('adds the person\'s own patterns, typed by their id', () => {
    const patterns = [CustomPatternSchema.parse({ id: 'employee-id', label: 'Employee id', regex: 'EMP-\\d{6}' })];
    const text = 'ask EMP-123456 or emp-654321';
    expect(redactText(text, detectSensitive(text, { patterns }))).toBe('ask [REDACTED:employee-id] or emp-654321');
    const ci = [{ ...patterns[0]!, ignoreCase: true }];
    expect(detectSensitive(text, { patterns: ci })).toHaveLength(2);
    expect(CustomPatternSchema.safeParse({ id: 'x', label: 'x', regex: '([' }).success).toBe(false);
  });

  it('resolves overlaps: a URL password is not also an e-mail', () => {
    const found = detectSensitive('https://bob:pw123456@mail.example.com');
    expect(found.map((f) => f.kind)).toEqual(['password']);
  });

  it.each([
    ['4111111111111111', true],
    ['4111111111111112', false],
    ['79927398713', false], // valid Luhn but too short for a card
    ['6011000990139424', true],
  ])('Luhn %s → %s', (digits, ok) => expect(luhnValid(digits)).toBe(ok));
});

describe('redacting', () => {
  it('replaces with typed placeholders, keeping the rest', () => {
    const text = 'mail a@b.io, key AKIAIOSFODNN7EXAMPLE.';
    expect(redactText(text, detectSensitive(text))).toBe('mail [REDACTED:email], key [REDACTED:api_key].');
  });

  it('skips stale findings (the text changed since detection)', () => {
    const findings = detectSensitive('mail a@b.io');
    expect(redactText('mail x@y.io', findings)).toBe('mail x@y.io');
  });

  const params: CreateMessageParams = {
    systemPrompt: 'Reply to ops@example.com',
    maxTokens: 10,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'my card 4111 1111 1111 1111' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      { role: 'assistant', content: { type: 'tool_use', id: 't', name: 'lookup', input: { q: 'x' } } },
      { role: 'user', content: { type: 'tool_result', toolUseId: 't', content: [{ type: 'text', text: 'phone +1 415 555 2671' }] } },
    ],
  };

  it('finds data in the system prompt, text blocks and tool results, with places', () => {
    const found = detectInRequest(params);
    expect(found.map((f) => [f.kind, f.place])).toEqual([
      ['email', { where: 'system' }],
      ['card', { where: 'message', message: 0, block: 0 }],
      ['phone', { where: 'message', message: 2, block: 0, inner: 0 }],
    ]);
  });

  it('redacts a whole request (or only the chosen findings) and keeps its shape', () => {
    const all = redactRequest(params);
    expect(all.systemPrompt).toBe('Reply to [REDACTED:email]');
    expect(all.messages[0]!.content).toEqual([{ type: 'text', text: 'my card [REDACTED:card]' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }]);
    expect(all.messages[2]!.content).toMatchObject({ content: [{ text: 'phone [REDACTED:phone]' }] });
    expect(all.messages[1]).toBe(params.messages[1]);
    const onlyCard = redactRequest(params, detectInRequest(params).filter((f) => f.kind === 'card'));
    expect(onlyCard.systemPrompt).toBe(params.systemPrompt);
    expect(JSON.stringify(onlyCard)).toContain('[REDACTED:card]');
    expect(redactRequest({ maxTokens: 1, messages: [] })).toEqual({ maxTokens: 1, messages: [] });
  });

  it('scrubs a JSON value, returning the same object when nothing changed', () => {
    const value = { a: ['x', 'mail me: a@b.io'], n: 1 };
    expect(scrubJson(value, () => true)).toEqual({ a: ['x', 'mail me: [REDACTED:email]'], n: 1 });
    expect(scrubJson(value, () => false)).toBe(value);
  });
});
