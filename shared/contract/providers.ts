/**
 * Provider and model facts: the kinds of LLM provider the console speaks, their presets, the
 * per-model facts model selection uses (context window, cost / speed / capability tiers, which
 * inputs a model takes, how it calls tools), the editable family table that maps a hint of one
 * provider's naming to a comparable model of another (the MCP sampling spec, "Model preferences": hints
 * are advisory and MAY map across providers), and per-server model settings.
 *
 * Zod schemas here parse the config file (main/llm/providers-config.ts) and the renderer's input
 * (shared/contract/api.ts). Pure: imports nothing runtime-specific.
 */
import { z } from 'zod';
import type { ModelRef, ProviderKind } from './primitives.js';

export { PROVIDER_KINDS, type ProviderKind } from './primitives.js';
import { ModelPriceSchema } from '../domain/model-prices.js';
import { globMatches } from '../domain/user-pattern.js';
import { ui, type UiText } from './ui-text.js';

/** How a model calls tools: the API's own tool calling, tools described in the system prompt, or not at all. */
export const TOOL_SUPPORT = ['native', 'prompt', 'none'] as const;
/** See {@link TOOL_SUPPORT}. */
export type ToolSupport = (typeof TOOL_SUPPORT)[number];

/** Which OpenAI endpoint a provider uses: Responses (`/responses`) or Chat Completions (`/chat/completions`). */
export type OpenAIApi = 'responses' | 'chat';

/** Tier 1..5 (integers). */
const TierSchema = z.number().int().min(1).max(5);

/**
 * What the console knows about one model. Tiers are relative, 1..5: `cost` 1 = cheapest,
 * `speed` 5 = fastest, `intelligence` 5 = most capable.
 */
export const ModelFactsSchema = z.object({
  /** Context window in tokens (input + output); unknown when absent. */
  contextWindow: z.number().int().positive().max(100_000_000).optional(),
  cost: TierSchema,
  speed: TierSchema,
  intelligence: TierSchema,
  tools: z.enum(TOOL_SUPPORT),
  /** Takes image input. */
  images: z.boolean(),
  /** Takes audio input. */
  audio: z.boolean(),
  /** Largest image accepted, in decoded bytes; no limit known when absent. */
  maxImageBytes: z.number().int().positive().optional(),
  /** USD per million input / output tokens; absent = the built-in price (shared/domain/model-prices.ts), if any. */
  price: ModelPriceSchema.optional(),
});
/** See {@link ModelFactsSchema}. */
export type ModelFacts = z.infer<typeof ModelFactsSchema>;

/** One row of the family table: a model name (or hint) containing `pattern` (`*` = any run of characters) belongs to `family`. */
export const FamilyRuleSchema = z.object({
  pattern: z.string().trim().min(1).max(100),
  family: z.string().trim().min(1).max(50),
});
/** See {@link FamilyRuleSchema}. */
export type FamilyRule = z.infer<typeof FamilyRuleSchema>;

/**
 * The default family table. The first row whose pattern a name contains decides, so specific rows
 * come first ("gpt-4o-mini" before "gpt-4o"; "-mini" keeps its dash or it would match "gemini"). Families: `frontier` (most capable), `balanced`,
 * `fast` (small, cheap). A hint "claude-3-sonnet" is `balanced`, so with no Claude configured it
 * maps to another provider's balanced model (e.g. gemini-2.5-flash or gpt-4.1).
 */
export const DEFAULT_FAMILY_RULES: readonly FamilyRule[] = [
  { pattern: 'haiku', family: 'fast' },
  { pattern: 'flash-lite', family: 'fast' },
  { pattern: '-mini', family: 'fast' },
  { pattern: '-nano', family: 'fast' },
  { pattern: 'opus', family: 'frontier' },
  { pattern: 'sonnet', family: 'balanced' },
  { pattern: 'gemini-*-pro', family: 'frontier' },
  { pattern: 'gemini-*-flash', family: 'balanced' },
  { pattern: 'gpt-5', family: 'frontier' },
  { pattern: 'o3', family: 'frontier' },
  { pattern: 'gpt-4.1', family: 'balanced' },
  { pattern: 'gpt-4o', family: 'balanced' },
];

