/**
 * Capability checks: what a sampling request needs (audio, images and their sizes, tools, context)
 * against what a model can take (its {@link ModelFacts}). The review screen shows the mismatches
 * before anything is sent and offers the models that can ("capability mismatches are
 * explicit"); model selection ranks models with issues last.
 *
 * Pure: no Node, DOM or Electron.
 */
import { DEFAULT_FAMILY_RULES, defaultModelFacts, type FamilyRule, type ModelFacts } from '../contract/providers.js';
import { contentBlocks, type CreateMessageParams, type SamplingContent } from '../contract/sampling.js';
import type { ModelRef, ProviderView } from '../contract/state.js';
import { said, ui, type UiText } from '../contract/ui-text.js';

/** What a request needs from a model. Sizes in bytes (decoded), tokens estimated at 4 characters each. */
export interface RequestNeeds {
  /** Number of audio clips (in messages and in tool results). */
  audio: number;
  /** Number of images. */
  images: number;
  /** The largest image, decoded bytes (0 without images). */
  largestImageBytes: number;
  /** Number of tools offered to the model (`params.tools`); tool_use / tool_result history counts as 1 when no tools are offered. */
  tools: number;
  /** Rough input size in tokens (text, system prompt and tool schemas at 4 characters per token; 1 000 per image or clip). */
  estimatedInputTokens: number;
  /** `maxTokens` of the request (tokens). */
  maxTokens: number;
}

/** Kinds of mismatch. */
export type CapabilityIssueKind = 'audio' | 'images' | 'image-size' | 'tools' | 'context';

/** One mismatch between a request and a model: a sentence for the person (`ui`) and in English (`message`). */
export interface CapabilityIssue {
  kind: CapabilityIssueKind;
  message: string;
  ui: UiText;
}

/** Decoded size in bytes of base64 text (padding and whitespace ignored). */
export function base64Bytes(data: string): number {
  const clean = data.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

/** Human size: "812 KB", "7.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Measures what `params` needs (see {@link RequestNeeds}). Never throws. */
export function requestNeeds(params: CreateMessageParams): RequestNeeds {
  const needs: RequestNeeds = { audio: 0, images: 0, largestImageBytes: 0, tools: params.tools?.length ?? 0, estimatedInputTokens: 0, maxTokens: params.maxTokens };
  let chars = (params.systemPrompt ?? '').length + JSON.stringify(params.tools ?? []).length;
  let history = false;
  const visit = (b: { type: string; [k: string]: unknown }): void => {
    if (b.type === 'text' && typeof b.text === 'string') chars += b.text.length;
    else if (b.type === 'image' && typeof b.data === 'string') {
      needs.images += 1;
      needs.largestImageBytes = Math.max(needs.largestImageBytes, base64Bytes(b.data));
      chars += 4000;
    } else if (b.type === 'audio') {
      needs.audio += 1;
      chars += 4000;
    } else if (b.type === 'tool_use') {
      history = true;
      chars += JSON.stringify(b.input ?? {}).length;
    } else if (b.type === 'tool_result' && Array.isArray(b.content)) {
      history = true;
      for (const inner of b.content as Array<{ type: string; [k: string]: unknown }>) visit(inner);
    }
  };
  for (const m of params.messages) for (const b of contentBlocks<SamplingContent>(m.content)) visit(b);
  if (needs.tools === 0 && history) needs.tools = 1;
  needs.estimatedInputTokens = Math.ceil(chars / 4);
  return needs;
}

/**
 * The mismatches between a request's needs and a model's facts; empty when the model can take it.
 * A model with prompt-based tools can take tools (they are described in its system prompt).
 * `modelId` only names the model in the messages.
 */
export function capabilityIssues(needs: RequestNeeds, facts: ModelFacts, modelId: string): CapabilityIssue[] {
  const issues: CapabilityIssue[] = [];
  const model = modelId;
  if (needs.audio > 0 && !facts.audio) {
    issues.push({ kind: 'audio', ...said(ui(needs.audio > 1 ? 'capability.audioMany' : 'capability.audioOne', { count: needs.audio, model })) });
  }
  if (needs.images > 0 && !facts.images) {
    issues.push({ kind: 'images', ...said(ui(needs.images > 1 ? 'capability.imagesMany' : 'capability.imagesOne', { count: needs.images, model })) });
  } else if (needs.images > 0 && facts.maxImageBytes !== undefined && needs.largestImageBytes > facts.maxImageBytes) {
    const size = formatBytes(needs.largestImageBytes);
    issues.push({ kind: 'image-size', ...said(ui('capability.imageSize', { size, model, max: formatBytes(facts.maxImageBytes) })) });
  }
  if (needs.tools > 0 && facts.tools === 'none') {
    issues.push({ kind: 'tools', ...said(ui('capability.tools', { model })) });
  }
  if (facts.contextWindow !== undefined && needs.estimatedInputTokens + needs.maxTokens > facts.contextWindow) {
    const params = { input: needs.estimatedInputTokens, output: needs.maxTokens, model, window: facts.contextWindow };
    issues.push({ kind: 'context', ...said(ui('capability.context', params)) });
  }
  return issues;
}

/** The facts of `modelId` of `provider`: the person's (or the registry's) where known, else {@link defaultModelFacts}. */
export function factsFor(provider: ProviderView, modelId: string, rules: readonly FamilyRule[] = DEFAULT_FAMILY_RULES): ModelFacts {
  return provider.modelFacts?.[modelId] ?? defaultModelFacts(provider.kind, modelId, rules);
}

/**
 * The configured models (manual excluded) that can take this request, in provider order;
 * `allowed` (a server's allowed models) restricts the list when non-empty.
 */
export function modelsThatCan(
  params: CreateMessageParams,
  providers: readonly ProviderView[],
  allowed?: readonly ModelRef[],
  rules: readonly FamilyRule[] = DEFAULT_FAMILY_RULES,
): ModelRef[] {
  const needs = requestNeeds(params);
  const ok: ModelRef[] = [];
  for (const p of providers) {
    if (p.kind === 'manual') continue;
    for (const modelId of p.models) {
      if (allowed && allowed.length > 0 && !allowed.some((a) => a.providerId === p.id && a.modelId === modelId)) continue;
      if (capabilityIssues(needs, factsFor(p, modelId, rules), modelId).length === 0) ok.push({ providerId: p.id, modelId });
    }
  }
  return ok;
}
