/**
 * The rule engine (shared/rules.ts), table-driven: every condition with cases that hold and cases
 * that do not, first-match ordering, disabled rules, the default action, and versioning.
 */
import { describe, expect, it } from 'vitest';
import {
  bumpVersions,
  conditionFailures,
  ConditionsSchema,
  emptyRulesFile,
  estimateCostUsd,
  evaluateRules,
  globMatches,
  requestFacts,
  RulesFileSchema,
  ServerPolicySchema,
  type Conditions,
  type RuleFacts,
  type RuleInput,
} from '../../shared/rules.js';
import type { CreateMessageParams } from '../../shared/sampling.js';

const base: RuleFacts = {
  callNames: ['summarise'],
  maxTokens: 200,
  model: { providerId: 'local', modelId: 'llama' },
  kinds: ['text'],
  toolNames: [],
  systemPrompt: 'You are a helpful summariser.',
  messageText: 'Summarise the meeting notes.',
  estimatedCostUsd: 0.002,
  local: { weekday: 2, minutes: 10 * 60 },
  sensitiveCount: 0,
};
const f = (patch: Partial<RuleFacts>): RuleFacts => ({ ...base, ...patch });

/** [condition, facts, holds?] */
const CASES: Array<[string, Conditions, RuleFacts, boolean]> = [
  ['no conditions', {}, base, true],
  // tool call name pattern
  ['toolCall exact', { toolCall: 'summarise' }, base, true],
  ['toolCall other name', { toolCall: 'translate' }, base, false],
  ['toolCall glob', { toolCall: 'sum*' }, base, true],
  ['toolCall glob is anchored', { toolCall: 'umm*' }, base, false],
  ['toolCall: no call known', { toolCall: '*' }, f({ callNames: [] }), false],
  ['toolCall: ambiguous, all match', { toolCall: 'sum*' }, f({ callNames: ['summarise', 'sum-up'] }), true],
  ['toolCall: ambiguous, one does not', { toolCall: 'sum*' }, f({ callNames: ['summarise', 'delete-all'] }), false],
  // maxTokens ≤ N
  ['maxTokens below', { maxTokensAtMost: 500 }, base, true],
  ['maxTokens equal', { maxTokensAtMost: 200 }, base, true],
  ['maxTokens above', { maxTokensAtMost: 199 }, base, false],
  // model / provider in set
  ['model in set', { models: [{ providerId: 'x', modelId: 'y' }, { providerId: 'local', modelId: 'llama' }] }, base, true],
  ['model: same id, other provider', { models: [{ providerId: 'other', modelId: 'llama' }] }, base, false],
  ['provider in set', { providers: ['local'] }, base, true],
  ['provider not in set', { providers: ['openai', 'anthropic'] }, base, false],
  // content kinds
  ['text only, text', { media: [] }, base, true],
  ['text only, image', { media: [] }, f({ kinds: ['image', 'text'] }), false],
  ['images allowed, image', { media: ['image'] }, f({ kinds: ['image', 'text'] }), true],
  ['images allowed, audio', { media: ['image'] }, f({ kinds: ['audio', 'text'] }), false],
  ['images and audio allowed', { media: ['image', 'audio'] }, f({ kinds: ['audio', 'image', 'text'] }), true],
  // tools in request
  ['tools none, none offered', { tools: { kind: 'none' } }, base, true],
  ['tools none, one offered', { tools: { kind: 'none' } }, f({ toolNames: ['get_weather'] }), false],
  ['tools only, subset', { tools: { kind: 'only', names: ['get_weather', 'get_time'] } }, f({ toolNames: ['get_weather'] }), true],
  ['tools only, none offered', { tools: { kind: 'only', names: ['get_weather'] } }, base, true],
  ['tools only, other offered', { tools: { kind: 'only', names: ['get_weather'] } }, f({ toolNames: ['get_weather', 'rm_rf'] }), false],
  // system prompt / message text
  ['system matches', { systemPrompt: { pattern: 'summari[sz]er' } }, base, true],
  ['system matches, case-insensitive', { systemPrompt: { pattern: 'HELPFUL' } }, base, true],
  ['system does not match', { systemPrompt: { pattern: 'translator' } }, base, false],
  ['system must not match, absent', { systemPrompt: { pattern: 'ignore previous', negate: true } }, base, true],
  ['system must not match, present', { systemPrompt: { pattern: 'helpful', negate: true } }, base, false],
  ['message matches', { messageText: { pattern: '^summarise' } }, base, true],
  ['message does not match', { messageText: { pattern: 'password' } }, base, false],
  ['message must not match, present', { messageText: { pattern: 'meeting', negate: true } }, base, false],
  ['message must not match, absent', { messageText: { pattern: 'bank', negate: true } }, base, true],
  // estimated cost
  ['cost below', { maxCostUsd: 0.01 }, base, true],
  ['cost equal', { maxCostUsd: 0.002 }, base, true],
  ['cost above', { maxCostUsd: 0.001 }, base, false],
  ['cost unknown never holds', { maxCostUsd: 1000 }, f({ estimatedCostUsd: undefined }), false],
  // time window
  ['inside window', { timeWindow: { from: '09:00', to: '17:00' } }, base, true],
  ['at window start', { timeWindow: { from: '10:00', to: '17:00' } }, base, true],
  ['at window end (exclusive)', { timeWindow: { from: '08:00', to: '10:00' } }, base, false],
  ['outside window', { timeWindow: { from: '13:00', to: '17:00' } }, base, false],
  ['overnight window, late', { timeWindow: { from: '22:00', to: '06:00' } }, f({ local: { weekday: 2, minutes: 23 * 60 } }), true],
  ['overnight window, early', { timeWindow: { from: '22:00', to: '06:00' } }, f({ local: { weekday: 2, minutes: 5 * 60 } }), true],
  ['overnight window, midday', { timeWindow: { from: '22:00', to: '06:00' } }, base, false],
  ['weekday allowed', { timeWindow: { from: '00:00', to: '00:00', days: [1, 2, 3, 4, 5] } }, base, true],
  ['weekend only', { timeWindow: { from: '00:00', to: '00:00', days: [0, 6] } }, base, false],
  // sensitive data
  ['sensitive absent, none', { sensitive: 'absent' }, base, true],
  ['sensitive absent, some', { sensitive: 'absent' }, f({ sensitiveCount: 2 }), false],
  ['sensitive present, some', { sensitive: 'present' }, f({ sensitiveCount: 1 }), true],
  ['sensitive present, none', { sensitive: 'present' }, base, false],
  // AND
  ['all hold', { toolCall: 'summarise', maxTokensAtMost: 500, providers: ['local'], media: [], sensitive: 'absent' }, base, true],
  ['one of many fails', { toolCall: 'summarise', maxTokensAtMost: 500, providers: ['openai'], media: [] }, base, false],
];

