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
import { GatewayTokenNameSchema } from './gateway.js';
import { z } from 'zod';
import { CreateMessageParamsSchema, CreateMessageResultSchema } from './sampling.js';
import type { ConsoleState, HistoryEntry, ItemView } from './state.js';
import type { StatePatch } from './state-patch.js';
import type { MediaPayload, MediaRef } from './media-refs.js';
import { API_METHODS, type ApiMethod } from './api-methods.js';
import type { Viewer } from './roles.js';
import type { AuditHead, AuditRecordView, AuditVerifyReport } from './audit.js';
import { PersonNameSchema, PersonPasswordSchema, PersonServersSchema, PersonSubjectSchema, TeamRoleSchema, type PersonView } from './people.js';
import type { ClaimResult } from './team-view.js';
import { FamilyRuleSchema, ProviderSettingsSchema, ServerModelSettingsSchema, type ModelSettings, type ProviderTestResult } from './providers.js';
import type { ProviderView } from './state.js';
import { RulesFileSchema } from './rules.js';
import { ServerEntryInputSchema, ServerNameSchema, type HostRouteView, type ImportOutcome, type ImportScan, type ServerEntryInput, type ServerLogPage } from './servers.js';
import { DesktopSettingsChangeSchema, type DesktopSettings } from './desktop.js';
import { DraftInputSchema } from './drafts.js';
import { NewPersonalTokenSchema, type PersonalTokenView } from './personal-tokens.js';
import {
  EXPORT_FORMATS,
  HistoryFilterSchema,
  HistoryFilterShape,
  HistorySettingsSchema,
  MAX_EXPORT_SESSIONS,
  type ExportedFile,
  type HistoryFacets,
  type HistoryListPage,
  type HistorySettings,
  type HistoryStats,
} from './history.js';

export { API_METHODS, type ApiMethod };

const id = z.string().min(1).max(200);
const reason = z.string().max(2000).optional();
const ModelRefSchema = z.object({ providerId: id, modelId: z.string().min(1).max(500) });
/**
 * The version of an item the person saw (`contentVersion` of its view: hex SHA-256 of the RFC 8785
 * canonical JSON of what was under review). A decision names it; main refuses a decision about any
 * other version with `invalid_state` ("not the version you saw"), and History records it.
 */
const version = z.string().regex(/^[0-9a-f]{64}$/);
/** References to payloads sent by reference (shared/contract/media-refs.ts), as the media methods take them. */
const mediaRefs = z.array(z.string().min(1).max(2000)).min(1).max(1000);

