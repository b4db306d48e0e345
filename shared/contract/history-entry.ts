/**
 * History records as main keeps them and the History screen reads them: the list's summaries, the
 * full entry with its timings and events, a page of the list (shared/contract/state.ts re-exports
 * everything here; ./history.ts has the filters, counters, exports and retention). Plain JSON data;
 * times are epoch ms. Kept apart from state.ts only to keep files small; state.ts is still the one
 * contract.
 */
import type { CreateMessageParams, CreateMessageResult } from './sampling.js';
import type { ItemDraft, StopCause } from './drafts.js';
import type { RuleRef, TokenUsage } from './primitives.js';
import { english, type UiText } from './ui-text.js';
import type { GatewayFacts } from './gateway.js';
import type { RequestVia } from './bridged.js';
import type { PersonRef } from './personal-tokens.js';
import type { ItemStatus } from './status.js';
import type { ModelChoice } from './item-views.js';

/** Who decided a request's fate. */
export type DecidedBy = 'person' | 'console' | 'rule';

/** One entry of the history list: a sampling request and how it ended. */
export interface HistorySummary {
  id: string;
  /**
   * What kind of request this was (the envelope's kind): absent means 'sampling';
   * `provider_call` is a call through the provider gateway (reviewed like sampling).
   */
  kind?: 'sampling' | 'elicitation' | 'provider_call';
  conversationId: string;
  serverId: string;
  /** The client request it belonged to, e.g. "tools/call trigger-sampling-request". */
  callName?: string;
  /** That request's arguments as one short line (shared/domain/call-args.ts), to tell entries of one tool apart. */
  callArgs?: string;
  /** The item's own status (one vocabulary for every kind: shared/contract/status.ts). */
  status: ItemStatus;
  /** Who decided: the person, a rule, or the console itself (validation, timeouts, limits). */
  decidedBy?: DecidedBy;
  /** The rule that decided, when `decidedBy` is 'rule'. */
  rule?: RuleRef;
  /** On a team server: the person who decided (when `decidedBy` is 'person'). */
  decider?: PersonRef;
  /** On a team server: the person whose personal token made the call. */
  requestedBy?: PersonRef;
  receivedAt: number;
  endedAt?: number;
  model?: string;
  providerId?: string;
  /** Whether the person edited the request or the response. */
  edited: boolean;
  /** Why it failed or was refused, in English. */
  error?: string;
  /** `error` as a message code (absent in older entries, and when the words are a provider's or server's). */
  errorUi?: UiText;
  /** First characters of the last user message, for the list. */
  preview: string;
  /** Set when nothing was delivered because the server stopped waiting, the call ended or the console stopped (epoch ms `at`); `draft`: the person's typed text is kept. */
  notDelivered?: { cause: StopCause; at: number; draft: boolean };
}

/** Durations of the phases of one request, in ms. */
export interface Timings {
  /** Received → first shown for review (intake). */
  queuedMs?: number;
  /** Time spent waiting on the person (request and response review). */
  reviewMs?: number;
  /** Time the provider took to generate. */
  generationMs?: number;
  /** Received → delivered / rejected / ended. */
  totalMs?: number;
}

/** One step in an item's life, as history records it. */
export interface HistoryEvent {
  at: number;
  kind: string;
  /** In English (logs, exports). */
  detail?: string;
  /** `detail` as a message code, for the person's language (absent in older entries and for data such as a typed reason). */
  detailUi?: UiText;
  /**
   * On a person's decision: the version of the item they decided about (the `contentVersion` they
   * saw, main/requests/version.ts), so an auditor can tell what was on screen.
   */
  version?: string;
  /**
   * On a person's approval or answer: the hex SHA-256 of the RFC 8785 canonical JSON of exactly
   * what it let out — the request sent to the model (the entry's `sent`), the response delivered
   * (`delivered`), the elicitation answer (`answer`) — recomputable from the entry.
   */
  sha256?: string;
}

/** `{ detail, detailUi }` of a {@link HistoryEvent} from a message code. */
export function detailed(text: UiText): { detail: string; detailUi: UiText } {
  return { detail: english(text), detailUi: text };
}

/** A full history record: everything needed to see what was asked, changed, sent and returned. */
export interface HistoryEntry extends HistorySummary {
  /** The params as received; for a request that failed validation, the raw params. */
  original: unknown;
  /** The agent host a bridged server ran under (kept in `extra_json`). */
  via?: RequestVia;
  /** A provider call through the gateway (kept in `extra_json`). */
  gateway?: GatewayFacts;
  sent?: CreateMessageParams;
  modelChoice?: ModelChoice;
  generated?: CreateMessageResult;
  delivered?: CreateMessageResult;
  /** For elicitation: the ElicitResult sent (action and content). */
  answer?: unknown;
  /** `draft`: re-opened from history, nothing delivered (not counted against the server's daily limits); absent for a server's request. */
  origin?: 'draft';
  /** What the person typed and never sent (the last `saveDraft`), kept for an entry that was not delivered. */
  draft?: ItemDraft;
  /** USD the generation cost: the reported usage at the model's price; absent when not generated or the price is unknown. */
  costUsd?: number;
  errorDetail?: { message: string; code?: number; rule?: string; ui?: UiText };
  usage?: TokenUsage;
  timings: Timings;
  events: HistoryEvent[];
}

/** A page of the history list, newest first. */
export interface HistoryPage {
  entries: HistorySummary[];
  total: number;
}
