/**
 * The console state main owns and the renderer mirrors ("The main process owns
 * all state"). Plain data only: every value here crosses IPC / WebSocket as JSON.
 * Times are epoch milliseconds unless a name says otherwise.
 */
import type { ModelSettings } from './providers.js';
import type { PolicyView } from './rules.js';
import type { AttentionView, DesktopView } from './desktop.js';
import type { GatewayView } from './gateway.js';
import type { ServerView } from './server-views.js';
import type { BridgedServerView } from './bridged.js';
import type { CallView } from './calls.js';
import type { ItemSummary } from './item-summaries.js';
import type { Notice, ProviderView, SettingsView } from './console-views.js';
import type { TeamView } from './team-view.js';

export type { ModelRef, ProtocolEra, RuleRef, TokenUsage } from './primitives.js';
export type { ItemDraft, StopCause } from './drafts.js';
export type { TransportKind, ServerStatus, ToolView, PromptView, ResourceView, ResourceTemplateView, ReconnectView, ServerAuthView, ServerView } from './server-views.js';
export type { BridgedCallView, BridgedServerView, RequestVia } from './bridged.js';
export { ITEM_STATUSES, OPEN_STATUSES, TERMINAL_STATUSES, isTerminalStatus, type ElicitationStatus, type ItemStatus, type SamplingStatus } from './status.js';
export type { CallRef, CallStatus, CallView, ClientRequestKind } from './calls.js';
export { isElicitationItem, type ElicitationItemView, type ItemView, type ModelCandidate, type ModelChoice, type ResponseView, type SamplingItemView } from './item-views.js';
export { PREVIEW_MAX, type ElicitationSummary, type ItemSummary, type SamplingSummary } from './item-summaries.js';
export type { Notice, ProviderView, SettingsView } from './console-views.js';
export { detailed, type DecidedBy, type HistoryEntry, type HistoryEvent, type HistoryPage, type HistorySummary, type Timings } from './history-entry.js';

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
  /** On a team server: claims on waiting items, approvals counted, who is online (absent on the desktop). */
  team?: TeamView;
}

/** Slices of the state replaced whole in a patch: every key except `version` and `items`. */
export type SliceKey = Exclude<keyof ConsoleState, 'version' | 'items'>;
