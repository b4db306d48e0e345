/**
 * Items of the queue as a review screen shows them whole: a sampling request (with the model chosen
 * for it, the ranked candidates and the response under review) or an elicitation
 * (shared/contract/state.ts re-exports everything here). Plain JSON data; times are epoch ms. Kept
 * apart from state.ts only to keep files small; state.ts is still the one contract.
 */
import type { ServerWait } from '../domain/wait.js';
import type { ProviderFailureKind } from './providers.js';
import type { ElicitParams, ElicitResult } from './elicitation.js';
import type { PolicyExplanation } from './rules.js';
import type { CreateMessageParams, CreateMessageResult } from './sampling.js';
import type { ItemDraft, StopCause } from './drafts.js';
import type { ModelRef, ProtocolEra, RuleRef, TokenUsage } from './primitives.js';
import type { UiText } from './ui-text.js';
import type { GatewayFacts } from './gateway.js';
import type { PersonRef } from './personal-tokens.js';
import type { RequestVia } from './bridged.js';
import type { ElicitationStatus, SamplingStatus } from './status.js';
import type { CallRef } from './calls.js';

/** The model the console chose (or the person picked) and why. */
export interface ModelChoice extends ModelRef {
  /** One line in English (logs, history, exports): "hint 'gpt' matched 'gpt-4o-mini'". */
  reason: string;
  /** The same line as a message code, translated in the renderer (absent in older history entries). */
  reasonUi?: UiText;
  /** Whether the person changed the console's choice. */
  overridden?: boolean;
}

/**
 * One ranked candidate of model selection (shared/domain/model-selection.ts): `score` 0..100 (higher is
 * better), `reason` one readable line, `issues` what it cannot do for this request (audio, tools,
 * image size, context) — a candidate with issues is only chosen when no model can.
 */
export interface ModelCandidate extends ModelRef {
  score: number;
  reason: string;
  reasonUi?: UiText;
  issues?: string[];
  /** `issues` as message codes. */
  issuesUi?: UiText[];
}

/** A generated (or hand-written) response and its review. */
export interface ResponseView {
  /** What the provider produced; absent for a hand-written response. */
  generated?: CreateMessageResult;
  /** The response as the person left it for approval (starts as `generated`, or empty). */
  draft: CreateMessageResult;
  /** True when the person writes the response ("Write the response myself"). */
  manual: boolean;
  usage?: TokenUsage;
  /** Provider finish reason, before mapping to `stopReason`. */
  finishReason?: string;
  generatedAt: number;
}

