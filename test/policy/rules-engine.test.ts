/**
 * The rule engine (shared/contract/rules.ts), table-driven: every condition with cases that hold and cases
 * that do not, first-match ordering, disabled rules, the default action, and versioning.
 */
import { describe, expect, it } from 'vitest';
import {
  bumpVersions,
  conditionFailures,
  ConditionsSchema,
  emptyRulesFile,
  ELICITATION_RULE_ID,
  estimateCostUsd,
  evaluateElicitation,
  evaluateRules,
  globMatches,
  requestFacts,
  RulesFileSchema,
  ServerPolicySchema,
  type Conditions,
  type RuleFacts,
  type RuleInput,
} from '../../shared/contract/rules.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import { costOfUsage, defaultModelPrice, estimateInputTokens, imageTokens, isLoopbackURL } from '../../shared/domain/model-prices.js';
import { defaultModelFacts, ModelFactsSchema } from '../../shared/contract/providers.js';

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
  ['cost at least, above', { minCostUsd: 0.001 }, base, true],
  ['cost at least, equal', { minCostUsd: 0.002 }, base, true],
  ['cost at least, below', { minCostUsd: 0.01 }, base, false],
  ['cost at least, unknown holds (it may cost more)', { minCostUsd: 1000 }, f({ estimatedCostUsd: undefined }), true],
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

  it('estimates input tokens from text size (1 per 4 characters, tool calls and definitions as JSON) and media size', () => {
    const toolUse = JSON.stringify(params.messages[1]!.content).length;
    const toolDef = JSON.stringify(params.tools![0]).length;
    const chars = 'sys'.length + 'look'.length + toolUse + ('sunny'.length + 40) + toolDef;
    expect(estimateInputTokens(params)).toBe(Math.ceil(chars / 4) + imageTokens(3));
    expect(imageTokens(3)).toBe(86);
  });

  it('media: bigger images and longer audio cost more; an image never more than 1,600 tokens', () => {
    const withImage = (bytes: number): CreateMessageParams => ({ maxTokens: 1, messages: [{ role: 'user', content: { type: 'image', data: 'A'.repeat((bytes / 3) * 4), mimeType: 'image/png' } }] });
    const withAudio = (bytes: number): CreateMessageParams => ({ maxTokens: 1, messages: [{ role: 'user', content: { type: 'audio', data: 'A'.repeat((bytes / 3) * 4), mimeType: 'audio/wav' } }] });
    expect(estimateInputTokens(withImage(30_000))).toBe(85 + 120);
    expect(estimateInputTokens(withImage(3_000_000))).toBe(1600);
    expect(estimateInputTokens(withAudio(48_000))).toBe(96);
    expect(estimateInputTokens(withAudio(480_000))).toBe(960);
  });

  it('estimates cost as input estimate + maxTokens at the given prices ($ per million tokens)', () => {
    const price = { inputPerMTok: 1, outputPerMTok: 2 };
    const cost = estimateCostUsd(params, price);
    expect(cost).toBeCloseTo((estimateInputTokens(params) * 1 + 1000 * 2) / 1e6, 12);
    expect(estimateCostUsd({ ...params, maxTokens: 2000 }, price)).toBeCloseTo(cost + 0.002, 12);
    expect(estimateCostUsd(params, { inputPerMTok: 0, outputPerMTok: 0 })).toBe(0);
    expect(costOfUsage({ inputTokens: 1_000_000, outputTokens: 500_000 }, { inputPerMTok: 3, outputPerMTok: 15 })).toBeCloseTo(10.5, 9);
    expect(costOfUsage(undefined, price)).toBe(0);
  });
});

