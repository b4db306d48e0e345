/**
 * Auto-approve rules, rate limits and redaction settings: the versioned rules file (`rules.json`
 * in the user-data folder) as zod schemas, and the pure rule engine.
 *
 * Per server, an ordered list of rules; each has conditions (all optional, ANDed) and an action.
 * The first enabled rule whose conditions all hold decides; when none does, the server's default
 * action does (ask, unless the person set otherwise). Every rule carries a `version`, bumped on
 * every change ({@link bumpVersions}), so history can name the exact rule that decided.
 *
 * Pure: imports only zod and the shared contract.
 */
import { z } from 'zod';
import { CustomPatternSchema } from './redaction.js';
import { contentBlocks, type CreateMessageParams } from './sampling.js';
import type { ModelRef, RuleRef } from './state.js';

/**
 * JSON-RPC error code a server gets when a limit refuses its request ("Rate limited: …").
 * Implementation-defined (JSON-RPC reserves -32000…-32099); not -1, since no person rejected it,
 * and not -32050 (the tool-loop cap).
 */
export const RATE_LIMITED_CODE = -32051;

/** The rules file format version this console writes and reads. */
export const RULES_FILE_VERSION = 1;

const ModelRefSchema = z.object({ providerId: z.string().min(1).max(200), modelId: z.string().min(1).max(500) });

/** A regular expression as a person writes it (matched case-insensitively). */
const PatternSchema = z
  .string()
  .min(1)
  .max(1000)
  .refine((s) => {
    try {
      new RegExp(s, 'iu');
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression');

/** "HH:MM", 24-hour local time. */
const ClockSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'use HH:MM (24-hour), e.g. "09:00"');

/** A text condition: the text matches `pattern` (or, with `negate`, does not). */
export const TextConditionSchema = z.object({ pattern: PatternSchema, negate: z.boolean().optional() }).strict();

/**
 * A rule's conditions; every one present must hold (AND). Absent = no constraint.
 * - `toolCall`: name of the client request (tool) the sampling request belongs to; `*` matches any
 *   run of characters, otherwise exact. When several calls were in flight, all must match.
 * - `maxTokensAtMost`: the request's `maxTokens` ≤ N (tokens).
 * - `models` / `providers`: the chosen model / its provider is one of these.
 * - `media`: media kinds allowed besides text (`[]` = text only).
 * - `tools`: tools offered in the request: `none`, or `only` these names.
 * - `systemPrompt` / `messageText`: regular expression (case-insensitive) matching or not.
 * - `maxCostUsd`: estimated cost ≤ $X; never holds while the model's price is unknown.
 * - `timeWindow`: local time in [from, to) (wrapping midnight when from > to), on `days` (0 = Sunday).
 * - `sensitive`: sensitive data (redaction detectors) `absent` or `present`.
 */
export const ConditionsSchema = z
  .object({
    toolCall: z.string().trim().min(1).max(500).optional(),
    maxTokensAtMost: z.number().int().positive().optional(),
    models: z.array(ModelRefSchema).min(1).max(100).optional(),
    providers: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
    media: z.array(z.enum(['image', 'audio'])).max(2).optional(),
    tools: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('none') }).strict(),
        z.object({ kind: z.literal('only'), names: z.array(z.string().min(1).max(200)).min(1).max(200) }).strict(),
      ])
      .optional(),
    systemPrompt: TextConditionSchema.optional(),
    messageText: TextConditionSchema.optional(),
    maxCostUsd: z.number().min(0).max(1_000_000).optional(),
    timeWindow: z
      .object({ from: ClockSchema, to: ClockSchema, days: z.array(z.number().int().min(0).max(6)).min(1).max(7).optional() })
      .strict()
      .optional(),
    sensitive: z.enum(['absent', 'present']).optional(),
  })
  .strict();
/** See {@link ConditionsSchema}. */
export type Conditions = z.infer<typeof ConditionsSchema>;

/**
 * What a rule does: `ask` the person; `approve_request` (the person still reviews the response);
 * `approve_all` (fully unattended); `reject` (the server gets -1 with `reason` in history);
 * `redact` (replace detected sensitive data with placeholders, then approve as `then` says).
 */
