/**
 * The sampling domain: `sampling/createMessage` params and `CreateMessageResult`, as zod schemas.
 *
 * These mirror MCP 2025-11-25 "Sampling" (schema.ts: SamplingMessage, CreateMessageRequestParams,
 * CreateMessageResult). They are deliberately *structural* (they check shapes and types); the
 * protocol rules that span several fields (S-TR-1, S-TR-2, S-CAP-2, …) live in
 * `shared/domain/validate-sampling.ts` so each can report its rule id and a readable message.
 *
 * Imports nothing but zod: this file is bundled into main, preload and renderer alike.
 */
import { z } from 'zod';

/** Free-form `_meta` bag carried by most MCP objects. */
export const MetaSchema = z.record(z.string(), z.unknown());

/** `{type: "text", text}`. */
export const TextContentSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  _meta: MetaSchema.optional(),
});

/** `{type: "image", data, mimeType}`; `data` is base64 (checked by S-B64-1, not here). */
export const ImageContentSchema = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  _meta: MetaSchema.optional(),
});

/** `{type: "audio", data, mimeType}`; `data` is base64. */
export const AudioContentSchema = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  _meta: MetaSchema.optional(),
});

/** `{type: "tool_use", id, name, input}`: the model asks the server to run a tool. */
export const ToolUseContentSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  _meta: MetaSchema.optional(),
});

/**
 * Content allowed inside a `tool_result` (the ContentBlock union of tool results). Kept open
 * (`type` + any fields) because servers may put resource links or embedded resources there.
 */
export const ToolResultInnerSchema = z.looseObject({ type: z.string() });

/** `{type: "tool_result", toolUseId, content: [...], isError?}`: the server's tool output. */
export const ToolResultContentSchema = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(ToolResultInnerSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  _meta: MetaSchema.optional(),
});

/** One block of a sampling message (SamplingMessageContentBlock). */
export const SamplingContentSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
export type SamplingContent = z.infer<typeof SamplingContentSchema>;
export type TextContent = z.infer<typeof TextContentSchema>;
export type ImageContent = z.infer<typeof ImageContentSchema>;
export type AudioContent = z.infer<typeof AudioContentSchema>;
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/** The content kinds the spec defines for sampling messages. */
export const SAMPLING_CONTENT_TYPES = ['text', 'image', 'audio', 'tool_use', 'tool_result'] as const;

/** Roles allowed in sampling messages (S-MSG-1). */
export const RoleSchema = z.enum(['user', 'assistant']);
export type Role = z.infer<typeof RoleSchema>;

/** `{role, content}`; content is one block or an array of blocks. */
export const SamplingMessageSchema = z.looseObject({
  role: RoleSchema,
  content: z.union([SamplingContentSchema, z.array(SamplingContentSchema)]),
  _meta: MetaSchema.optional(),
});
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** `modelPreferences`: ordered name hints and three priorities in 0..1. */
export const ModelPreferencesSchema = z.looseObject({
  hints: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  costPriority: z.number().min(0).max(1).optional(),
  speedPriority: z.number().min(0).max(1).optional(),
  intelligencePriority: z.number().min(0).max(1).optional(),
});
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** A tool offered to the model for this one request (`tools` in CreateMessageRequestParams). */
export const SamplingToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
});
export type SamplingTool = z.infer<typeof SamplingToolSchema>;

/** `toolChoice`: `{mode: "auto" | "required" | "none"}`; absent means auto. */
export const ToolChoiceSchema = z.looseObject({
  mode: z.enum(['auto', 'required', 'none']).optional(),
});
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

/** `includeContext` values; the console declares no `sampling.context` and treats all as "none". */
export const IncludeContextSchema = z.enum(['none', 'thisServer', 'allServers']);

/**
 * `sampling/createMessage` params (CreateMessageRequestParams). `maxTokens` is a positive integer
 * count of tokens the model may generate (S-MAX-1).
 */
export const CreateMessageParamsSchema = z.looseObject({
  messages: z.array(SamplingMessageSchema),
  systemPrompt: z.string().optional(),
  maxTokens: z.number().int().positive(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  includeContext: IncludeContextSchema.optional(),
  modelPreferences: ModelPreferencesSchema.optional(),
  tools: z.array(SamplingToolSchema).optional(),
  toolChoice: ToolChoiceSchema.optional(),
  _meta: MetaSchema.optional(),
});
export type CreateMessageParams = z.infer<typeof CreateMessageParamsSchema>;

/** Standard `stopReason` values (a provider's own string is allowed by the spec too). */
export const STOP_REASONS = ['endTurn', 'stopSequence', 'maxTokens', 'toolUse'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/**
 * CreateMessageResult: what the server receives. `content` is one block or an array (an array
 * is needed for parallel `tool_use`, S-RES-1). `model` names the model that generated it.
 */
export const CreateMessageResultSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.union([SamplingContentSchema, z.array(SamplingContentSchema)]),
  model: z.string().min(1),
  stopReason: z.string().optional(),
  _meta: MetaSchema.optional(),
});
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;

/** Normalises a message's or result's content to an array of blocks. */
export function contentBlocks<T>(content: T | T[]): T[] {
  return Array.isArray(content) ? content : [content];
}

/** Concatenated text of all `text` blocks of a content value (other kinds are skipped). */
export function contentText(content: SamplingContent | SamplingContent[]): string {
  return contentBlocks(content)
    .filter((b): b is TextContent => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

/** JSON-RPC error codes used by the sampling pipeline (spec "Errors the client returns"). */
export const ErrorCodes = {
  /** The person rejected the request or the response. */
  USER_REJECTED: -1,
  /** Malformed params, unbalanced tool use/result, mixed tool_result, unassociated request. */
  INVALID_PARAMS: -32602,
  /** Unexpected failure inside the console. */
  INTERNAL_ERROR: -32603,
  /**
   * The console's cap on rounds of one tool loop was reached (S-LOOP-1). Implementation-defined
   * (JSON-RPC reserves -32000…-32099 for those); not -1, because no person rejected anything.
   */
  LOOP_LIMIT: -32050,
  /**
   * The LLM provider failed (an HTTP error, a timeout, a lost connection, a broken or unreadable
   * response) and no person was reviewing to decide what to do: the message says what the
   * provider did, `data` is a `ProviderFailureData` (shared/contract/providers.ts).
   * Implementation-defined; not -1 (nobody rejected anything), not -32603 (the console did not fail).
   */
  PROVIDER_FAILED: -32052,
} as const;

/** The message sent with `ErrorCodes.USER_REJECTED`. */
export const USER_REJECTED_MESSAGE = 'User rejected sampling request';
