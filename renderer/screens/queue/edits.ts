/**
 * Edits in progress that go beyond text (kept beside the store's text drafts, in their own small
 * store): media blocks removed from the request, tools removed and the tool choice, and, on the
 * response, edited tool_use inputs and tool calls the person adds to a hand-written response.
 * Like every draft they belong to the person until a button is pressed, are saved to main as they
 * change (autosave.ts), and are dropped here when the item leaves the review they were made for.
 */
import { create } from 'zustand';
import type { RequestExtras, ResponseExtras } from '../../../shared/drafts';
import { useConsole } from '../../store';

/** The shapes of the extras (shared/drafts.ts: main keeps them with the text drafts). */
export type { AddedToolCall, RequestExtras, ResponseExtras, ToolChoiceMode } from '../../../shared/drafts';

/** Empty request extras. */
export const NO_REQUEST_EXTRAS: RequestExtras = { removedBlocks: {}, removedTools: {} };
/** Empty response extras. */
export const NO_RESPONSE_EXTRAS: ResponseExtras = { toolInputs: {}, added: [] };

interface ExtrasStore {
  request: Record<string, RequestExtras>;
  response: Record<string, ResponseExtras>;
  setRequest(itemId: string, extras: RequestExtras): void;
  setResponse(itemId: string, extras: ResponseExtras): void;
}

/** The extras store (selectors: `useExtras((s) => s.request[id])`). */
export const useExtras = create<ExtrasStore>()((set) => ({
  request: {},
  response: {},
  setRequest: (itemId, extras) => set((s) => ({ request: { ...s.request, [itemId]: extras } })),
  setResponse: (itemId, extras) => set((s) => ({ response: { ...s.response, [itemId]: extras } })),
}));

// Drop extras whose item left the review they were made for (mirrors the store's draft pruning).
useConsole.subscribe((state) => {
  const items = state.mirror?.items;
  if (!items) return;
  const status = new Map(items.map((i) => [i.id, i.status]));
  const { request, response } = useExtras.getState();
  const keepRequest = Object.keys(request).filter((id) => status.get(id) === 'awaiting_request_review' || status.get(id) === 'generating');
  const keepResponse = Object.keys(response).filter((id) => status.get(id) === 'awaiting_response_review');
  if (keepRequest.length === Object.keys(request).length && keepResponse.length === Object.keys(response).length) return;
  useExtras.setState({
    request: Object.fromEntries(keepRequest.map((id) => [id, request[id]!])),
    response: Object.fromEntries(keepResponse.map((id) => [id, response[id]!])),
  });
});

/** A `tool_use` id for a tool call the person adds ("toolu_manual_…", unique enough per response). */
export function newToolUseId(): string {
  return `toolu_manual_${Math.random().toString(36).slice(2, 10)}`;
}
