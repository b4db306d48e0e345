/**
 * The console state main owns and the renderer mirrors ("The main process owns
 * all state"). Plain data only: every value here crosses IPC / WebSocket as JSON.
 * Times are epoch milliseconds unless a name says otherwise.
 */
import type { ServerWait } from '../domain/wait.js';
import type { ModelFacts, ModelSettings, OpenAIApi, ProviderKind } from './providers.js';
import type { ElicitParams, ElicitResult } from './elicitation.js';
import type { PolicyExplanation, PolicyView } from './rules.js';
import type { CreateMessageParams, CreateMessageResult } from './sampling.js';
import type { AttentionView, DesktopView } from './desktop.js';
import type { ItemDraft, StopCause } from './drafts.js';
import type { ModelRef, ProtocolEra, RuleRef, TokenUsage } from './primitives.js';
import { english, type UiText } from './ui-text.js';
import type { GatewayFacts, GatewayView } from './gateway.js';

export type { ModelRef, ProtocolEra, RuleRef, TokenUsage } from './primitives.js';
export type { ItemDraft, StopCause } from './drafts.js';

export type { TransportKind, ServerStatus, ToolView, PromptView, ResourceView, ResourceTemplateView, ReconnectView, ServerAuthView, ServerView } from './server-views.js';
import type { ServerView } from './server-views.js';
import type { RequestVia } from './bridged.js';
export type { BridgedCallView, BridgedServerView, RequestVia } from './bridged.js';
import type { BridgedServerView } from './bridged.js';
import type { ProviderFailureKind } from './providers.js';

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
  /** Sampling items that arrived while this call was in flight. */
  samplingItemIds: string[];
  /** Set when this call is a re-run (rerunCall) of the call with this id. */
  rerunOf?: string;
  /**
   * Set when the call failed because its tool needs the other protocol era (push-style tools need
   * 2025-11-25, input_required ones 2026-07-28): the console now calls it on a session of that era,
   * so calling it again works. `detail` is the server's message.
   */
  eraNeed?: { needs: ProtocolEra; detail: string };
}

/** A reference to the client request(s) a sampling request belongs to. */
export interface CallRef {
  callId: string;
  kind: ClientRequestKind;
  name: string;
  /** Its arguments as one short line (shared/domain/call-args.ts `argumentsLine`); absent when it had none. */
  args?: string;
}

export { ITEM_STATUSES, OPEN_STATUSES, TERMINAL_STATUSES, isTerminalStatus, type ElicitationStatus, type ItemStatus, type SamplingStatus } from './status.js';
import type { ElicitationStatus, ItemStatus, SamplingStatus } from './status.js';

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
}

/** Any item of the queue, whole: a sampling request or an elicitation (tell them apart by `kind`). */
export type ItemView = SamplingItemView | ElicitationItemView;

/** Whether `item` is an elicitation (else a sampling item). */
export function isElicitationItem<T extends { kind?: 'sampling' | 'elicitation' }>(item: T): item is Extract<T, { kind: 'elicitation' }> {
  return item.kind === 'elicitation';
}

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
  updatedAt: number;
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

/** Who decided a request's fate. */
export type DecidedBy = 'person' | 'console' | 'rule';

/** A configured LLM provider. API keys never cross into the renderer: only `hasApiKey` (and `apiKeyHint`). */
export interface ProviderView {
  id: string;
  kind: ProviderKind;
  label: string;
  baseURL?: string;
  models: string[];
  hasApiKey: boolean;
  /** The last 4 characters of the stored key, as "…abcd" (keys of 12+ characters only); never more. */
  apiKeyHint?: string;
  /** Where the configuration comes from: the Providers screen (editable), providers.json `${env:…}` or the environment. */
  source?: 'console' | 'env';
  /** The preset it was made from (e.g. "ollama"). */
  preset?: string;
  /** OpenAI only: the endpoint for ordinary requests. */
  openaiApi?: OpenAIApi;
  /** Facts of every model in `models` (the person's where set, else defaults), by model id. */
  modelFacts?: Record<string, ModelFacts>;
  /** Model ids whose facts the person set by hand. */
  customFacts?: string[];
}

/** A message for the person that is not tied to one item (config problems, host warnings). */
export interface Notice {
  id: string;
  level: 'info' | 'warning' | 'error';
  /** What it is about, when typed: `sampling_refused` = a sampling request the console refused (never a rate limit: those are counted). */
  kind?: 'sampling_refused';
  /** In English (logs). */
  message: string;
  /** `message` as a message code, for the person's language (absent when the words are a server's, a file parser's or the OS's). */
  ui?: UiText;
  at: number;
}

/** Facts about where the console keeps its files and which host runs it. */
export interface SettingsView {
  host: 'electron' | 'web' | 'test';
  userDataDir: string;
  serversConfigPath: string;
  providersConfigPath: string;
  historyPath: string;
  /** Where API keys are kept, e.g. "Electron safeStorage (gnome_libsecret)"; `warning` when that storage is weak. */
  secretStore?: { backend: string; warning?: string; warningUi?: UiText };
  /**
   * Problems with mcp-servers.json as edited by hand ("line 3, column 5: …"); while set, the last
   * good config stays in force. Absent when the file is fine.
   */
  serversConfigProblems?: string[];
}

/** Everything the renderer mirrors. `version` grows by one with every change sent. */
export interface ConsoleState {
  version: number;
  servers: ServerView[];
  /** Recent client requests, newest last; bounded (oldest finished ones drop out). */
  calls: CallView[];
  /**
   * Every item of the queue (sampling requests and elicitations, by `kind`) as summaries: open
   * ones plus recently finished ones until dismissed, in arrival order. The whole item: `getItem`.
   */
  items: ItemSummary[];
  providers: ProviderView[];
  notices: Notice[];
  settings: SettingsView;
  /** Family table, per-server allowed/default models and the default model (providers issue). */
  modelSettings?: ModelSettings;
  /** Auto-approve rules, the pause switch, limits' counters and redaction settings. */
  policy?: PolicyView;
  /** Desktop settings (theme, notifications, do not disturb, launch at login) and what the host supports. */
  desktop?: DesktopView;
  /** Servers that agent hosts run through the console's bridge, connected now (absent: none). */
  bridged?: BridgedServerView[];
  /** Items waiting on a person, their count and the notifications main decided to show. */
  attention?: AttentionView;
  /** The provider gateway: where it listens, its base URLs and named tokens. */
  gateway?: GatewayView;
}

/** Slices of the state replaced whole in a patch: every key except `version` and `items`. */
export type SliceKey = Exclude<keyof ConsoleState, 'version' | 'items'>;

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
