/**
 * Item summaries: what every window mirrors of each queue item, the `items` slice of the console
 * state (shared/contract/state.ts re-exports everything here). Plain JSON data; times are epoch ms.
 * Kept apart from state.ts only to keep files small; state.ts is still the one contract.
 */
import type { ServerWait } from '../domain/wait.js';
import type { ProviderFailureKind } from './providers.js';
import type { StopCause } from './drafts.js';
import type { UiText } from './ui-text.js';
import type { GatewayFacts } from './gateway.js';
import type { RequestVia } from './bridged.js';
import type { PersonRef } from './personal-tokens.js';
import type { ElicitationStatus, SamplingStatus } from './status.js';
import type { CallRef } from './calls.js';
import type { SamplingItemView } from './item-views.js';

/**
 * What every window mirrors of one item: the fields the queue list, badges, filters and attention
 * need, never the request's params, the response or a draft's text (a window fetches the whole
 * item with `getItem` when it opens one). Made by `projectItem` (shared/domain/item-summary.ts).
 */
interface SummaryBase {
  id: string;
  serverId: string;
  /** The agent host a bridged server runs under ("via <host>"); absent for the console's own servers. */
  via?: RequestVia;
  /** The person whose personal token made the call (a team server's gateway or remote bridge). */
  requestedBy?: PersonRef;
  /** A provider call through the gateway: which API, who called, the model asked for. */
  gateway?: GatewayFacts;
  /**
   * The client request it belongs to: the one the protocol names (the item's association is
   * exact), or the only one in flight when it arrived. Absent when it cannot be told (see
   * `candidates`) or none was in flight.
   */
  call?: CallRef;
  /** How many client requests it may belong to, when more than one was in flight and none is known (≥ 2). */
  candidates?: number;
  receivedAt: number;
  serverWait?: ServerWait;
  /**
   * The line the row shows: the first line of the prompt's last user text (sampling; else any
   * text, else the block kinds as "(image, audio)") or of the message (elicitation), at most
   * {@link PREVIEW_MAX} characters; '' when there is nothing to show.
   */
  preview: string;
  /** Sizes in bytes (characters of their JSON): the request as received, the response once there is one. */
  sizes: { request: number; response?: number };
  /** How it ended (terminal statuses); as on the item. */
  outcome?: { at: number; message: string; ui?: UiText; code?: number; stopped?: StopCause };
  /** Whether the person's unsent draft is kept on the item. */
  hasDraft?: true;
}

/** Longest {@link ItemSummary} preview, in characters (UTF-16 code units, "…" included). */
export const PREVIEW_MAX = 140;

/** The summary of a sampling item. */
export interface SamplingSummary extends SummaryBase {
  kind: 'sampling';
  status: SamplingStatus;
  /** `draft`: re-opened from history (see {@link SamplingItemView.origin}); absent for a server's request. */
  origin?: 'draft';
  /** Absent when it is the item's own id (a conversation's first request). */
  conversationId?: string;
  round: number;
  /** Set when an auto-approve rule decided. */
  auto?: SamplingItemView['auto'];
  /** The kind of the last recoverable error (and when), for a badge; the message is on the item. */
  error?: { at: number; failure?: ProviderFailureKind };
  /** How many policy notes the review shows; absent when none. */
  policyNotes?: number;
  /** The tools the response (as drafted) calls, by name, in order; absent when it calls none. */
  toolCalls?: string[];
  /** When generation started (the text streams to windows that opened the item). */
  generatingSince?: number;
}

/** The summary of an elicitation. */
export interface ElicitationSummary extends SummaryBase {
  kind: 'elicitation';
  status: ElicitationStatus;
  /** A form to fill in, or a URL to open (the params' `mode`). */
  mode: 'form' | 'url';
  /** As {@link ElicitationItemView.source}: a server request waits, or it came from a -32042 error. */
  source: 'request' | 'error';
}

/** One item of {@link ConsoleState.items}: a sampling request or an elicitation, by `kind`. */
export type ItemSummary = SamplingSummary | ElicitationSummary;
