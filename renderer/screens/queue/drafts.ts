/**
 * Pure helpers that turn the person's edits (drafts in the store) into what the API receives:
 * edited `sampling/createMessage` params and an edited `CreateMessageResult`. Every field the
 * person did not edit is kept exactly as the server (or the provider) sent it.
 */
import type { CreateMessageParams, CreateMessageResult, SamplingContent, SamplingMessage } from '../../../shared/contract/sampling';
import { textKey } from '../../../shared/contract/drafts';
import { contentBlocks } from '../../../shared/contract/sampling';
import type { ModelRef, SamplingItemView } from '../../../shared/contract/state';
import { applyRemovals, applyTextEdits } from './apply-edits';
import { checkDraftParams, sameJson } from './draft-check';
import { i18n } from '../../i18n';
import type { RequestDraft, ResponseDraft } from '../../store';
import { NO_REQUEST_EXTRAS, NO_RESPONSE_EXTRAS, type RequestExtras, type ResponseExtras } from './edits';

/** Key of a text block in a draft: `"message:block"` (`textKey`, shared/contract/drafts.ts). */
export const blockKey = (message: number, block: number): string => textKey(message, block);

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

/** Outcome of building params from a draft: the params and model, or what is wrong. */
export type BuiltRequest = { ok: true; params: CreateMessageParams; model: ModelRef } | { ok: false; errors: string[] };

/**
 * Builds the params to approve: the base params with the edited message texts, system prompt,
 * maxTokens and temperature, minus removed image/audio blocks and removed tools, with the chosen
 * tool choice (`extras`). An emptied system prompt or temperature is dropped; when every tool is
 * removed, `tools` and `toolChoice` are dropped. The result is re-checked with the shared
 * validator so the person sees a problem before pressing Approve.
 */
export function buildRequest(item: SamplingItemView, draft: RequestDraft, extras: RequestExtras = NO_REQUEST_EXTRAS): BuiltRequest {
  const base = baseParams(item);
  const errors: string[] = [];
  const maxTokens = Number(draft.maxTokens.trim());
  if (!/^\d+$/.test(draft.maxTokens.trim()) || !Number.isSafeInteger(maxTokens) || maxTokens <= 0) {
    errors.push(i18n.t('queue:drafts.maxTokens'));
  }
  const tempText = draft.temperature.trim();
  const temperature = tempText === '' ? undefined : Number(tempText);
  if (temperature !== undefined && !Number.isFinite(temperature)) errors.push(i18n.t('queue:drafts.temperature'));
  const model = parseModelValue(draft.model);
  if (!model) errors.push(i18n.t('queue:drafts.chooseModel'));
  if (errors.length > 0 || !model) return { ok: false, errors };

  const messages: SamplingMessage[] = [];
  for (const [i, m] of base.messages.entries()) {
    const kept = applyRemovals(applyTextEdits(m.content, i, draft.texts), i, extras.removedBlocks);
    if (kept === null) errors.push(i18n.t('queue:drafts.messageEmpty', { n: i + 1 }));
    else messages.push(kept === m.content ? m : { ...m, content: kept });
  }
  if (errors.length > 0) return { ok: false, errors };
  const params: CreateMessageParams = { ...base, messages, maxTokens };
  if (draft.systemPrompt === '') delete params.systemPrompt;
  else params.systemPrompt = draft.systemPrompt;
  if (temperature === undefined) delete params.temperature;
  else params.temperature = temperature;
  if (base.tools) {
    const tools = base.tools.filter((t) => !extras.removedTools[t.name]);
    if (tools.length === 0) {
      delete params.tools;
      delete params.toolChoice;
    } else {
      if (tools.length !== base.tools.length) params.tools = tools;
      if (extras.toolChoice !== undefined && extras.toolChoice !== (base.toolChoice?.mode ?? 'auto')) {
        params.toolChoice = { ...base.toolChoice, mode: extras.toolChoice };
      }
    }
  }

  const problem = checkDraftParams(params, base);
  if (problem) return { ok: false, errors: [problem] };
  return { ok: true, params, model };
}