/** Input schemas of every request, by method name. */
export const apiRequests = {
  /** The person this connection acts for on a team server (their role decides what they may call); null on the desktop. */
  whoAmI: { input: z.object({}).strict() },
  /** The full state, to start mirroring. */
  getState: { input: z.object({}).strict() },
  getItem: { input: z.object({ id }).strict() },
  /** Payloads `getItem` sent by reference (shared/contract/media-refs.ts), by their references; unknown ones are left out. */
  getItemMedia: { input: z.object({ id, refs: mediaRefs }).strict() },
  /** Payloads the `calls` slice holds by reference (a call's big result images, audio and resource blobs), by their references; unknown ones are left out. */
  getCallMedia: { input: z.object({ callId: id, refs: mediaRefs }).strict() },
  /** Start a `tools/call`; resolves at once with its id, the call's progress shows in state. */
  callTool: {
    input: z
      .object({ serverId: id, name: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) })
      .strict(),
  },
  /**
   * Approve a sampling request, with the person's edits; generation starts (or manual writing).
   * `version`: the request the person saw (its `contentVersion`); another one is refused.
   */
  approveRequest: {
    input: z.object({ itemId: id, version, params: CreateMessageParamsSchema, model: ModelRefSchema }).strict(),
  },
  /** Reject a sampling request: the server gets -1 "User rejected sampling request". `version` as for approveRequest. */
  rejectRequest: { input: z.object({ itemId: id, version, reason }).strict() },
  /** Stop a running generation; the item returns to request review. */
  cancelGeneration: { input: z.object({ itemId: id }).strict() },
  /** Generate again from the approved request (response review → generating). `version`: the response the person saw. */
  regenerate: { input: z.object({ itemId: id, version }).strict() },
  /**
   * Approve the (possibly edited) response: it is recorded, then delivered to the server.
   * `version`: the response the person saw (its `contentVersion`); another one is refused.
   */
  approveResponse: { input: z.object({ itemId: id, version, result: CreateMessageResultSchema }).strict() },
  /** Reject the response: the server gets -1. `version` as for approveResponse. */
  rejectResponse: { input: z.object({ itemId: id, version, reason }).strict() },
  /** Remove a finished item from the queue view (history keeps it). */
  dismissItem: { input: z.object({ itemId: id }).strict() },
  /**
   * Keep what the person typed on a sampling item (request / response edits) or an elicitation
   * (form values) and has not sent: on the item, and in history at once (shared/contract/drafts.ts). Each
   * part given replaces the stored one. Accepted while the item waits and after it ended: what
   * was typed in a review whose version (`version`: the item's `contentVersion` as that review
   * showed it) is no longer the item's is kept apart as the draft's `late` part (never applied to
   * the review that followed; kept even once delivered). An item main no longer holds (dismissed,
   * pruned, or from before a restart) gets it in its History entry. not_found when neither has it.
   */
  saveDraft: { input: z.object({ itemId: id, draft: DraftInputSchema, version: version.optional() }).strict() },
  /** Close and reconnect a server. */
  restartServer: { input: z.object({ serverId: id }).strict() },
  /** History list, newest first, filtered (shared/contract/history.ts HistoryFilterShape; `query` = full text). */
  listHistory: {
    input: z
      .object({
        ...HistoryFilterShape,
        limit: z.number().int().min(1).max(500).default(50),
        offset: z.number().int().min(0).default(0),
      })
      .strict(),
  },
  /**
   * One history entry with originals, edits, timings and events; null when unknown. `media:
   * 'by-ref'`: image/audio payloads and resource blobs of `MEDIA_REF_MIN_CHARS`+ characters come
   * as references (shared/contract/media-refs.ts; `mediaRefsIn` finds them), `getHistoryMedia`
   * sends them.
   */
  getHistoryEntry: { input: z.object({ id, media: z.literal('by-ref').optional() }).strict() },
  /** Payloads `getHistoryEntry` sent by reference, by their references; unknown ones are left out. */
  getHistoryMedia: { input: z.object({ id, refs: mediaRefs }).strict() },
  /**
   * Add or edit a provider (Providers screen); `previousId` when the edit renames it. `apiKey`: a
   * string stores it in the secret store (never in a file, never returned), null removes it,
   * absent keeps it.
   */
  saveProvider: {
    input: z.object({ provider: ProviderSettingsSchema, previousId: id.optional(), apiKey: z.string().max(4096).nullable().optional() }).strict(),
  },
  /** Remove a provider and its stored key. */
  removeProvider: { input: z.object({ id }).strict() },
  /** Test connection: list the models (or, with no list, ask the first model for "OK"). Unsaved `provider` settings and `apiKey` may be given. */
  testProvider: { input: z.object({ id, provider: ProviderSettingsSchema.optional(), apiKey: z.string().max(4096).optional() }).strict() },
  /** The provider's model list from its model-list endpoint (ids, and context windows where listed). */
  listProviderModels: { input: z.object({ id, provider: ProviderSettingsSchema.optional(), apiKey: z.string().max(4096).optional() }).strict() },
  /** Family table, per-server allowed/default models, the default model (given fields only). */
  saveModelSettings: {
    input: z
      .object({
        families: z.array(FamilyRuleSchema).max(200).optional(),
        servers: z.record(id, ServerModelSettingsSchema).optional(),
        defaultModel: ModelRefSchema.optional(),
      })
      .strict(),
  },
  /**
   * Save the whole rules file (shared/contract/rules.ts); rules that changed get a new version.
   * `baseRevision`: the rule book's revision (`policy.revision`) the edit started from — refused
   * (`invalid_state`, `error.rulesChanged`) when the book changed since; absent: saved over it.
   */
  saveRules: { input: z.object({ rules: RulesFileSchema, baseRevision: z.number().int().nonnegative().optional() }).strict() },
  /** The global "pause all auto-approval" switch (reject rules still apply). */
  setAutoApprovalPaused: { input: z.object({ paused: z.boolean() }).strict() },
  /** The rules file's text (rules.json), to keep elsewhere or move to another machine. */
  exportRules: { input: z.object({}).strict() },
  /** Replace the rules with an exported file's text; a bad file is refused with its line and nothing changes. */
  importRules: { input: z.object({ text: z.string().min(1).max(5_000_000) }).strict() },
  /** Keep (or not) the unredacted original of one request in history (default: only what was sent). */
  setKeepOriginal: { input: z.object({ itemId: id, keep: z.boolean() }).strict() },
  /** Per-server counters (requests, approved, rejected, auto, tokens, cost) for [from, to) epoch ms. */
  historyStats: { input: z.object({ from: HistoryFilterShape.from, to: HistoryFilterShape.to }).strict() },
  /** Distinct servers, tools, models and providers in history (for the filter menus). */
  historyFacets: { input: z.object({}).strict() },
  /** Export whole sessions: of the given entry ids, else of the entries matching `filter` (none: all). */
  exportHistory: {
    input: z
      .object({ ids: z.array(id).min(1).max(MAX_EXPORT_SESSIONS).optional(), filter: HistoryFilterSchema.optional(), format: z.enum(EXPORT_FORMATS) })
      .strict()
      .refine((v) => !(v.ids && v.filter), { message: 'give ids or filter, not both' }),
  },
  /** Delete the whole sessions the given entries belong to. */
  deleteHistory: { input: z.object({ ids: z.array(id).min(1).max(MAX_EXPORT_SESSIONS) }).strict() },
  /** Retention settings (keep N days / N sessions; null = no limit). */
  getHistorySettings: { input: z.object({}).strict() },
  /** Change retention settings (given fields only); saved, then history is pruned to match. */
  setHistorySettings: { input: HistorySettingsSchema.partial().strict() },
  /** Re-open a past request as a new draft in the queue (no server waiting), e.g. to compare models. */
  reopenHistoryEntry: { input: z.object({ id }).strict() },
  /**
   * Answer an elicitation: accept (with form content, validated against its schema), decline,
   * cancel. `version`: the question the person saw (its `contentVersion`); another one is refused.
   */
  respondElicitation: {
    input: z
      .object({
        itemId: id,
        version,
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
      })
      .strict(),
  },
  /** Set the folders offered to a server as roots (absolute paths or file:// URIs of folders). */
  setServerRoots: { input: z.object({ serverId: id, folders: z.array(z.string().min(1).max(4096)).max(100) }).strict() },
  /**
   * Call a finished client request again with the same kind, name and arguments (e.g. a tools/call
   * that failed with -32042 "URL elicitation required", once the person opened the page). Resolves
   * at once with the new call's id (`rerunOf` names the original); not_found for an unknown call,
   * invalid_state while it still runs or when its server is not ready.
   */
  rerunCall: { input: z.object({ callId: id }).strict() },
  /** Removes a notice from the notices slice, for every window; an unknown id is ignored. */
  dismissNotice: { input: z.object({ id }).strict() },
  /**
   * Which protocol era a server's tool is called on: `legacy` (2025-11-25, push style) or
   * `modern` (2026-07-28, input_required) on a second session when the server's own speaks the
   * other; `null` forgets it (learned again from the next failure). Kept in tool-eras.json.
   */
  setToolEra: { input: z.object({ serverId: id, tool: z.string().min(1).max(500), era: z.enum(['legacy', 'modern']).nullable() }).strict() },
  /** A server's entry in editor form (credential-looking env/header values masked). */
  getServerEntry: { input: z.object({ serverId: id }).strict() },
  /** Add a server, or replace `previousId`'s entry (renamed when `id` differs); written to mcp-servers.json. */
  saveServer: { input: z.object({ id: ServerNameSchema, previousId: id.optional(), entry: ServerEntryInputSchema }).strict() },
  /** Remove a server from mcp-servers.json (its connection closes). */
  removeServer: { input: z.object({ serverId: id }).strict() },
  /** Enable or disable a server (`"disabled": true` in the file). */
  setServerEnabled: { input: z.object({ serverId: id, enabled: z.boolean() }).strict() },
  /** Copy a server's entry under `newId` (default `NAME-copy`), disabled until enabled. */
  duplicateServer: { input: z.object({ serverId: id, newId: ServerNameSchema.optional() }).strict() },
  /** Start `prompts/get`; resolves at once with the call's id, the result shows in state. */
  getPrompt: {
    input: z.object({ serverId: id, name: z.string().min(1).max(500), arguments: z.record(z.string().max(200), z.string().max(100_000)).default({}) }).strict(),
  },
  /** Start `resources/read` of a URI (a listed resource, or a template with its variables filled in). */
  readResource: { input: z.object({ serverId: id, uri: z.string().min(1).max(10_000) }).strict() },
  /** A server's protocol log and stderr (the newest `limit`), filtered by `query`. */
  getServerLog: { input: z.object({ serverId: id, query: z.string().max(500).optional(), limit: z.number().int().min(1).max(2000).default(500) }).strict() },
  /** Look for Claude Desktop, VS Code and Cursor configs (and a project folder's, or one chosen file). */
  scanImports: { input: z.object({ workspaceFolder: z.string().min(1).max(4096).optional(), file: z.string().min(1).max(4096).optional() }).strict() },
  /** Import the picked servers (re-read from their files), with values for `${input:…}` by key. */
  importServers: {
    input: z
      .object({
        workspaceFolder: z.string().min(1).max(4096).optional(),
        file: z.string().min(1).max(4096).optional(),
        selections: z.array(z.object({ path: z.string().min(1).max(4096), name: z.string().min(1).max(200) }).strict()).min(1).max(500),
        inputs: z.record(z.string().max(5000), z.string().max(10_000)).default({}),
      })
      .strict(),
  },
  /**
   * "Route through the console": rewrite the host's entry `name` in `path` to launch the console's
   * bridge (`seen`: the file's `digest` from `scanImports`; a file changed since is refused).
   * `how: 'url'` instead points it at the console's loopback Streamable HTTP serving of its own
   * server `name` (URL and bearer token; hosts whose file takes URLs only).
   */
  routeServer: {
    input: z
      .object({
        path: z.string().min(1).max(4096),
        format: z.enum(['claude-desktop', 'claude-code', 'windsurf', 'vscode', 'cursor']),
        name: z.string().min(1).max(200),
        seen: z.string().regex(/^[0-9a-f]{64}$/).optional(),
        how: z.enum(['command', 'url']).optional(),
      })
      .strict(),
  },
  /** Undo a route: the host's original entry is put back (refused when the person edited the routed entry). */
  unrouteServer: { input: z.object({ id: z.string().min(1).max(100) }).strict() },
  /** The routes the console made, newest last. */
  listRoutes: { input: z.object({}).strict() },
  /** Start OAuth sign-in for an HTTP server: the authorization URL (opened by main in Electron). */
  signIn: { input: z.object({ serverId: id }).strict() },
  /** Delete a server's OAuth tokens and reconnect. */
  signOut: { input: z.object({ serverId: id }).strict() },
  /** Change desktop settings (theme, notifications, sound, do not disturb, launch at login); only the given fields. */
  setDesktopSettings: { input: DesktopSettingsChangeSchema },
  /** Show a test notification through the same path as real ones (native in Electron, the browser's in the web host). */
  sendTestNotification: { input: z.object({}).strict() },
  /** Create a named provider-gateway token for a caller that is not a launched server (returned once here; `revealGatewayToken` copies it again). */
  createGatewayToken: { input: z.object({ name: GatewayTokenNameSchema }).strict() },
  /** A named gateway token, from the secret store (to copy it again). */
  revealGatewayToken: { input: z.object({ name: GatewayTokenNameSchema }).strict() },
  /** Revoke a named gateway token: calls with it get 401 from now on. */
  revokeGatewayToken: { input: z.object({ name: GatewayTokenNameSchema }).strict() },
  /** A page of the audit trail, newest first: records before `before` (a seq), at most `limit` (1…200, default 50). */
  listAudit: { input: z.object({ before: z.number().int().positive().optional(), limit: z.number().int().min(1).max(200).default(50) }).strict() },
  /** Walks the whole audit trail and checks it against the configured anchors (as `audit verify` does). */
  verifyAudit: { input: z.object({}).strict() },
  // Roles and personal tokens on a team server (./personal-tokens.ts; the desktop answers invalid_state).
  /** Make a personal token of the signed-in person (returned once here). */
  createPersonalToken: { input: NewPersonalTokenSchema },
  /** The signed-in person's personal tokens; `everyone` (admins only): every person's. */
  listPersonalTokens: { input: z.object({ everyone: z.boolean().optional() }).strict() },
  /** Revoke a personal token: one's own, or (admins) anyone's; refused at once on every instance. */
  revokePersonalToken: { input: z.object({ id }).strict() },
  // A team server's people (admins only; the desktop answers invalid_state).
  /** Everyone who may sign in, by name. */
  listPeople: { input: z.object({}).strict() },
  /** Add a person with a password and/or a single sign-on identity (issuer and subject). */
  addPerson: {
    input: z
      .object({ name: PersonNameSchema, role: TeamRoleSchema, servers: PersonServersSchema, password: PersonPasswordSchema.optional(), sso: z.object({ issuer: z.url().max(500), subject: z.string().min(1).max(500) }).strict().optional() })
      .strict(),
  },
  /** Change a person's role and assigned servers (absent: every server). Not one's own. */
  setPersonRole: { input: z.object({ subject: PersonSubjectSchema, role: TeamRoleSchema, servers: PersonServersSchema }).strict() },
  /** Give a person a new password. */
  resetPassword: { input: z.object({ subject: PersonSubjectSchema, password: PersonPasswordSchema }).strict() },
  /** Remove a person: their sessions end and their connections close at once. Not oneself. */
  removePerson: { input: z.object({ subject: PersonSubjectSchema }).strict() },
  /**
   * Claim a waiting item of a team server's queue for the person of this connection, or renew
   * their claim (the page calls it again as its heartbeat while it is open on the item). When
   * another person holds it, nothing changes: the result names them (the caller watches).
   * Team only (the desktop answers `invalid_state`).
   */
  claimItem: { input: z.object({ itemId: id }).strict() },
  /** Release this person's claim on an item (they left it). Nothing happens when they hold none. */
  releaseClaim: { input: z.object({ itemId: id }).strict() },
  /** Take over another person's claim (admins only): the former holder can no longer decide; their draft is kept. */
  takeOverClaim: { input: z.object({ itemId: id }).strict() },
} as const satisfies Record<ApiMethod, { input: z.ZodType }>;

