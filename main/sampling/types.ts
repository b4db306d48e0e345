/**
 * The sampling pipeline's seams: what it needs (history, providers, calls in flight) and what it
 * offers (the review operations the ConsoleService methods call).
 */
import type { DraftInput } from '../../shared/contract/drafts.js';
import type { ModelSelection } from '../../shared/domain/model-selection.js';
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { PolicyNote } from '../../shared/contract/rules.js';
import type { CallRef, HistoryEntry, ModelChoice, ModelRef, ProtocolEra, RuleRef, SamplingItemView, TokenUsage } from '../../shared/contract/state.js';
import type { ServerWait } from '../../shared/domain/wait.js';
import type { UiText } from '../../shared/contract/ui-text.js';
import type { StopCause } from '../../shared/contract/drafts.js';
import type { LlmProvider } from '../llm/provider.js';
import type { IncomingProviderCall, IncomingSampling } from '../requests/incoming.js';
import type { Offload } from '../offload/offload.js';
import type { Logger } from '../ports.js';
import type { StateHub } from '../state-hub.js';
import type { AuditRecorder } from '../audit/trail.js';

/**
 * Where history goes. `save` commits before it returns (it survives the console being killed);
 * the answer to a server waits until the store says every save before it is committed
 * (`whenDurable` in main/store/history-store.ts, wired in main/console.ts).
 */
export interface HistorySink {
  save(entry: HistoryEntry): void;
  /**
   * Readies a big entry before its first save, off the event loop (its big texts are written to
   * files), so that `save` of it and of its later states stays cheap. Optional; never required.
   */
  prepareEntry?(entry: HistoryEntry): Promise<void>;
}

/** The configured providers, as the pipeline needs them. */
export interface ProviderRegistry {
  list(): LlmProvider[];
  get(id: string): LlmProvider | undefined;
  /** The console's default model, used when no hint matches. */
  defaultModel(): ModelRef;
  /**
   * The explainable ranking for a request from `serverId` (model facts, families, the server's
   * allowed/default models). Absent: the skeleton rule (hints, then the default) is used.
   */
  select?(params: CreateMessageParams, serverId: string): ModelSelection;
}

/** What the pipeline needs. */
export interface PipelineDeps {
  hub: StateHub;
  history: HistorySink;
  providers: ProviderRegistry;
  logger: Logger;
  now: () => number;
  /** Client requests in flight to a server now (for S-ASSOC-1 and the "belongs to" display). */
  inFlightCalls(serverId: string): CallRef[];
  /**
   * Reports a request refused at intake, so the person sees it without a dialog. `message` is
   * "<rule>: <reason>"; `refusal.kind` says what refused it (`rate_limited`: a limit, -32051).
   */
  onRefused(serverId: string, why: UiText, refusal: SamplingRefusal): void;
  /** Called when a request enters the queue (to link it to the calls it belongs to). */
  onQueued?(item: SamplingItemView): void;
  /** Minimum ms between two state updates of a streaming generation. Default 50. */
  streamUpdateMs?: number;
  /** Rounds allowed per tool loop (S-LOOP-1); default 10 (DEFAULT_MAX_TOOL_ROUNDS). */
  maxToolRounds?(serverId: string): number;
  /** Request / media size caps in bytes (S-SIZE-1); defaults in shared/domain/validate-sampling.ts. */
  limits?(serverId: string): { maxRequestBytes?: number; maxMediaBytes?: number } | undefined;
  /** Where big requests are scanned and their history texts written (main/offload); absent: inline. */
  offload?: Offload;
  /** Auto-approve rules and rate limits; absent = the person decides everything. */
  policy?: SamplingPolicy;
  /** How long `serverId` waits for answers (shared/domain/wait.ts `serverWaitFor`); absent = unknown. */
  serverWait?(serverId: string, era: ProtocolEra, receivedAt: number): ServerWait | undefined;
  /** Where decisions are recorded (main/audit; ./audit.ts says what); absent: not recorded. */
  audit?: AuditRecorder;
}

