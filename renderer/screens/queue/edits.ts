/**
 * Edits in progress that go beyond text (kept beside the store's text drafts, in their own small
 * store): media blocks removed from the request, tools removed and the tool choice, and, on the
 * response, edited tool_use inputs and tool calls the person adds to a hand-written response.
 * Like every draft they belong to the person until a button is pressed, and are dropped when the
 * item leaves the review they were made for.
 */
import { create } from 'zustand';
import { useConsole } from '../../store';

/** A `toolChoice.mode`. */
export type ToolChoiceMode = 'auto' | 'required' | 'none';

/** Non-text edits of a request under review. */
export interface RequestExtras {
  /** Image/audio blocks to drop, by `"message:block"`. */
  removedBlocks: Record<string, boolean>;
  /** Offered tools to drop, by name. */
  removedTools: Record<string, boolean>;
  /** The person's tool choice; undefined keeps the server's. */
  toolChoice?: ToolChoiceMode;
}

/** A tool call the person adds to a hand-written response. */
export interface AddedToolCall {
  /** The `tool_use` id sent to the server. */
  id: string;
  name: string;
  /** Raw JSON text of the input (validated when building the result). */
  input: string;
}

/** Non-text edits of a response under review. */
export interface ResponseExtras {
  /** Edited JSON text of tool_use inputs, by tool_use id. */
  toolInputs: Record<string, string>;
  /** Tool calls added to a hand-written response. */
  added: AddedToolCall[];
}

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