describe('conditions', () => {
  it.each(CASES)('%s', (_name, when, facts, holds) => {
    const parsed = ConditionsSchema.parse(when);
    const why = conditionFailures(parsed, facts);
    expect(why.length === 0).toBe(holds);
    if (!holds) expect(why[0]).toMatch(/\w/); // says why, in words
  });

  it('refuses invalid conditions at the boundary', () => {
    expect(ConditionsSchema.safeParse({ systemPrompt: { pattern: '(' } }).success).toBe(false);
    expect(ConditionsSchema.safeParse({ timeWindow: { from: '25:00', to: '01:00' } }).success).toBe(false);
    expect(ConditionsSchema.safeParse({ maxTokensAtMost: 0 }).success).toBe(false);
    expect(ConditionsSchema.safeParse({ colour: 'red' }).success).toBe(false);
  });

  it.each([
    ['a*', 'abc', true],
    ['a*', 'bac', false],
    ['*-read', 'file-read', true],
    ['a.b', 'axb', false],
    ['exact', 'exact', true],
  ])('glob %s vs %s', (pattern, name, ok) => expect(globMatches(pattern, name)).toBe(ok));
});

const rule = (id: string, when: Conditions, action: RuleInput['action'], extra: Partial<RuleInput> = {}): RuleInput => ({ id, name: `rule ${id}`, when, action, ...extra });
const policy = (rules: RuleInput[], defaultAction?: RuleInput['action']) => ServerPolicySchema.parse({ rules, ...(defaultAction && { defaultAction }) });