export const RuleActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ask') }).strict(),
  z.object({ kind: z.literal('approve_request') }).strict(),
  z.object({ kind: z.literal('approve_all') }).strict(),
  z.object({ kind: z.literal('reject'), reason: z.string().trim().min(1).max(500) }).strict(),
  z.object({ kind: z.literal('redact'), then: z.enum(['approve_request', 'approve_all']) }).strict(),
]);
/** See {@link RuleActionSchema}. */
export type RuleAction = z.infer<typeof RuleActionSchema>;

/** One rule. `version` starts at 1 and is bumped by the console on every change. */
export const RuleSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'use 1–64 letters, digits, ".", "_" or "-"'),
    name: z.string().trim().min(1).max(200),
    version: z.number().int().min(1).default(1),
    enabled: z.boolean().default(true),
    when: ConditionsSchema.default({}),
    action: RuleActionSchema,
  })
  .strict();
/** See {@link RuleSchema} (parsed). */
export type Rule = z.infer<typeof RuleSchema>;
/** A rule as written (defaults not yet applied). */
export type RuleInput = z.input<typeof RuleSchema>;

/**
 * Limits. `requestsPerMinute`: a token bucket holding that many requests, refilled evenly over a
 * minute; `maxWaiting`: requests admitted and not yet finished; `tokensPerDay`: input + output
 * tokens providers reported since local midnight; `spendPerDayUsd`: estimated $ since local midnight
 * (only where model prices are known).
 */
export const LimitsSchema = z
  .object({
    requestsPerMinute: z.number().int().min(1).max(100_000).optional(),
    maxWaiting: z.number().int().min(1).max(100_000).optional(),
    tokensPerDay: z.number().int().min(1).optional(),
    spendPerDayUsd: z.number().positive().optional(),
  })
  .strict();
/** See {@link LimitsSchema}. */
export type Limits = z.infer<typeof LimitsSchema>;

/** Limits applied when a server (or the console as a whole) sets none. */
export const DEFAULT_SERVER_LIMITS = { requestsPerMinute: 120, maxWaiting: 50 } as const;
/** The console-wide cap when the file sets none. */
export const DEFAULT_GLOBAL_LIMITS = { requestsPerMinute: 600, maxWaiting: 200 } as const;

/** One server's policy. `defaultVersion` versions the default action like a rule's version. */
export const ServerPolicySchema = z
  .object({
    defaultAction: RuleActionSchema.default({ kind: 'ask' }),
    defaultVersion: z.number().int().min(1).default(1),
    limits: LimitsSchema.optional(),
    rules: z.array(RuleSchema).max(500).default([]),
  })
  .strict()
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.rules.forEach((r, i) => {
      if (seen.has(r.id)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `duplicate rule id "${r.id}"` });
      seen.add(r.id);
    });
  });
/** See {@link ServerPolicySchema} (parsed). */
export type ServerPolicy = z.infer<typeof ServerPolicySchema>;

/** Redaction settings: extra patterns, whether unredacted originals stay in history, the phone region. */
export const RedactionSettingsSchema = z
  .object({
    patterns: z.array(CustomPatternSchema).max(200).default([]),
    keepOriginals: z.boolean().default(false),
    phoneRegion: z.string().regex(/^[A-Z]{2}$/, 'a two-letter region code such as "US"').optional(),
  })
  .strict();
/** See {@link RedactionSettingsSchema}. */
export type RedactionSettings = z.infer<typeof RedactionSettingsSchema>;

/** The whole rules file. */
export const RulesFileSchema = z
  .object({
    version: z.literal(RULES_FILE_VERSION),
    /** The global "pause all auto-approval" switch: approve actions ask instead (reject rules still apply). */
    paused: z.boolean().default(false),
    global: LimitsSchema.pick({ requestsPerMinute: true, maxWaiting: true }).strict().default({}),
    redaction: RedactionSettingsSchema.default({ patterns: [], keepOriginals: false }),
    servers: z.record(z.string().min(1).max(200), ServerPolicySchema).default({}),
  })
  .strict();