/** The pipeline's operations; the ConsoleService methods of the same names call these. */
export interface SamplingPipeline {
  /**
   * Entry point for a server's sampling request (and a gateway's provider call, reviewed the same
   * way): resolves with the result or rejects with a ProtocolError (-32052 with a
   * ProviderFailureData when the provider failed and nobody was reviewing).
   * The request is queued before this returns, unless it is big (main/offload `isBigPayload`):
   * that one is scanned and readied for history on the offload worker first.
   */
  handle(request: IncomingSampling | IncomingProviderCall): Promise<CreateMessageResult>;
  /**
   * Re-opens a past request as a new draft (origin 'draft', no server waiting) to send to an LLM
   * again, e.g. to compare models. Returns the new item's id.
   * @throws ApiError invalid_input when the entry holds no valid request (e.g. it was refused)
   */
  reopenDraft(entry: HistoryEntry): string;
  /**
   * Keeps what the person typed on an item (shared/contract/drafts.ts): each part given replaces the stored
   * one; the item carries it and history commits it before this returns. `version`: the
   * `contentVersion` the review it was typed in showed; typed in a review the item has moved on
   * from (another version, or after delivery) it is kept as the draft's `late` part.
   * @throws ApiError not_found for an unknown item (or one no longer kept)
   */
  saveDraft(itemId: string, draft: DraftInput, version?: string): void;
  /**
   * Told when a client request (`callId`) finished: an open server request that belonged to it
   * (and to no call still running) ends at once, `cancelled` with `outcome.stopped` 'call_ended';
   * if its server still waits, it gets a -32603 error saying so.
   */
  callEnded(callId: string): void;
  /**
   * The person's decisions. `seen` is the item's `contentVersion` their review showed: a decision
   * about any other version is refused (ApiError invalid_state), and History records it.
   */
  approveRequest(itemId: string, seen: string, params: CreateMessageParams, model: ModelRef): Promise<void>;
  rejectRequest(itemId: string, seen: string, reason?: string): void;
  cancelGeneration(itemId: string): void;
  regenerate(itemId: string, seen: string): Promise<void>;
  approveResponse(itemId: string, seen: string, result: CreateMessageResult): void;
  rejectResponse(itemId: string, seen: string, reason?: string): void;
  dismiss(itemId: string): void;
  /**
   * Ends every open item (shutdown), `outcome.stopped` 'console_stopped' — or `cause` (a team
   * instance that lost its lease: 'instance_stopped'), and only the items `only` picks; drafts are kept.
   */
  cancelAll(why: UiText, cause?: StopCause, only?: (itemId: string) => boolean): void;
}


/**
 * Why intake refused a request: `invalid` (-32602, a spec rule), `loop_limit` (-32050, S-LOOP-1),
 * `rate_limited` (-32051, a limit of the policy). `rule` is the spec rule or limit id.
 */
export interface SamplingRefusal {
  kind: 'invalid' | 'loop_limit' | 'rate_limited';
  code: number;
  rule: string;
  message: string;
}

/** What a policy sees of a queued request. */
export interface PolicyFacts {
  serverId: string;
  item: SamplingItemView;
  params: CreateMessageParams;
  model: ModelChoice;
  /** Epoch ms. */
  now: number;
}

/**
 * What a policy decides for a request: ask the person (default), auto-approve the request only
 * (the person still reviews the response), auto-approve request and response (fully unattended),
 * reject (the server gets -1 with the reason), or refuse it before it is queued because a limit
 * is reached (`code` -32051 or -32029 and the message the server gets; `rule` the limit's id; never
 * shown as waiting, recorded in history). `params` lets a rule send a changed request
 * (e.g. auto-redacted) — or, with `ask`, put a changed request in front of the person (the review
 * starts from it); history keeps both. `notes` (e.g. "auto-approval paused", "limit nearly
 * reached", "auto-redacted 2 items") and `estimate` (tokens, USD) reach the queued item's `policy`.
 */
export type PolicyAction = (
  | { kind: 'ask'; rule?: RuleRef; params?: CreateMessageParams; approvals?: number }
  | { kind: 'approve_request' | 'approve_all'; rule: RuleRef; params?: CreateMessageParams }
  | { kind: 'reject'; rule: RuleRef; reason: string }
  | { kind: 'refuse'; code: number; message: string; rule: string }
) & { notes?: PolicyNote[]; estimate?: { tokens: number; costUsd?: number } };

/** Per-server rules and limits (absent = always ask, no limits). */
export interface SamplingPolicy {
  /**
   * Scans a big request's texts for sensitive data off the event loop (the offload worker) and
   * keeps the findings, so {@link SamplingPolicy.decide} and the history filter need no scan of
   * their own. Optional; called before a big request is queued.
   */
  prepare?(serverId: string, params: CreateMessageParams): Promise<void>;
  /**
   * The one decision about a server's request (limits, rules, budgets), asked once after intake
   * accepted it and before it is queued (a big request: after `prepare`). A promise when the limits
   * are shared with other consoles (a team's database); a rejection ends the request with that error.
   */
  decide(facts: PolicyFacts): PolicyAction | Promise<PolicyAction>;
  /** Told when a request ends (for token and spend budgets). */
  settled?(serverId: string, item: SamplingItemView): void;
  /** USD a generation cost (usage at the model's price), recorded in history; undefined when unknown. */
  costOf?(model: ModelRef, usage: TokenUsage): number | undefined;
}