/** What each request resolves with. */
export interface ApiResults {
  whoAmI: Viewer | null;
  getState: ConsoleState;
  /**
   * One queue item whole (`getItem({id})`: the request's params, the response, the draft, …) and
   * the state version it is current at: apply the `details` of later patches only. Image/audio
   * payloads of `MEDIA_REF_MIN_CHARS`+ characters (shared/contract/media-refs.ts) come by reference: `media` lists them,
   * `getItemMedia` sends them. Rejects with `not_found` when the state holds no such item.
   */
  getItem: { item: ItemView; version: number; media?: MediaRef[] };
  /**
   * The payloads of the references asked for, as the item holds them now (those it no longer holds
   * are left out). Rejects with `not_found` when the state holds no such item.
   */
  getItemMedia: { media: MediaPayload[] };
  /**
   * The payloads of a call's result that the `calls` slice holds by reference, by reference
   * (unknown ones are left out). Rejects with `not_found` when the call is no longer kept.
   */
  getCallMedia: { media: MediaPayload[] };
  callTool: { callId: string };
  approveRequest: void;
  rejectRequest: void;
  cancelGeneration: void;
  regenerate: void;
  approveResponse: void;
  rejectResponse: void;
  dismissItem: void;
  saveDraft: void;
  restartServer: void;
  listHistory: HistoryListPage;
  getHistoryEntry: HistoryEntry | null;
  /** The payloads of a history entry sent by reference (unknown references left out). Rejects with `not_found` when there is no such entry. */
  getHistoryMedia: { media: MediaPayload[] };
  /** The provider as now configured (no key, only `hasApiKey` / `apiKeyHint`). */
  saveProvider: ProviderView;
  removeProvider: void;
  testProvider: ProviderTestResult;
  /** Listed model ids; `contextWindow` in tokens where the list says. */
  listProviderModels: { models: Array<{ id: string; contextWindow?: number }> };
  saveModelSettings: ModelSettings;
  saveRules: void;
  setAutoApprovalPaused: void;
  exportRules: { fileName: string; text: string };
  /** How many rules the imported file holds. */
  importRules: { rules: number };
  setKeepOriginal: void;
  historyStats: HistoryStats;
  historyFacets: HistoryFacets;
  exportHistory: ExportedFile;
  /** `deleted` entries in `sessions` sessions. */
  deleteHistory: { deleted: number; sessions: number };
  getHistorySettings: HistorySettings;
  /** The settings now in force and the entries the prune that followed deleted. */
  setHistorySettings: { settings: HistorySettings; pruned: number };
  reopenHistoryEntry: { itemId: string };
  respondElicitation: void;
  setServerRoots: { roots: Array<{ uri: string; name?: string }> };
  rerunCall: { callId: string };
  dismissNotice: void;
  setToolEra: void;
  /** `masked`: fields shown as SECRET_PLACEHOLDER; `otherKeys`: fields of the entry the console keeps as they are. */
  getServerEntry: { entry: ServerEntryInput; masked: string[]; otherKeys: string[] };
  saveServer: void;
  removeServer: void;
  setServerEnabled: void;
  duplicateServer: { id: string };
  getPrompt: { callId: string };
  readResource: { callId: string };
  getServerLog: ServerLogPage;
  scanImports: ImportScan;
  importServers: ImportOutcome;
  routeServer: HostRouteView;
  unrouteServer: void;
  listRoutes: { routes: HostRouteView[] };
  /** `authorizationUrl` empty: still signed in, nothing to open; `opened`: main opened it (else the renderer does). */
  signIn: { authorizationUrl: string; opened: boolean };
  signOut: void;
  /** The settings now in force (saved). */
  setDesktopSettings: DesktopSettings;
  sendTestNotification: void;
  createGatewayToken: { token: string };
  revealGatewayToken: { token: string };
  revokeGatewayToken: void;
  /** Records newest first, and the chain's head now (seq 0 when empty). */
  listAudit: { records: AuditRecordView[]; head: AuditHead };
  /** The verification's report; rejects with `invalid_state` (`error.auditAnchors`) when the configured anchor folder cannot be read. */
  verifyAudit: AuditVerifyReport;
  createPersonalToken: { token: string; view: PersonalTokenView };
  listPersonalTokens: { tokens: PersonalTokenView[] };
  revokePersonalToken: void;
  listPeople: { people: PersonView[] };
  /** The person added. Rejects `invalid_input` (error.personNameTaken) when the name is taken. */
  addPerson: { person: PersonView };
  /** The person changed. Rejects `not_found` (error.noPerson), `invalid_state` (error.notYourself). */
  setPersonRole: { person: PersonView };
  /** Rejects `not_found` (error.noPerson). */
  resetPassword: void;
  /** Rejects `not_found` (error.noPerson), `invalid_state` (error.notYourself). */
  removePerson: void;
  /** Who holds the item now, and whether it is this connection's person. */
  claimItem: ClaimResult;
  releaseClaim: void;
  takeOverClaim: void;
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

export { ApiError, BRIDGE_UI_MARK, type ApiErrorCode, type ApiReply } from './api-error.js';