/** A sampling request as the review screens show it (the queue list reads its {@link ItemSummary}). */
export interface SamplingItemView {
  /** Which kind of item this is; absent means `sampling` (every sampling item main makes). */
  kind?: 'sampling';
  id: string;
  /**
   * `server`: a server is waiting for the answer. `draft`: re-opened from history to send to an LLM
   * again (e.g. to compare models); nothing is delivered anywhere.
   */
  origin: 'server' | 'draft';
  /** Requests of one tool loop share a conversation id (the first request's id). */
  conversationId: string;
  /** 1-based round of this request in its conversation (a tool loop's follow-ups count up). */
  round: number;
  serverId: string;
  /** Set when the server runs through the console's bridge under an agent host. */
  via?: RequestVia;
  /** The person whose personal token made the call (a team server's gateway or remote bridge). */
  requestedBy?: PersonRef;
  /** Set for a provider call that came through the console's provider gateway (not MCP sampling). */
  gateway?: GatewayFacts;
  era: ProtocolEra;
  /**
   * The client requests in flight to the server when this arrived. `exact` when the protocol tells
   * us which one (MRTR), or when only one was in flight; otherwise all candidates are listed.
   */
  association: { exact: boolean; calls: CallRef[] };
  status: SamplingStatus;
  receivedAt: number;
  updatedAt: number;
  /** How long the server waits for the answer, where known (legacy push requests); see shared/domain/wait.ts. */
  serverWait?: ServerWait;
  /** The params exactly as the server sent them. */
  original: CreateMessageParams;
  /** The request as approved (the person's edits applied, or a rule's changes); set on approval. */
  sent?: CreateMessageParams;
  /** When a provider was first asked to generate (epoch ms); absent when no model was called (e.g. "Write the response myself"). */
  sentToModelAt?: number;
  /** The model that will be / was used. */
  model: ModelChoice;
  /** The models the console ranked for this request, best first (the review screen's picker). */
  candidates?: ModelCandidate[];
  /** Live generation: text streamed so far. */
  generation?: { startedAt: number; text: string };
  response?: ResponseView;
  /**
   * The last recoverable error (e.g. the provider failed); the item stays reviewable. `message` is
   * the technical detail in English; `failure` the kind, for a headline in the person's language.
   */
  error?: { message: string; code?: number; at: number; failure?: ProviderFailureKind };
  /**
   * How it ended, for terminal statuses. `code` is the JSON-RPC error sent, if any; `stopped` says
   * why no answer was delivered when the server stopped waiting, the call ended or the console stopped.
   */
  outcome?: { at: number; message: string; ui?: UiText; code?: number; stopped?: StopCause };
  /** What the person typed and has not sent (shared/contract/drafts.ts); kept when the item ends undelivered. */
  draft?: ItemDraft;
  /**
   * The version of what the person reviews now (main/requests/version.ts: hex SHA-256 of the RFC
   * 8785 canonical JSON): in request review the request as it would be sent unedited (`sent`, else
   * `original`), in response review the response as it would be delivered unedited
   * (`response.draft`). A decision names it (shared/contract/api.ts) and main refuses one about any
   * other version. Absent where no person decides (generating, ended, auto-approved) and while a
   * big payload's version is being computed (moments).
   */
  contentVersion?: string;
  /** Set when an auto-approve rule decided instead of the person (shown as an indicator). */
  auto?: { rule: RuleRef; action: 'approve_request' | 'approve_all' };
  /** What the policy said about this request: notes for the review ("auto-approval paused", …) and the cost estimate. */
  policy?: PolicyExplanation;
}

/** An elicitation request (form or URL mode) in the queue. */
export interface ElicitationItemView {
  /** Tells it from a sampling item in the one items list. */
  kind: 'elicitation';
  id: string;
  serverId: string;
  /** Set when the server runs through the console's bridge under an agent host. */
  via?: RequestVia;
  /** The person whose personal token made the call (a team server's gateway or remote bridge). */
  requestedBy?: PersonRef;
  era: ProtocolEra;
  association: { exact: boolean; calls: CallRef[] };
  /**
   * `request`: a server request waits for the answer (legacy push or MRTR input request).
   * `error`: from a -32042 "URL elicitation required" error; nothing waits, the person only opens
   * the URL (and then calls the tool again).
   */
  source: 'request' | 'error';
  status: ElicitationStatus;
  receivedAt: number;
  updatedAt: number;
  /** How long the server waits for the answer, where known (legacy push requests); see shared/domain/wait.ts. */
  serverWait?: ServerWait;
  /** The params as the server sent them (`mode` "form" with requestedSchema, or "url" with url). */
  params: ElicitParams;
  /** True when the form seems to ask for a password, key or other secret (which servers must not). */
  secretWarning: boolean;
  /** What was answered, once answered. */
  answer?: ElicitResult;
  /** How it ended; `stopped` says why no answer was delivered (see {@link StopCause}). */
  outcome?: { at: number; message: string; ui?: UiText; stopped?: StopCause };
  /** What the person typed in the form and has not sent (`form`); kept when the item ends undelivered. */
  draft?: ItemDraft;
  /**
   * The version of the question the person answers (hex SHA-256 of `params` in RFC 8785 canonical
   * JSON): `respondElicitation` names it. Absent once it ended.
   */
  contentVersion?: string;
}

/** Any item of the queue, whole: a sampling request or an elicitation (tell them apart by `kind`). */
export type ItemView = SamplingItemView | ElicitationItemView;

/** Whether `item` is an elicitation (else a sampling item). */
export function isElicitationItem<T extends { kind?: 'sampling' | 'elicitation' }>(item: T): item is Extract<T, { kind: 'elicitation' }> {
  return item.kind === 'elicitation';
}