/** Default tiers of a family; unknown families get 3/3/3. */
export const FAMILY_TIERS: Readonly<Record<string, Pick<ModelFacts, 'cost' | 'speed' | 'intelligence'>>> = {
  frontier: { cost: 5, speed: 2, intelligence: 5 },
  balanced: { cost: 3, speed: 3, intelligence: 4 },
  fast: { cost: 1, speed: 5, intelligence: 2 },
};

/** Per-server model settings: the models the console may choose for this server (all when empty/absent), and its default. */
export const ServerModelSettingsSchema = z.object({
  allowedModels: z.array(z.object({ providerId: z.string().min(1).max(200), modelId: z.string().min(1).max(500) })).max(500).optional(),
  defaultModel: z.object({ providerId: z.string().min(1).max(200), modelId: z.string().min(1).max(500) }).optional(),
});
/** See {@link ServerModelSettingsSchema}. */
export type ServerModelSettings = z.infer<typeof ServerModelSettingsSchema>;

/** Model-selection settings the console keeps (state slice `modelSettings`). */
export interface ModelSettings {
  /** The family table, editable. */
  families: FamilyRule[];
  /** By server id (the key in mcp-servers.json). */
  servers: Record<string, ServerModelSettings>;
  /** The console-wide default model (when neither hints, priorities nor the server choose). */
  defaultModel: ModelRef;
}

/** A ready-made provider setup offered on the Providers screen. */
export interface ProviderPreset {
  id: string;
  kind: Exclude<ProviderKind, 'manual'>;
  label: string;
  /** API root; the kind's official endpoint when absent. */
  baseURL?: string;
  /** Whether the preset needs an API key. */
  needsKey: boolean;
}

/** Presets: the three hosted APIs, Ollama, LM Studio, and a custom OpenAI-compatible URL. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'anthropic', kind: 'anthropic', label: 'Anthropic', baseURL: 'https://api.anthropic.com/v1', needsKey: true },
  { id: 'openai', kind: 'openai', label: 'OpenAI', baseURL: 'https://api.openai.com/v1', needsKey: true },
  { id: 'google', kind: 'google', label: 'Google Gemini', baseURL: 'https://generativelanguage.googleapis.com/v1beta', needsKey: true },
  { id: 'ollama', kind: 'openai-compatible', label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', needsKey: false },
  { id: 'lmstudio', kind: 'openai-compatible', label: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', needsKey: false },
  { id: 'custom', kind: 'openai-compatible', label: 'OpenAI-compatible (custom URL)', needsKey: false },
];

/** The official API root of a hosted kind (undefined for openai-compatible and manual). */
export function defaultBaseURL(kind: ProviderKind): string | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === kind && p.kind === kind)?.baseURL;
}

const ID = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'use 1–64 letters, digits, ".", "_" or "-"');

/** One time limit of a provider call, in ms (50 ms … 1 hour). */
const LimitMsSchema = z.number().int().min(50).max(3_600_000);

/**
 * The time limits of one provider call, each in ms; an absent one takes its default
 * ({@link DEFAULT_PROVIDER_TIMEOUTS}). `firstByteMs`: from sending the request until the response
 * starts (its status line and headers); `idleMs`: the longest silence once it started (between two
 * chunks of the body); `totalMs`: the whole call, from sending the request until the response
 * ended. A call past one of them is a provider failure of kind `timeout`.
 */