describe('evaluation', () => {
  it('first matching rule wins, with its id, name and version', () => {
    const p = policy([
      rule('small', { maxTokensAtMost: 100 }, { kind: 'approve_all' }),
      rule('summaries', { toolCall: 'summarise' }, { kind: 'approve_request' }, { version: 4 }),
      rule('any', {}, { kind: 'reject', reason: 'no' }),
    ]);
    const d = evaluateRules('srv', p, base);
    expect(d).toMatchObject({ action: { kind: 'approve_request' }, rule: { serverId: 'srv', ruleId: 'summaries', version: 4, name: 'rule summaries' }, isDefault: false });
    expect(d.skipped).toEqual([{ ruleId: 'small', why: ['maxTokens 200 > 100'] }]);
  });

  it('order matters: the same rules reversed decide differently', () => {
    const a = rule('a', {}, { kind: 'reject', reason: 'blocked' });
    const b = rule('b', { toolCall: 'summarise' }, { kind: 'approve_all' });
    expect(evaluateRules('s', policy([a, b]), base).rule.ruleId).toBe('a');
    expect(evaluateRules('s', policy([b, a]), base).rule.ruleId).toBe('b');
  });

  it('disabled rules are passed over', () => {
    const d = evaluateRules('s', policy([rule('off', {}, { kind: 'approve_all' }, { enabled: false })]), base);
    expect(d.isDefault).toBe(true);
    expect(d.skipped).toEqual([]);
  });

  it.each([
    [undefined, 'ask'],
    [{ kind: 'reject', reason: 'not trusted' } as const, 'reject'],
    [{ kind: 'approve_request' } as const, 'approve_request'],
  ])('no rule matches: the default action (%j) decides', (defaultAction, kind) => {
    const d = evaluateRules('srv', policy([rule('big', { maxTokensAtMost: 10 }, { kind: 'approve_all' })], defaultAction), base);
    expect(d).toMatchObject({ isDefault: true, action: { kind }, rule: { ruleId: 'default', version: 1, name: 'default for srv' } });
  });

  it('a server with no policy asks', () => {
    const d = evaluateRules('srv', RulesFileSchema.parse({ version: 1 }).servers.srv ?? ServerPolicySchema.parse({}), base);
    expect(d.action).toEqual({ kind: 'ask' });
  });

  it('refuses duplicate rule ids', () => {
    expect(ServerPolicySchema.safeParse({ rules: [rule('x', {}, { kind: 'ask' }), rule('x', {}, { kind: 'ask' })] }).success).toBe(false);
  });
});

describe('versioning', () => {
  const file = (rules: RuleInput[], defaultAction?: RuleInput['action']) => RulesFileSchema.parse({ version: 1, servers: { s: { rules, ...(defaultAction && { defaultAction }) } } });
  const r1 = rule('r1', { maxTokensAtMost: 100 }, { kind: 'approve_all' }, { version: 3 });
  const r2 = rule('r2', {}, { kind: 'ask' });

  it.each<[string, RuleInput[], Record<string, number>]>([
    ['unchanged keeps its version', [r1, r2], { r1: 3, r2: 1 }],
    ['changed condition bumps', [{ ...r1, when: { maxTokensAtMost: 101 } }, r2], { r1: 4, r2: 1 }],
    ['changed action bumps', [{ ...r1, action: { kind: 'approve_request' } }, r2], { r1: 4, r2: 1 }],
    ['renamed bumps', [{ ...r1, name: 'renamed' }, r2], { r1: 4, r2: 1 }],
    ['disabled bumps', [{ ...r1, enabled: false }, r2], { r1: 4, r2: 1 }],
    ['reordering alone does not bump', [r2, r1], { r1: 3, r2: 1 }],
    ['a new rule starts at 1', [r1, r2, rule('r3', {}, { kind: 'ask' })], { r1: 3, r2: 1, r3: 1 }],
    ['a version going backwards is raised', [{ ...r1, version: 1 }, r2], { r1: 3, r2: 1 }],
  ])('%s', (_name, next, versions) => {
    const out = bumpVersions(file([r1, r2]), file(next));
    expect(Object.fromEntries(out.servers.s!.rules.map((r) => [r.id, r.version]))).toEqual(versions);
  });

  it('the default action has its own version', () => {
    const before = file([r1]);
    expect(bumpVersions(before, file([r1])).servers.s!.defaultVersion).toBe(1);
    expect(bumpVersions(before, file([r1], { kind: 'reject', reason: 'x' })).servers.s!.defaultVersion).toBe(2);
  });

  it('a server new to the file keeps what it says', () => {
    expect(bumpVersions(emptyRulesFile(), file([r1])).servers.s!.rules[0]!.version).toBe(3);
  });
});

describe('facts', () => {
  const params: CreateMessageParams = {
    systemPrompt: 'sys',
    maxTokens: 1000,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      { role: 'assistant', content: { type: 'tool_use', id: 't1', name: 'get_weather', input: {} } },
      { role: 'user', content: { type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'sunny' }] } },
    ],
    tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }],
  };

  it('reads kinds, tools and all text (tool results included)', () => {
    const facts = requestFacts(params, ['weather'], { providerId: 'p', modelId: 'm' });
    expect(facts).toMatchObject({ kinds: ['image', 'text', 'tool_result', 'tool_use'], toolNames: ['get_weather'], messageText: 'look\nsunny', maxTokens: 1000 });
  });

  it('estimates cost from text size, media and maxTokens at the given prices ($ per million tokens)', () => {
    const cheap = estimateCostUsd(params, { inputPerMTok: 1, outputPerMTok: 2 });
    // output: 1000 tokens × $2/M = $0.002; input: 1 image (1000 tokens) + a few characters
    expect(cheap).toBeGreaterThan(0.003);
    expect(cheap).toBeLessThan(0.0032);
    expect(estimateCostUsd({ ...params, maxTokens: 2000 }, { inputPerMTok: 1, outputPerMTok: 2 })).toBeCloseTo(cheap + 0.002, 6);
  });
});
