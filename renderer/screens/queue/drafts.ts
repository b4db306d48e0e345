/**
 * Pure helpers that turn the person's edits (drafts in the store) into what the API receives:
 * edited `sampling/createMessage` params and an edited `CreateMessageResult`. Every field the
 * person did not edit is kept exactly as the server (or the provider) sent it.
 */
import type { CreateMessageParams, CreateMessageResult, SamplingContent, SamplingMessage } from '../../../shared/sampling';
import { contentBlocks } from '../../../shared/sampling';
import type { ModelRef, SamplingItemView } from '../../../shared/state';
import { validateSamplingRequest } from '../../../shared/validate-sampling';
import type { RequestDraft, ResponseDraft } from '../../store';

/** Key of a text block in a draft: `"message:block"`. */
export const blockKey = (message: number, block: number): string => `${message}:${block}`;

/** The `<select>` value for a model. */
export const modelValue = (m: ModelRef): string => JSON.stringify([m.providerId, m.modelId]);

/** Parses a `<select>` value back into a model reference. */
export function parseModelValue(value: string): ModelRef | null {
  try {
    const v: unknown = JSON.parse(value);
    if (Array.isArray(v) && typeof v[0] === 'string' && typeof v[1] === 'string') return { providerId: v[0], modelId: v[1] };
  } catch {
    // not a model value
  }
  return null;
}

/** The params the review starts from: what was sent last (after a cancel or failure), else the original. */
export const baseParams = (item: SamplingItemView): CreateMessageParams => item.sent ?? item.original;

/** A fresh request draft: nothing edited yet. */
export function initialRequestDraft(item: SamplingItemView): RequestDraft {
  const p = baseParams(item);
  return {
    texts: {},
    editing: {},
    systemPrompt: p.systemPrompt ?? '',
    maxTokens: String(p.maxTokens),
    temperature: p.temperature === undefined ? '' : String(p.temperature),
    model: modelValue(item.model),
  };
}

/** Replaces the text of edited text blocks; other blocks are kept as they are. */
export function applyTextEdits(
  content: SamplingContent | SamplingContent[],
  message: number,
  texts: Record<string, string>,
): SamplingContent | SamplingContent[] {
  const blocks = contentBlocks(content);
  let changed = false;
  const next = blocks.map((b, j) => {
    const edited = texts[blockKey(message, j)];
    if (b.type !== 'text' || edited === undefined || edited === b.text) return b;
    changed = true;
    return { ...b, text: edited };
  });
  if (!changed) return content;
  return Array.isArray(content) ? next : next[0]!;
}

/** Outcome of building params from a draft: the params and model, or what is wrong. */
export type BuiltRequest = { ok: true; params: CreateMessageParams; model: ModelRef } | { ok: false; errors: string[] };

/**
 * Builds the params to approve: the base params with the edited message texts, system prompt,
 * maxTokens and temperature. An emptied system prompt or temperature is dropped. The result is
 * re-checked with the shared validator so the person sees a problem before pressing Approve.
 */
export function buildRequest(item: SamplingItemView, draft: RequestDraft): BuiltRequest {
  const base = baseParams(item);
  const errors: string[] = [];
  const maxTokens = Number(draft.maxTokens.trim());
  if (!/^\d+$/.test(draft.maxTokens.trim()) || !Number.isSafeInteger(maxTokens) || maxTokens <= 0) {
    errors.push('Max tokens must be a positive whole number.');
  }
  const tempText = draft.temperature.trim();
  const temperature = tempText === '' ? undefined : Number(tempText);
  if (temperature !== undefined && !Number.isFinite(temperature)) errors.push('Temperature must be a number (or empty).');
  const model = parseModelValue(draft.model);
  if (!model) errors.push('Choose a model.');
  if (errors.length > 0 || !model) return { ok: false, errors };

  const messages: SamplingMessage[] = base.messages.map((m, i) => {
    const content = applyTextEdits(m.content, i, draft.texts);
    return content === m.content ? m : { ...m, content };
  });
  const params: CreateMessageParams = { ...base, messages, maxTokens };
  if (draft.systemPrompt === '') delete params.systemPrompt;
  else params.systemPrompt = draft.systemPrompt;
  if (temperature === undefined) delete params.temperature;
  else params.temperature = temperature;

  const check = validateSamplingRequest(params, { toolsDeclared: true });
  if (!check.ok) return { ok: false, errors: [`${check.error.message} (${check.error.rule})`] };
  return { ok: true, params, model };
}

/** Whether the draft differs from the params it started from. */
export function requestEdited(item: SamplingItemView, draft: RequestDraft): boolean {
  const built = buildRequest(item, draft);
  if (!built.ok) return true;
  const base = baseParams(item);
  return JSON.stringify(built.params) !== JSON.stringify(base) || draft.model !== modelValue(item.model);
}

/** Draft key of the hand-written response text. */
export const MANUAL_KEY = blockKey(0, 0);

/** A fresh response draft. */
export const initialResponseDraft = (): ResponseDraft => ({ texts: {}, editing: {} });

/** Whether every block of a content value is text. */
export const isAllText = (content: SamplingContent | SamplingContent[]): boolean =>
  contentBlocks(content).every((b) => b.type === 'text');

/**
 * Builds the result to approve from the draft response. Text-only content becomes a single text
 * block (the edited text); mixed content (e.g. text + tool_use) keeps its blocks with text edits
 * applied. `model` and `stopReason` are kept from the draft main prepared. A manual response is
 * the text the person wrote (null while it is empty).
 */
export function buildResult(item: SamplingItemView, draft: ResponseDraft): CreateMessageResult | null {
  const response = item.response;
  if (!response) return null;
  const base = response.draft;
  let content: SamplingContent | SamplingContent[];
  if (response.manual) {
    const manualText = draft.texts[MANUAL_KEY] ?? '';
    if (manualText.trim() === '') return null;
    content = { type: 'text', text: manualText };
  } else if (isAllText(base.content)) {
    const blocks = contentBlocks(base.content);
    const edited = applyTextEdits(base.content, 0, draft.texts);
    const text = contentBlocks(edited)
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join(blocks.length > 1 ? '\n' : '');
    content = { type: 'text', text };
  } else {
    content = applyTextEdits(base.content, 0, draft.texts);
  }
  const result: CreateMessageResult = { ...base, role: 'assistant', content, model: base.model };
  if (base.stopReason === undefined) delete result.stopReason;
  return result;
}