export const ProviderTimeoutsSchema = z.object({
  firstByteMs: LimitMsSchema.optional(),
  idleMs: LimitMsSchema.optional(),
  totalMs: LimitMsSchema.optional(),
});
/** See {@link ProviderTimeoutsSchema}. */
export type ProviderTimeoutSettings = z.infer<typeof ProviderTimeoutsSchema>;
/** The three limits resolved (ms). */
export type ProviderTimeouts = Required<ProviderTimeoutSettings>;

/**
 * The limits a provider has unless set: 2 minutes to the first byte (a local server may load the
 * model first), 2 minutes of silence inside a response, 10 minutes in all.
 */
export const DEFAULT_PROVIDER_TIMEOUTS: Readonly<ProviderTimeouts> = { firstByteMs: 120_000, idleMs: 120_000, totalMs: 600_000 };

/** A provider's limits: its settings over {@link DEFAULT_PROVIDER_TIMEOUTS}. */
export function providerTimeouts(settings: ProviderTimeoutSettings | undefined): ProviderTimeouts {
  return { ...DEFAULT_PROVIDER_TIMEOUTS, ...settings };
}

/**
 * A provider as the person edits it (the Providers screen's input, also one entry of
 * providers.json minus the key). `models` are model ids; `modelFacts` holds the facts the person
 * set by hand (the rest come from {@link defaultModelFacts}).
 */
export const ProviderSettingsSchema = z.object({
  id: ID,
  kind: z.enum(['openai-compatible', 'anthropic', 'openai', 'google']),
  label: z.string().trim().min(1).max(100).optional(),
  /** Which preset it was made from (display only). */
  preset: z.string().max(50).optional(),
  baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as "http://127.0.0.1:1234/v1"' }).optional(),
  models: z.array(z.string().trim().min(1).max(500)).max(1000).default([]),
  modelFacts: z.record(z.string(), ModelFactsSchema).optional(),
  /** OpenAI only: the endpoint for ordinary requests (audio and stop sequences always use Chat Completions). */
  openaiApi: z.enum(['responses', 'chat']).optional(),
  /** Time limits of a call (ms); absent ones take {@link DEFAULT_PROVIDER_TIMEOUTS}. */
  timeouts: ProviderTimeoutsSchema.optional(),
});
/** See {@link ProviderSettingsSchema} (after parsing). */
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/** Result of "Test connection". `latencyMs` is wall time in ms; `models` what the model-list endpoint returned. */
export interface ProviderTestResult {
  ok: boolean;
  /** One readable line in English: "Connected: 3 models listed in 120 ms" or what failed and what to do. */
  message: string;
  /** A success as a message code (translated in the renderer); a failure's words stay technical detail. */
  messageUi?: UiText;
  /** What kind of failure, for a translated headline above the technical detail. */
  failure?: ProviderFailureKind;
  latencyMs: number;
  models?: string[];
}

/** What went wrong when a provider was called: the renderer words a headline per kind. */
export type ProviderFailureKind =
  | 'auth' // 401 / 403
  | 'rate-limit' // 429
  | 'not-found' // 404 (base URL or model id)
  | 'bad-request' // other 4xx
  | 'server' // 5xx
  | 'network' // connection refused / host not found / connection lost
  | 'protocol' // malformed or truncated stream
  | 'timeout' // no answer in time: first byte, silence inside the response, or the total deadline
  | 'unsupported' // the provider cannot send this content (e.g. audio of that type)
  | 'unknown';

/**
 * `data` of the JSON-RPC error `ErrorCodes.PROVIDER_FAILED` (shared/contract/sampling.ts): what
 * the provider did. `status` is the HTTP status it answered, when it answered one (a failure inside
 * a 200 stream, a timeout or a lost connection has none); `retryAfterSeconds` its `retry-after`;
 * `timeout` the limit the call broke (kind `timeout`), in ms.
 */
export interface ProviderFailureData {
  provider: {
    kind: ProviderFailureKind;
    status?: number;
    retryAfterSeconds?: number;
    timeout?: { phase: 'first_byte' | 'idle' | 'total'; ms: number };
  };
}

