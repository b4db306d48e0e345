/**
 * Edits in progress that go beyond text (kept with the text drafts in the store's per-item
 * `drafts`, store.ts): media blocks removed from the request, tools removed and the tool choice,
 * and, on the response, edited tool_use inputs and tool calls the person adds to a hand-written
 * response. Like every draft they belong to the person until a button is pressed, are saved to
 * main as they change (autosave.ts), and are dropped when the item leaves the review they were
 * made for.
 */
import type { RequestExtras, ResponseExtras } from '../../../shared/contract/drafts';

/** The shapes of the extras (shared/contract/drafts.ts: main keeps them with the text drafts). */
export type { AddedToolCall, RequestExtras, ResponseExtras, ToolChoiceMode } from '../../../shared/contract/drafts';

/** Empty request extras. */
export const NO_REQUEST_EXTRAS: RequestExtras = { removedBlocks: {}, removedTools: {} };
/** Empty response extras. */
export const NO_RESPONSE_EXTRAS: ResponseExtras = { toolInputs: {}, added: [] };

/** A `tool_use` id for a tool call the person adds ("toolu_manual_…", unique enough per response). */
export function newToolUseId(): string {
  return `toolu_manual_${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * `edits` (texts or tool inputs typed, by block key or tool-use id) with `key` set to `text`, or
 * without `key` when `text` is undefined (the edit was undone). A new object; `edits` is unchanged.
 */
export function withEdit(edits: Readonly<Record<string, string>>, key: string, text: string | undefined): Record<string, string> {
  const next = { ...edits };
  if (text === undefined) delete next[key];
  else next[key] = text;
  return next;
}