/** See {@link RulesFileSchema} (parsed). */
export type RulesFile = z.infer<typeof RulesFileSchema>;

/** An empty rules file: every server asks, default limits. */
export const emptyRulesFile = (): RulesFile => RulesFileSchema.parse({ version: RULES_FILE_VERSION });

/** A server's policy, or the default one (ask, no rules) when the file has none. */
export const serverPolicyOf = (file: RulesFile, serverId: string): ServerPolicy =>
  file.servers[serverId] ?? ServerPolicySchema.parse({});

/** What the engine knows about a request. */
export interface RuleFacts {
  /** Tool names of the client requests it may belong to (several when the association is not exact). */
  callNames: string[];
  maxTokens: number;
  model: ModelRef;
  /** Content kinds present in the messages ("text", "image", "audio", "tool_use", "tool_result"). */
  kinds: string[];
  /** Names of the tools offered in the request; empty when none. */
  toolNames: string[];
  systemPrompt: string;
  /** All text of all messages (including text inside tool results), joined by newlines. */
  messageText: string;
  /** Estimated cost in USD; undefined when the model's price is unknown. */
  estimatedCostUsd?: number;
  /** Local time of day: weekday 0 = Sunday, minutes since midnight. */
  local: { weekday: number; minutes: number };
  /** How many sensitive-data findings the request holds. */
  sensitiveCount: number;
}

/** Model prices in USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/**
 * Estimated cost of a request in USD: input ≈ 1 token per 4 characters of text plus 1,000 tokens
 * per image or audio block, output = `maxTokens` (the most it may cost).
 */
export function estimateCostUsd(params: CreateMessageParams, price: ModelPrice): number {
  let chars = (params.systemPrompt ?? '').length;
  let media = 0;
  for (const m of params.messages) {
    for (const b of contentBlocks(m.content)) {
      if (b.type === 'image' || b.type === 'audio') media++;
      else chars += JSON.stringify(b).length;
    }
  }
  const input = Math.ceil(chars / 4) + media * 1000;
  return (input * price.inputPerMTok + params.maxTokens * price.outputPerMTok) / 1_000_000;
}

/**
 * The facts of a request that depend only on it (no clock, prices or detectors):
 * call names, maxTokens, model, content kinds, tools, texts. The caller adds the rest.
 */
export function requestFacts(params: CreateMessageParams, callNames: string[], model: ModelRef): Omit<RuleFacts, 'local' | 'sensitiveCount' | 'estimatedCostUsd'> {
  const kinds = new Set<string>();
  const texts: string[] = [];
  for (const m of params.messages) {
    for (const b of contentBlocks(m.content)) {
      kinds.add(b.type);
      if (b.type === 'text') texts.push(b.text);
      if (b.type === 'tool_result') for (const inner of b.content) if (inner.type === 'text' && typeof inner.text === 'string') texts.push(inner.text);
    }
  }
  return {
    callNames,
    maxTokens: params.maxTokens,
    model: { providerId: model.providerId, modelId: model.modelId },
    kinds: [...kinds].sort(),
    toolNames: (params.tools ?? []).map((t) => t.name),
    systemPrompt: params.systemPrompt ?? '',
    messageText: texts.join('\n'),
  };
}