/**
 * `_meta` key the prompt-based tool fallback (main/llm/prompt-tools.ts) puts on a text block whose
 * reply looked like a tool call but could not be used: `{problem: 'invalid-json' | 'unknown-tool'
 * | 'mixed', message}`. The response review shows it to the person.
 */
export const PROMPT_TOOL_META_KEY = 'mcp-approval-console/promptToolCall';

/** The family of a model id or a hint: the first rule whose pattern it contains; undefined when none does. */
export function familyOf(name: string, rules: readonly FamilyRule[]): { family: string; rule: FamilyRule } | undefined {
  // A family pattern: case-insensitive substring, `*` matching any run of characters (re2js).
  for (const rule of rules) if (globMatches(rule.pattern, name, { ignoreCase: true })) return { family: rule.family, rule };
  return undefined;
}

const MB = 1024 * 1024;

/** A context window guess by name (tokens); undefined when unknown. */
function contextGuess(kind: ProviderKind, id: string): number | undefined {
  if (/claude/.test(id) || kind === 'anthropic') return 200_000;
  if (/gemini/.test(id) || kind === 'google') return 1_048_576;
  if (/gpt-4\.1/.test(id)) return 1_047_576;
  if (/gpt-5/.test(id)) return 400_000;
  if (/gpt-4o|o3|o4/.test(id)) return 128_000;
  return undefined;
}

/**
 * The facts assumed for a model the person has not described: tiers from its family (see
 * {@link FAMILY_TIERS}; local OpenAI-compatible models default to cost 1), inputs by kind
 * (Anthropic: images up to 5 MB, no audio; OpenAI: images up to 20 MB, audio only for
 * `*audio*` models via Chat Completions; Gemini: images (20 MB) and audio; OpenAI-compatible:
 * images only for names with vision/llava/-vl). Every kind defaults to native tool calling;
 * the person switches a small local model to "prompt" (or "none") on the Providers screen.
 */
export function defaultModelFacts(kind: ProviderKind, modelId: string, rules: readonly FamilyRule[] = DEFAULT_FAMILY_RULES): ModelFacts {
  const id = modelId.toLowerCase();
  const family = familyOf(id, rules)?.family;
  const tiers = (family && FAMILY_TIERS[family]) || (kind === 'openai-compatible' ? { cost: 1, speed: 3, intelligence: 2 } : { cost: 3, speed: 3, intelligence: 3 });
  const contextWindow = contextGuess(kind, id);
  const base = { ...tiers, ...(contextWindow ? { contextWindow } : {}) };
  switch (kind) {
    case 'anthropic':
      return { ...base, tools: 'native', images: true, audio: false, maxImageBytes: 5 * MB };
    case 'openai':
      return { ...base, tools: 'native', images: true, audio: /audio/.test(id), maxImageBytes: 20 * MB };
    case 'google':
      return { ...base, tools: 'native', images: true, audio: true, maxImageBytes: 20 * MB };
    case 'openai-compatible':
      return { ...base, tools: 'native', images: /vision|llava|-vl\b|vl-/.test(id), audio: false };
    case 'manual':
      return { cost: 1, speed: 1, intelligence: 5, tools: 'native', images: true, audio: true };
  }
}

/** The headline of a provider failure of `kind`, as a message code. */
export function failureText(kind: ProviderFailureKind): UiText {
  const codes = {
    auth: 'failure.auth',
    'rate-limit': 'failure.rateLimit',
    'not-found': 'failure.notFound',
    'bad-request': 'failure.badRequest',
    server: 'failure.server',
    network: 'failure.network',
    protocol: 'failure.protocol',
    timeout: 'failure.timeout',
    unsupported: 'failure.unsupported',
    unknown: 'failure.unknown',
  } as const satisfies Record<ProviderFailureKind, string>;
  return ui(codes[kind]);
}
