/**
 * Auto-approve rules, rate limits, the elicitation policy and redaction settings: the versioned
 * rules file (`rules.json` in the user-data folder) as zod schemas, versioning, and descriptions.
 * The engine is in ./rules-engine.ts, the state slice and decision notes in ./rules-view.ts, model
 * prices and cost estimates in ./model-prices.ts; ./rules.ts re-exports all of them.
 *
 * Per server, an ordered list of rules; each has conditions (all optional, ANDed) and an action.
 * The first enabled rule whose conditions all hold decides; when none does, the server's default
 * action does (ask, unless the person set otherwise). Every rule carries a `version`, bumped on
 * every change ({@link bumpVersions}), so history can name the exact rule that decided.
 *
 * Pure: imports only zod and the shared contract.
 */
import { z } from 'zod';
import { CustomPatternSchema } from '../domain/sensitive-data.js';
import { UserPatternSchema } from '../domain/user-pattern.js';
import { UI_TEXTS } from './ui-text-catalog.js';

/**
 * JSON-RPC error code a server gets when a limit refuses its request ("Rate limited: …").
 * Implementation-defined (JSON-RPC reserves -32000…-32099); not -1, since no person rejected it,
 * and not -32050 (the tool-loop cap).
 */
export const RATE_LIMITED_CODE = -32051;

/** The rules file format version this console writes and reads. */
export const RULES_FILE_VERSION = 1;

const ModelRefSchema = z.object({ providerId: z.string().min(1).max(200), modelId: z.string().min(1).max(500) });

/**
 * A regular expression as a person writes it (matched case-insensitively, on re2js in linear
 * time: RE2 syntax, so look-ahead and back-references are refused with a message saying so).
 */
const PatternSchema = UserPatternSchema;

/** "HH:MM", 24-hour local time. */
const ClockSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, UI_TEXTS['schema.clock']);

/** A text condition: the text matches `pattern` (or, with `negate`, does not). */
export const TextConditionSchema = z.object({ pattern: PatternSchema, negate: z.boolean().optional() }).strict();
/** See {@link TextConditionSchema}. */
export type TextCondition = z.infer<typeof TextConditionSchema>;

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
 * - `minCostUsd`: estimated cost ≥ $X, or the model's price is unknown (the request may cost
 *   more): for `ask` rules that want more scrutiny of expensive requests.
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
    minCostUsd: z.number().min(0).max(1_000_000).optional(),
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
 * What a rule does: `ask` the person (on a team server, `approvals`: that many approvals from
 * different reviewers before the request goes out — two-person approval); `approve_request` (the person still reviews the response);
 * `approve_all` (fully unattended); `reject` (the server gets -1 with `reason` in history);
 * `redact` (replace detected sensitive data with placeholders, then approve as `then` says; while
 * auto-approval is paused the person reviews the redacted request instead).
 */
export const RuleActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ask'), approvals: z.number().int().min(2).max(10).optional() }).strict(),
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
    id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, UI_TEXTS['schema.ruleId']),
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
 * tokens providers reported for the server's requests received today (UTC day); `spendPerDayUsd`:
 * USD of that usage at the models' prices (see ./model-prices.ts). Both survive a restart.
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

/**
 * A server's elicitation policy (auto-rules cover elicitation only as "always ask" or
 * "always decline"): `decline` answers every elicitation of the server `{action: "decline"}` at
 * once, recorded in history with this policy and its `version` (bumped on every change).
 */
export const ElicitationPolicySchema = z
  .object({
    action: z.enum(['ask', 'decline']),
    version: z.number().int().min(1).default(1),
  })
  .strict();
/** See {@link ElicitationPolicySchema}. */
export type ElicitationPolicy = z.infer<typeof ElicitationPolicySchema>;

/**
 * One server's policy. `defaultVersion` versions the default action like a rule's version;
 * `elicitation` absent = always ask.
 */
export const ServerPolicySchema = z
  .object({
    defaultAction: RuleActionSchema.default({ kind: 'ask' }),
    defaultVersion: z.number().int().min(1).default(1),
    limits: LimitsSchema.optional(),
    rules: z.array(RuleSchema).max(500).default([]),
    elicitation: ElicitationPolicySchema.optional(),
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
    phoneRegion: z.string().regex(/^[A-Z]{2}$/, UI_TEXTS['schema.phoneRegion']).optional(),
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
    /** The console-wide caps: requests per minute and waiting (defaults {@link DEFAULT_GLOBAL_LIMITS}), tokens and spend per day over all servers (none by default). */
    global: LimitsSchema.default({}),
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

const ruleBody = (r: Rule) => JSON.stringify({ name: r.name, enabled: r.enabled, when: r.when, action: r.action });

/**
 * Versions `next` against `prev`: a rule whose name, enabled flag, conditions or action changed
 * gets `prev.version + 1` (unless `next` already carries a higher version); an unchanged rule keeps
 * its version; a new rule keeps the version it has (1 by default). The same for each server's
 * default action (`defaultVersion`) and elicitation policy (`elicitation.version`). Pure.
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
    const elicitation = policy.elicitation && bumpElicitation(before?.elicitation, policy.elicitation);
    servers[id] = { ...policy, rules, defaultVersion, ...(elicitation ? { elicitation } : {}) };
  }
  return { ...next, servers };
}

function bumpElicitation(prev: ElicitationPolicy | undefined, next: ElicitationPolicy): ElicitationPolicy {
  const before = prev ?? { action: 'ask', version: 1 };
  return { ...next, version: before.action === next.action ? Math.max(next.version, before.version) : Math.max(next.version, before.version + 1) };
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

/** Whether some enabled rule or default action of any server auto-approves (for the indicator). */
export function autoApprovalConfigured(file: RulesFile): boolean {
  return Object.values(file.servers).some((s) => isApproving(s.defaultAction) || s.rules.some((r) => r.enabled && isApproving(r.action)));
}
