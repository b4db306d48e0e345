/**
 * The `ConsoleApi`: every request and event that crosses the process boundary, in one typed list
 * (like GitHub Desktop's ipc-shared.ts). The Electron host (IPC) and the web host (WebSocket)
 * both implement exactly this, from this file; the renderer only ever talks to it.
 *
 * - Requests: `apiRequests[name].input` is the zod schema every host parses the renderer's
 *   input with before it reaches main. Results are typed by {@link ApiResults}.
 * - Events: one stream of {@link ConsoleEvent} (a snapshot, then patches).
 * - Errors: a failed request rejects with {@link ApiError} (`code` is one of {@link ApiErrorCode}).
 */
import { z } from 'zod';
import { CreateMessageParamsSchema, CreateMessageResultSchema } from './sampling.js';
import type { ConsoleState, HistoryEntry, HistoryPage, StatePatch } from './state.js';
import { API_METHODS, type ApiMethod } from './api-methods.js';

export { API_METHODS, type ApiMethod };

const id = z.string().min(1).max(200);
const reason = z.string().max(2000).optional();
const ModelRefSchema = z.object({ providerId: id, modelId: z.string().min(1).max(500) });

/** Input schemas of every request, by method name. */
export const apiRequests = {
  /** The full state, to start mirroring. */
  getState: { input: z.object({}).strict() },
  /** Start a `tools/call`; resolves at once with its id, the call's progress shows in state. */
  callTool: {
    input: z
      .object({ serverId: id, name: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) })
      .strict(),
  },
  /** Approve a sampling request, with the person's edits; generation starts (or manual writing). */
  approveRequest: {
    input: z.object({ itemId: id, params: CreateMessageParamsSchema, model: ModelRefSchema }).strict(),
  },
  /** Reject a sampling request: the server gets -1 "User rejected sampling request". */
  rejectRequest: { input: z.object({ itemId: id, reason }).strict() },
  /** Stop a running generation; the item returns to request review. */
  cancelGeneration: { input: z.object({ itemId: id }).strict() },
  /** Generate again from the approved request (response review → generating). */
  regenerate: { input: z.object({ itemId: id }).strict() },
  /** Approve the (possibly edited) response: it is recorded, then delivered to the server. */
  approveResponse: { input: z.object({ itemId: id, result: CreateMessageResultSchema }).strict() },
  /** Reject the response: the server gets -1. */
  rejectResponse: { input: z.object({ itemId: id, reason }).strict() },
  /** Remove a finished item from the queue view (history keeps it). */
  dismissItem: { input: z.object({ itemId: id }).strict() },
  /** Close and reconnect a server. */
  restartServer: { input: z.object({ serverId: id }).strict() },
  /** History list, newest first; `query` filters by text in prompts and responses. */
  listHistory: {
    input: z
      .object({
        query: z.string().max(500).optional(),
        limit: z.number().int().min(1).max(500).default(50),
        offset: z.number().int().min(0).default(0),
      })
      .strict(),
  },
  /** One history entry with originals, edits, timings and events; null when unknown. */
  getHistoryEntry: { input: z.object({ id }).strict() },
} as const satisfies Record<ApiMethod, { input: z.ZodType }>;

/** What each request resolves with. */
export interface ApiResults {
  getState: ConsoleState;
  callTool: { callId: string };
  approveRequest: void;
  rejectRequest: void;
  cancelGeneration: void;
  regenerate: void;
  approveResponse: void;
  rejectResponse: void;
  dismissItem: void;
  restartServer: void;
  listHistory: HistoryPage;
  getHistoryEntry: HistoryEntry | null;
}

/** The input a caller passes (before zod defaults apply). */
export type ApiInput<M extends ApiMethod> = z.input<(typeof apiRequests)[M]['input']>;
/** The input a host hands to main (after zod parsing). */
export type ApiParsedInput<M extends ApiMethod> = z.output<(typeof apiRequests)[M]['input']>;

/** Events main pushes to the renderer: a snapshot first, then patches in version order. */
export type ConsoleEvent = { type: 'snapshot'; state: ConsoleState } | { type: 'patch'; patch: StatePatch };

/** The API as the renderer sees it (`window.api` in Electron, a WebSocket client on the web). */
export type ConsoleApi = { [M in ApiMethod]: (input: ApiInput<M>) => Promise<ApiResults[M]> } & {
  /** Subscribe to state events; returns the unsubscribe function. */
  onEvent(listener: (event: ConsoleEvent) => void): () => void;
};

/** The API as main implements it: inputs already parsed by the host. */
export type ConsoleService = { [M in ApiMethod]: (input: ApiParsedInput<M>) => Promise<ApiResults[M]> } & {
  onEvent(listener: (event: ConsoleEvent) => void): () => void;
};

export { ApiError, type ApiErrorCode, type ApiReply } from './api-error.js';