describe('model prices', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5', { inputPerMTok: 3, outputPerMTok: 15 }],
    ['anthropic', 'claude-haiku-4-5', { inputPerMTok: 1, outputPerMTok: 5 }],
    ['anthropic', 'claude-3-5-haiku-latest', { inputPerMTok: 0.8, outputPerMTok: 4 }],
    ['anthropic', 'claude-opus-4-1', { inputPerMTok: 15, outputPerMTok: 75 }],
    ['openai', 'gpt-4o-mini', { inputPerMTok: 0.15, outputPerMTok: 0.6 }],
    ['openai', 'gpt-4o', { inputPerMTok: 2.5, outputPerMTok: 10 }],
    ['openai', 'gpt-4.1-mini', { inputPerMTok: 0.4, outputPerMTok: 1.6 }],
    ['openai', 'gpt-5-nano', { inputPerMTok: 0.05, outputPerMTok: 0.4 }],
    ['google', 'gemini-2.5-flash', { inputPerMTok: 0.3, outputPerMTok: 2.5 }],
    ['google', 'gemini-2.5-flash-lite', { inputPerMTok: 0.1, outputPerMTok: 0.4 }],
    ['google', 'gemini-2.5-pro', { inputPerMTok: 1.25, outputPerMTok: 10 }],
  ] as const)('%s %s has its list price built in', (kind, model, price) => {
    expect(defaultModelPrice(kind, model)).toEqual(price);
  });

  it('unknown hosted models and remote OpenAI-compatible endpoints have no price; loopback endpoints and the manual provider cost 0', () => {
    expect(defaultModelPrice('anthropic', 'claude-next-unknown')).toBeUndefined();
    expect(defaultModelPrice('openai-compatible', 'openai/gpt-4o-mini', 'https://openrouter.ai/api/v1')).toBeUndefined();
    expect(defaultModelPrice('openai-compatible', 'llama3.2', undefined)).toBeUndefined();
    for (const url of ['http://127.0.0.1:11434/v1', 'http://localhost:1234/v1', 'http://[::1]:8080/v1', 'http://user@127.0.0.5/v1']) {
      expect(defaultModelPrice('openai-compatible', 'llama3.2', url)).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
    }
    expect(isLoopbackURL('http://127.0.0.1.evil.example/v1')).toBe(false);
    expect(isLoopbackURL('http://localhost.evil.example/v1')).toBe(false);
    expect(defaultModelPrice('manual', 'manual')).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
  });

  it('a price in the model facts is valid only with both numbers, not negative', () => {
    expect(ModelFactsSchema.safeParse({ ...defaultModelFacts('openai-compatible', 'llama3.2'), price: { inputPerMTok: 0.2, outputPerMTok: 0.4 } }).success).toBe(true);
    expect(ModelFactsSchema.safeParse({ ...defaultModelFacts('openai-compatible', 'llama3.2'), price: { inputPerMTok: -1, outputPerMTok: 0.4 } }).success).toBe(false);
    expect(ModelFactsSchema.safeParse({ ...defaultModelFacts('openai-compatible', 'llama3.2'), price: { inputPerMTok: 1 } }).success).toBe(false);
  });
});

describe('elicitation policy', () => {
  const policyWith = (elicitation?: unknown) => ServerPolicySchema.parse(elicitation === undefined ? {} : { elicitation });

  it('asks unless the server says "decline"; the decision names the policy and its version', () => {
    expect(evaluateElicitation('s', policyWith())).toMatchObject({ action: 'ask', rule: { ruleId: ELICITATION_RULE_ID, version: 1 } });
    expect(evaluateElicitation('s', policyWith({ action: 'ask' })).action).toBe('ask');
    expect(evaluateElicitation('s', policyWith({ action: 'decline', version: 4 }))).toEqual({
      action: 'decline',
      rule: { serverId: 's', ruleId: 'elicitation', version: 4, name: 'always decline elicitation from s' },
    });
  });

  it('only ask or decline: accepting automatically cannot be configured', () => {
    expect(ServerPolicySchema.safeParse({ elicitation: { action: 'accept' } }).success).toBe(false);
    expect(ServerPolicySchema.safeParse({ elicitation: { action: 'decline', extra: 1 } }).success).toBe(false);
  });

  it('a change of the elicitation action raises its version; an unchanged one keeps it', () => {
    const f = (action: 'ask' | 'decline', version = 1) => RulesFileSchema.parse({ version: 1, servers: { s: { elicitation: { action, version } } } });
    expect(bumpVersions(f('ask', 3), f('decline')).servers.s!.elicitation).toEqual({ action: 'decline', version: 4 });
    expect(bumpVersions(f('decline', 4), f('decline')).servers.s!.elicitation).toEqual({ action: 'decline', version: 4 });
    expect(bumpVersions(emptyRulesFile(), f('decline')).servers.s!.elicitation).toEqual({ action: 'decline', version: 2 });
  });
});
