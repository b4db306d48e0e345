/**
 * Client requests the person started and how a sampling request or elicitation refers to them
 * (shared/contract/state.ts re-exports everything here; its `calls` slice). Plain JSON data; times
 * are epoch ms. Kept apart from state.ts only to keep files small; state.ts is still the one contract.
 */
import type { ProtocolEra } from './primitives.js';

/** The most item ids a call keeps ({@link CallView.samplingItemIds}); earlier ones are counted only. */
export const CALL_ITEM_IDS_KEPT = 20;

/** The kind of client request a sampling request can belong to (S-ASSOC-1). */
export type ClientRequestKind = 'tools/call' | 'prompts/get' | 'resources/read';

/**
 * Status of a client request the person started. `declined`: on a 2026-07-28 server the person
 * rejected an input request, so the call was not retried (S-MRTR-3).
 */
export type CallStatus = 'running' | 'succeeded' | 'failed' | 'declined';

/** A client request the person started (e.g. `tools/call`) and what came of it. */
export interface CallView {
  id: string;
  serverId: string;
  kind: ClientRequestKind;
  /** Tool name (prompt name / resource URI for the other kinds). */
  name: string;
  arguments: Record<string, unknown>;
  status: CallStatus;
  startedAt: number;
  endedAt?: number;
  /** The `CallToolResult` as the server sent it (content blocks, isError, structuredContent). */
  result?: { content: Array<Record<string, unknown>>; isError?: boolean; structuredContent?: unknown };
  /** `prompts/get`: the `GetPromptResult` as the server sent it. */
  prompt?: { description?: string; messages: Array<{ role: string; content: Record<string, unknown> }> };
  /** `resources/read`: the `ReadResourceResult` contents (text or base64 blob per URI). */
  resource?: { contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> };
  /** A protocol-level failure (timeout, JSON-RPC error), with its code when there is one. */
  error?: { message: string; code?: number };
  /**
   * The newest items (sampling requests and elicitations) that arrived while this call was in
   * flight, oldest first: at most {@link CALL_ITEM_IDS_KEPT}, so a call that makes thousands of
   * sampling requests keeps its state small.
   */
  samplingItemIds: string[];
  /** How many items arrived while this call was in flight, all told; absent: `samplingItemIds.length`. */
  samplingItemCount?: number;
  /** Set when this call is a re-run (rerunCall) of the call with this id. */
  rerunOf?: string;
  /**
   * Set when the server said the call's tool needs the other protocol era (push-style tools need
   * 2025-11-25, input_required ones 2026-07-28): the console now calls it on a session of that era.
   * `detail` is the server's message. `calledAgain`: the console already did, at once and without
   * asking (the framework's refusal of a guard-style tool on 2025-11-25), and the call's outcome is
   * that second call's; absent: the call failed, and calling it again works.
   */
  eraNeed?: { needs: ProtocolEra; detail: string; calledAgain?: boolean };
}

/** A reference to the client request(s) a sampling request belongs to. */
export interface CallRef {
  callId: string;
  kind: ClientRequestKind;
  name: string;
  /** Its arguments as one short line (shared/domain/call-args.ts `argumentsLine`); absent when it had none. */
  args?: string;
}
