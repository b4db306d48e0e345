/**
 * The pipeline's private record of one sampling request, and how it maps to a history entry.
 * Kept apart from the state machine so the mapping (what history remembers) is readable alone.
 */
import { contentBlocks, type CreateMessageParams, type CreateMessageResult } from '../../shared/contract/sampling.js';
import type { DecidedBy, HistoryEntry, HistoryEvent, RuleRef, SamplingItemView, TokenUsage } from '../../shared/contract/state.js';
import type { PersonRef } from '../../shared/contract/personal-tokens.js';
import type { ProviderCallPort } from '../requests/incoming.js';

/** Everything main knows about one request, beyond what the renderer sees. */
export interface SamplingRecord {
  item: SamplingItemView;
  /** Settles the server's pending `sampling/createMessage`. */
  settle: { resolve(result: CreateMessageResult): void; reject(error: Error): void };
  /** Aborts the running generation, if any. */
  generation?: AbortController;
  events: HistoryEvent[];
  decidedBy?: DecidedBy;
  /** On a team server, the person who decided (set with `decidedBy: 'person'`). */
  decider?: PersonRef;
  /** The rule that decided (auto-approve / auto-reject), with its version. */
  rule?: RuleRef;
  /** A rule approved the whole exchange: deliver the generated response without asking. */
  autoAll?: boolean;
  /** When the current review phase began (ms epoch), if the person is being waited on now. */
  reviewSince?: number;
  reviewMs: number;
  generationMs: number;
  /** ms the provider's calls took, measured with `performance.now()` (the console's added time is the rest, overhead.ts). */
  providerMs: number;
  requestEdited: boolean;
  responseEdited: boolean;
  usage?: TokenUsage;
  /** USD the last generation cost (usage at the model's price); undefined when unknown. */
  costUsd?: number;
  delivered?: CreateMessageResult;
  /** A provider call's stream to its caller (the gateway); text passes through it only under `autoAll`. */
  port?: ProviderCallPort;
  /** The timer that saves a rule-started generation's state if it lasts (steps.ts); cleared when the record ends. */
  pendingSave?: ReturnType<typeof setTimeout>;
  /** Some generated text already went to the caller through `port`. */
  passedText?: boolean;
  errorDetail?: { message: string; code?: number; rule?: string };
}

/** First 200 characters of the last user message's text, for lists (only its start is read: a prompt may be 25 MB). */
export function previewOf(params: CreateMessageParams | undefined): string {
  const lastUser = params?.messages?.filter((m) => m.role === 'user').at(-1);
  if (!lastUser) return '';
  const firstText = contentBlocks(lastUser.content).find((b) => b.type === 'text' && b.text.trim() !== '');
  const text = firstText?.type === 'text' ? firstText.text.slice(0, 2000) : contentBlocks(lastUser.content).map((b) => `[${b.type}]`).join(' ');
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** `{callArgs}` of the exact (or only) associated call, when it had arguments. */
export function callArgsOf(item: Pick<SamplingItemView, 'association'>): { callArgs?: string } {
  const calls = item.association.calls;
  const args = calls.length === 1 || item.association.exact ? calls[0]?.args : undefined;
  return args ? { callArgs: args } : {};
}

/** "tools/call trigger-sampling-request" for the exact (or only) associated call. */
export function callNameOf(item: SamplingItemView): string | undefined {
  const calls = item.association.calls;
  if (calls.length === 0) return undefined;
  const first = calls[0]!;
  return calls.length === 1 || item.association.exact ? `${first.kind} ${first.name}` : `${first.kind} ${first.name} (+${calls.length - 1} more in flight)`;
}

/**
 * Builds the history entry for a record's current state.
 * @param now epoch ms, used for the running totals of an unfinished request
 */
export function toHistoryEntry(rec: SamplingRecord, now: number): HistoryEntry {
  const { item } = rec;
  const ended = item.outcome?.at;
  const reviewMs = rec.reviewMs + (rec.reviewSince !== undefined ? now - rec.reviewSince : 0);
  return {
    id: item.id,
    conversationId: item.conversationId,
    serverId: item.serverId,
    ...(item.gateway && { kind: 'provider_call' as const }),
    ...(item.via && { via: item.via }),
    ...(item.gateway && { gateway: item.gateway }),
    callName: callNameOf(item),
    ...callArgsOf(item),
    status: item.status,
    decidedBy: rec.decidedBy,
    rule: rec.rule,
    ...(rec.decider && { decider: rec.decider }),
    ...(item.requestedBy && { requestedBy: item.requestedBy }),
    receivedAt: item.receivedAt,
    endedAt: ended,
    model: item.model.modelId,
    providerId: item.model.providerId,
    edited: rec.requestEdited || rec.responseEdited,
    error: rec.errorDetail?.message ?? item.error?.message,
    preview: previewOf(item.original),
    original: item.original,
    sent: item.sent,
    modelChoice: item.model,
    generated: item.response?.generated,
    delivered: rec.delivered,
    errorDetail: rec.errorDetail,
    usage: rec.usage,
    ...(rec.costUsd !== undefined ? { costUsd: rec.costUsd } : {}),
    ...(item.origin === 'draft' ? { origin: 'draft' as const } : {}),
    // What the person typed stays until a response is delivered (then `delivered` is the final
    // word, and only what was typed after the review it was typed in had ended stays).
    ...keptDraft(item),
    ...(item.outcome?.stopped ? { notDelivered: { cause: item.outcome.stopped, at: item.outcome.at, draft: item.draft !== undefined } } : {}),
    timings: {
      queuedMs: 0,
      reviewMs,
      generationMs: rec.generationMs,
      totalMs: (ended ?? now) - item.receivedAt,
    },
    events: rec.events,
  };
}

/** The draft History keeps of an item: all of it until a response is delivered, then only its `late` part. */
function keptDraft(item: SamplingItemView): Pick<HistoryEntry, 'draft'> {
  if (!item.draft) return {};
  if (item.status !== 'delivered') return { draft: item.draft };
  return item.draft.late ? { draft: { late: item.draft.late, savedAt: item.draft.savedAt } } : {};
}

/** Prefix of the `_meta` keys the console adds for its own screens (never sent to a server). */
export const CONSOLE_META_PREFIX = 'mcp-approval-console/';

/**
 * The result as the server must receive it: the console's own `_meta` annotations (e.g. the
 * prompt-based tool-call marker, invalid tool input) removed from the result and every block.
 */
export function forServer(result: CreateMessageResult): CreateMessageResult {
  const clean = <T extends { _meta?: Record<string, unknown> }>(o: T): T => {
    if (!o._meta || !Object.keys(o._meta).some((k) => k.startsWith(CONSOLE_META_PREFIX))) return o;
    const meta = Object.fromEntries(Object.entries(o._meta).filter(([k]) => !k.startsWith(CONSOLE_META_PREFIX)));
    const { _meta: _drop, ...rest } = o;
    return (Object.keys(meta).length ? { ...rest, _meta: meta } : rest) as T;
  };
  const content = Array.isArray(result.content) ? result.content.map(clean) : clean(result.content);
  return clean({ ...result, content });
}

/** Deep structural equality of JSON values (for "did the person edit this?"). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