/** Anchored glob: `*` matches any run of characters, everything else literally. */
export function globMatches(pattern: string, name: string): boolean {
  const re = pattern
    .split('*')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${re}$`).test(name);
}

const minutesOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

function textHolds(cond: z.infer<typeof TextConditionSchema>, text: string): boolean {
  const found = new RegExp(cond.pattern, 'iu').test(text);
  return cond.negate ? !found : found;
}

/**
 * Which conditions of `when` do not hold for `facts`, as readable lines; empty when the rule matches.
 */
export function conditionFailures(when: Conditions, facts: RuleFacts): string[] {
  const out: string[] = [];
  if (when.toolCall !== undefined) {
    const ok = facts.callNames.length > 0 && facts.callNames.every((n) => globMatches(when.toolCall!, n));
    if (!ok) out.push(`tool call ${facts.callNames.length ? facts.callNames.join(', ') : '(none)'} is not "${when.toolCall}"`);
  }
  if (when.maxTokensAtMost !== undefined && facts.maxTokens > when.maxTokensAtMost) out.push(`maxTokens ${facts.maxTokens} > ${when.maxTokensAtMost}`);
  if (when.models && !when.models.some((m) => m.providerId === facts.model.providerId && m.modelId === facts.model.modelId)) {
    out.push(`model ${facts.model.providerId}/${facts.model.modelId} is not in the list`);
  }
  if (when.providers && !when.providers.includes(facts.model.providerId)) out.push(`provider ${facts.model.providerId} is not in the list`);
  if (when.media) {
    const extra = facts.kinds.filter((k) => (k === 'image' || k === 'audio') && !when.media!.includes(k));
    if (extra.length) out.push(`holds ${extra.join(' and ')}, which the rule does not allow`);
  }
  if (when.tools) {
    if (when.tools.kind === 'none' && facts.toolNames.length > 0) out.push(`offers tools (${facts.toolNames.join(', ')})`);
    if (when.tools.kind === 'only') {
      const allowed = when.tools.names;
      const other = facts.toolNames.filter((n) => !allowed.includes(n));
      if (other.length) out.push(`offers tools not in the list: ${other.join(', ')}`);
    }
  }
  if (when.systemPrompt && !textHolds(when.systemPrompt, facts.systemPrompt)) {
    out.push(`system prompt ${when.systemPrompt.negate ? 'matches' : 'does not match'} /${when.systemPrompt.pattern}/`);
  }
  if (when.messageText && !textHolds(when.messageText, facts.messageText)) {
    out.push(`message text ${when.messageText.negate ? 'matches' : 'does not match'} /${when.messageText.pattern}/`);
  }
  if (when.maxCostUsd !== undefined) {
    if (facts.estimatedCostUsd === undefined) out.push('estimated cost unknown (no price for this model)');
    else if (facts.estimatedCostUsd > when.maxCostUsd) out.push(`estimated cost $${facts.estimatedCostUsd.toFixed(4)} > $${when.maxCostUsd}`);
  }
  if (when.timeWindow) {
    const { from, to, days } = when.timeWindow;
    const m = facts.local.minutes;
    const a = minutesOf(from);
    const b = minutesOf(to);
    const inTime = a === b ? true : a < b ? m >= a && m < b : m >= a || m < b;
    if (!inTime) out.push(`outside ${from}–${to}`);
    else if (days && !days.includes(facts.local.weekday)) out.push('not on an allowed day');
  }
  if (when.sensitive === 'absent' && facts.sensitiveCount > 0) out.push(`contains sensitive data (${facts.sensitiveCount})`);
  if (when.sensitive === 'present' && facts.sensitiveCount === 0) out.push('contains no sensitive data');
  return out;
}

/** The rule id history names when a server's default action decided. */
export const DEFAULT_RULE_ID = 'default';

/** What the engine decided, with the rule (or the default) and every rule it passed over. */
export interface RuleDecision {
  action: RuleAction;
  /** The rule that decided; `ruleId` {@link DEFAULT_RULE_ID} for the server's default action. */
  rule: RuleRef;
  /** True when no rule matched and the default action applies. */
  isDefault: boolean;
  /** Each enabled rule tried before the decision, with why it did not match. */
  skipped: Array<{ ruleId: string; why: string[] }>;
}

/**
 * The rule engine: first enabled matching rule wins; otherwise the server's default action.
 * Pure and total (never throws for a parsed policy).
 */
export function evaluateRules(serverId: string, policy: ServerPolicy, facts: RuleFacts): RuleDecision {
  const skipped: RuleDecision['skipped'] = [];
  for (const rule of policy.rules) {
    if (!rule.enabled) continue;
    const why = conditionFailures(rule.when, facts);
    if (why.length === 0) {
      return { action: rule.action, rule: { serverId, ruleId: rule.id, version: rule.version, name: rule.name }, isDefault: false, skipped };
    }
    skipped.push({ ruleId: rule.id, why });
  }
  return {
    action: policy.defaultAction,
    rule: { serverId, ruleId: DEFAULT_RULE_ID, version: policy.defaultVersion, name: `default for ${serverId}` },
    isDefault: true,
    skipped,
  };
}

const ruleBody = (r: Rule) => JSON.stringify({ name: r.name, enabled: r.enabled, when: r.when, action: r.action });

/**
 * Versions `next` against `prev`: a rule whose name, enabled flag, conditions or action changed
 * gets `prev.version + 1` (unless `next` already carries a higher version); an unchanged rule keeps
 * its version; a new rule keeps the version it has (1 by default). The same for each server's
 * default action (`defaultVersion`). Pure.
 */
export function bumpVersions(prev: RulesFile, next: RulesFile): RulesFile {
  const servers: RulesFile['servers'] = {};
  for (const [id, policy] of Object.entries(next.servers)) {
    const before = prev.servers[id];
    const old = new Map((before?.rules ?? []).map((r) => [r.id, r]));
    const rules = policy.rules.map((r) => {
      const o = old.get(r.id);
      if (!o) return r;
      if (ruleBody(o) === ruleBody(r)) return { ...r, version: Math.max(r.version, o.version) };
      return { ...r, version: Math.max(r.version, o.version + 1) };
    });
    const prevDefault = before?.defaultAction ?? { kind: 'ask' };
    const prevDefaultVersion = before?.defaultVersion ?? 1;
    const defaultVersion =
      JSON.stringify(prevDefault) === JSON.stringify(policy.defaultAction)
        ? Math.max(policy.defaultVersion, prevDefaultVersion)
        : Math.max(policy.defaultVersion, prevDefaultVersion + 1);
    servers[id] = { ...policy, rules, defaultVersion };
  }
  return { ...next, servers };
}

/** Whether the action auto-approves (sends without the person). */
export const isApproving = (a: RuleAction): boolean => a.kind === 'approve_request' || a.kind === 'approve_all' || a.kind === 'redact';

/** One-line description of an action, for lists and history. */
export function describeAction(a: RuleAction): string {
  switch (a.kind) {
    case 'ask':
      return 'always ask';
    case 'approve_request':
      return 'auto-approve the request (you review the response)';
    case 'approve_all':
      return 'auto-approve request and response';
    case 'reject':
      return `always reject: ${a.reason}`;
    case 'redact':
      return `auto-redact, then ${a.then === 'approve_all' ? 'approve request and response' : 'approve the request'}`;
  }
}

/** Counters of one server since the console started (tokens and spend: since local midnight). */
export interface ServerCounters {
  /** Requests answered "rate limited" (any limit). */
  rateLimited: number;
  /** The last one: when (epoch ms) and the message the server got. */
  lastLimited?: { at: number; message: string };
  autoApproved: number;
  autoRejected: number;
  /** Admitted and not yet finished. */
  waiting: number;
  /** Input + output tokens reported today. */
  tokensToday: number;
  /** Estimated USD today; null when some model used had no known price. */
  spendTodayUsd: number | null;
}

/** The `policy` state slice: the rules in force, where they come from, problems, counters. */
export interface PolicyView {
  /** The rules in force (the last good file). */
  rules: RulesFile;
  path: string;
  /** Problems with the file on disk ("rules.json line 4, column 3: …"); the previous rules stay in force. */
  problems: string[];
  /** Counters by server id. */
  counters: Record<string, ServerCounters>;
  /** Requests answered "rate limited" by the console-wide cap. */
  globalRateLimited: number;
  /** Whether model prices are known (cost conditions and spend limits need them). */
  pricesKnown: boolean;
}

/** Whether some enabled rule or default action of any server auto-approves (for the indicator). */
export function autoApprovalConfigured(file: RulesFile): boolean {
  return Object.values(file.servers).some((s) => isApproving(s.defaultAction) || s.rules.some((r) => r.enabled && isApproving(r.action)));
}