/** Whether the draft differs from the params it started from (`built`: the draft already built, if at hand). */
export function requestEdited(item: SamplingItemView, draft: RequestDraft, extras: RequestExtras = NO_REQUEST_EXTRAS, built = buildRequest(item, draft, extras)): boolean {
  if (!built.ok) return true;
  return !sameJson(built.params, baseParams(item)) || draft.model !== modelValue(item.model);
}

/** Draft key of the hand-written response text. */
export const MANUAL_KEY = blockKey(0, 0);

/** A fresh response draft. */
export const initialResponseDraft = (): ResponseDraft => ({ texts: {}, editing: {} });

/** Whether every block of a content value is text. */
export const isAllText = (content: SamplingContent | SamplingContent[]): boolean =>
  contentBlocks(content).every((b) => b.type === 'text');

/** Outcome of building a result from a draft: the result, or what is wrong (empty: nothing written yet). */
export type BuiltResult = { ok: true; result: CreateMessageResult } | { ok: false; errors: string[] };

/**
 * Parses the JSON text of a tool_use input.
 * @returns the input object, or a readable error ("input must be a JSON object")
 */
export function parseToolInput(text: string): { ok: true; input: Record<string, unknown> } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: i18n.t('queue:drafts.notJson', { message: err instanceof Error ? err.message : String(err) }) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: i18n.t('queue:drafts.notObject') };
  return { ok: true, input: value as Record<string, unknown> };
}

/**
 * Builds the result to approve from the draft response.
 * - Hand-written: the text the person wrote plus the tool calls they added (then `stopReason`
 *   becomes `toolUse` and the content is an array: text first when there is any, then tool_use).
 * - Generated, text only: a single text block (the edited text).
 * - Generated with other blocks (e.g. parallel tool_use): the blocks with text edits and edited
 *   tool_use inputs applied.
 * `model` and `stopReason` are kept from the draft main prepared. Errors name the tool call whose
 * input is not a JSON object.
 */
export function buildResult(item: SamplingItemView, draft: ResponseDraft, extras: ResponseExtras = NO_RESPONSE_EXTRAS): BuiltResult {
  const response = item.response;
  if (!response) return { ok: false, errors: [i18n.t('queue:drafts.noResponse')] };
  const base = response.draft;
  const errors: string[] = [];
  let content: SamplingContent | SamplingContent[];
  let stopReason = base.stopReason;
  if (response.manual) {
    const manualText = draft.texts[MANUAL_KEY] ?? '';
    const uses: SamplingContent[] = [];
    for (const call of extras.added) {
      const parsed = parseToolInput(call.input);
      if (!parsed.ok) errors.push(i18n.t('queue:drafts.toolCall', { name: call.name, id: call.id, error: parsed.error }));
      else uses.push({ type: 'tool_use', id: call.id, name: call.name, input: parsed.input });
    }
    if (errors.length > 0) return { ok: false, errors };
    if (uses.length === 0) {
      if (manualText.trim() === '') return { ok: false, errors: [] };
      content = { type: 'text', text: manualText };
    } else {
      content = [...(manualText.trim() === '' ? [] : [{ type: 'text' as const, text: manualText }]), ...uses];
      stopReason = 'toolUse';
    }
  } else if (isAllText(base.content)) {
    const blocks = contentBlocks(base.content);
    const edited = applyTextEdits(base.content, 0, draft.texts);
    const text = contentBlocks(edited)
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join(blocks.length > 1 ? '\n' : '');
    content = { type: 'text', text };
  } else {
    const withText = applyTextEdits(base.content, 0, draft.texts);
    const blocks = contentBlocks(withText).map((b) => {
      const edited = b.type === 'tool_use' ? extras.toolInputs[b.id] : undefined;
      if (b.type !== 'tool_use' || edited === undefined) return b;
      const parsed = parseToolInput(edited);
      if (!parsed.ok) {
        errors.push(i18n.t('queue:drafts.toolCall', { name: b.name, id: b.id, error: parsed.error }));
        return b;
      }
      return { ...b, input: parsed.input };
    });
    if (errors.length > 0) return { ok: false, errors };
    content = Array.isArray(withText) ? blocks : blocks[0]!;
  }
  const result: CreateMessageResult = { ...base, role: 'assistant', content, model: base.model, stopReason };
  if (stopReason === undefined) delete result.stopReason;
  return { ok: true, result };
}
