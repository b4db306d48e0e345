/**
 * A fake `window.api` for UI specs: `installFakeApi` is passed to `page.addInitScript`, so it runs
 * in the page before the renderer and must not reference anything outside itself. It serves the
 * given state and history, records every request in `window.__fake.calls`, and lets the spec push
 * events with `window.__fake.emit(event)`, fail the next call of a method, or hold a method's replies
 * (`hold` / `release`) to see the UI while a reply is pending.
 */
import type { ConsoleEvent } from '../../shared/contract/api.js';
import { projectItem } from '../../shared/domain/item-summary.js';
import { CALL_ELISION, elideMedia, type ElideOptions } from '../../shared/domain/media-refs.js';
import type { MediaRef } from '../../shared/contract/media-refs.js';
import type { ConsoleState, HistoryEntry, ItemView } from '../../shared/contract/state.js';
import type { StatePatch } from '../../shared/contract/state-patch.js';
import { waitsOnPerson } from '../../shared/contract/status.js';
import { contentVersion } from '../../main/requests/version.js';
import type { FixtureState } from './fixture-state.js';

/** What the fake serves, as specs write it (items whole). */
export interface FakeData {
  state: FixtureState;
  history: HistoryEntry[];
}

/**
 * What the page gets: the state as main sends it (summaries; calls with their big media and long
 * texts by reference), the whole items for `getItem` with their big media by reference as main sends them,
 * and those payloads for `getItemMedia` and `getCallMedia`, by item or call id; history entries
 * likewise (`getHistoryEntry` with `media: 'by-ref'`, `getHistoryMedia`).
 */
export interface FakeWire {
  state: ConsoleState;
  items: ItemView[];
  media: Record<string, { refs: MediaRef[]; payloads: Record<string, string> }>;
  history: HistoryEntry[];
  /** History entries holding big media: as `getHistoryEntry` sends them by reference, and the payloads. */
  historyMedia: Record<string, { entry: HistoryEntry; payloads: Record<string, string> }>;
}

/**
 * `item` with the `contentVersion` main puts on an item waiting on the person (what its review
 * shows, hashed: main/sampling/versions.ts `reviewBase`), unless the fixture set one.
 */
export function withVersion<T extends ItemView>(item: T): T {
  if (item.contentVersion !== undefined || !waitsOnPerson(item.status)) return item;
  const base = item.kind === 'elicitation' ? item.params : item.status === 'awaiting_request_review' ? (item.sent ?? item.original) : item.response?.draft;
  return base === undefined ? item : { ...item, contentVersion: contentVersion(base) };
}

/** Every item of a fixture state, both kinds: in the fixture's order, merged by time of arrival when there are elicitations (as main would have received them). */
export function fixtureItems(state: FixtureState): ItemView[] {
  if (!state.elicitations?.length) return state.items;
  return [...state.items, ...state.elicitations].sort((a, b) => a.receivedAt - b.receivedAt);
}

/** `data` as the page's fake serves it. Runs in Node (the page cannot import the projection). */
export function toWire(data: FakeData): FakeWire {
  const { elicitations: _elicitations, ...rest } = data.state;
  const items = fixtureItems(data.state).map(withVersion);
  const media: FakeWire['media'] = {};
  const byRef = <T extends { id: string }>(whole: T, opts: ElideOptions = {}): T => {
    const { value, refs, payloads } = elideMedia(whole, opts);
    if (refs.length) media[whole.id] = { refs, payloads: Object.fromEntries(payloads) };
    return value;
  };
  const sent = items.map((i) => byRef(i));
  const historyMedia: FakeWire['historyMedia'] = {};
  for (const entry of data.history) {
    const { value, refs, payloads } = elideMedia(entry);
    if (refs.length) historyMedia[entry.id] = { entry: value, payloads: Object.fromEntries(payloads) };
  }
  return { state: { ...rest, calls: rest.calls.map((c) => byRef(c, CALL_ELISION)), items: items.map(projectItem) }, items: sent, media, history: data.history, historyMedia };
}

/** An event as a spec writes it: a patch's `upsert` may hold whole items. */
export type FakeEvent = ConsoleEvent | { type: 'patch'; patch: Omit<StatePatch, 'items'> & { items?: { upsert: ItemView[]; remove: string[] } } };

/** `event` as main would send it (upserts as summaries), and the whole items it upserts. */
export function wireEvent(event: FakeEvent): { event: ConsoleEvent; whole: ItemView[] } {
  if (event.type !== 'patch' || !event.patch.items) return { event: event as ConsoleEvent, whole: [] };
  const whole = event.patch.items.upsert.map((i) => ('preview' in i ? null : withVersion(i))).filter((i): i is ItemView => i !== null);
  const upsert = event.patch.items.upsert.map((i) => ('preview' in i ? (i as never) : projectItem(withVersion(i))));
  return { event: { type: 'patch', patch: { ...event.patch, items: { ...event.patch.items, upsert } } } as ConsoleEvent, whole };
}

/** One recorded request. */
export interface RecordedCall {
  method: string;
  input: Record<string, unknown>;
}

/** The test handle the fake puts on `window.__fake`. */
export interface FakeHandle {
  calls: RecordedCall[];
  /** Pushes `event`; `whole`: the items it upserts, whole, served by `getItem` from then on. */
  emit(event: ConsoleEvent, whole?: ItemView[]): void;
  /** Makes the next call of `method` reject with this message. */
  failNext(method: string, message: string): void;
  /** Holds the replies of `method` from now on: its calls are recorded at once and answered only at {@link FakeHandle.release}. */
  hold(method: string): void;
  /** Answers the held calls of `method`, oldest first, and stops holding its replies. */
  release(method: string): void;
}

/** Installs the fake on `window` (runs in the page). */
export function installFakeApi(data: FakeWire): void {
  const calls: RecordedCall[] = [];
  const listeners = new Set<(event: ConsoleEvent) => void>();
  const failures = new Map<string, string>();
  /** The methods whose replies are held, each with its calls waiting for an answer. */
  const held = new Map<string, Array<() => void>>();
  let nextCall = 1;
  /** The payloads `refs` name among `payloads`, in the order asked (unknown ones left out), as main's media methods answer. */
  const picked = (payloads: Record<string, string>, refs: string[]) => refs.filter((ref) => ref in payloads).map((ref) => ({ ref, data: payloads[ref]! }));
  const answer = (method: string, input: unknown, value: () => unknown): Promise<unknown> => {
    calls.push({ method, input: JSON.parse(JSON.stringify(input ?? {})) as Record<string, unknown> });
    const failure = failures.get(method);
    if (failure !== undefined) {
      failures.delete(method);
      return Promise.reject(new Error(failure));
    }
    const waiting = held.get(method);
    if (waiting) return new Promise((resolve) => waiting.push(() => resolve(Promise.resolve().then(value))));
    return Promise.resolve(value());
  };
  const whole = new Map(data.items.map((i) => [i.id, i]));
  let version = data.state.version;
  const history = [...data.history].sort((a, b) => b.receivedAt - a.receivedAt);
  const api: Record<string, unknown> = {
    onEvent(listener: (event: ConsoleEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getState: (input: unknown) => answer('getState', input, () => ({ ...data.state, version })),
    getItem: (input: { id: string }) =>
      answer('getItem', input, () => {
        const item = whole.get(input.id);
        if (!item) throw Object.assign(new Error(`no item ${input.id} in the queue`), { code: 'not_found' });
        const media = data.media[input.id]?.refs;
        return media ? { item, version, media } : { item, version };
      }),
    getItemMedia: (input: { id: string; refs: string[] }) =>
      answer('getItemMedia', input, () => {
        const payloads = data.media[input.id]?.payloads ?? {};
        return { media: picked(payloads, input.refs) };
      }),
    getCallMedia: (input: { callId: string; refs: string[] }) =>
      answer('getCallMedia', input, () => {
        const payloads = data.media[input.callId]?.payloads ?? {};
        return { media: picked(payloads, input.refs) };
      }),
    callTool: (input: unknown) => answer('callTool', input, () => ({ callId: `fake-call-${nextCall++}` })),
    rerunCall: (input: unknown) => answer('rerunCall', input, () => ({ callId: `fake-call-${nextCall++}` })),
    setToolEra: (input: unknown) => answer('setToolEra', input, () => undefined),
    dismissNotice: (input: unknown) => answer('dismissNotice', input, () => undefined),
    listHistory: (input: { query?: string; limit?: number; offset?: number; conversationId?: string; id?: string }) =>
      answer('listHistory', input, () => {
        const q = (input.query ?? '').toLowerCase();
        const matching = q ? history.filter((e) => JSON.stringify(e).toLowerCase().includes(q)) : history;
        const inSession = input.conversationId ? matching.filter((e) => e.conversationId === input.conversationId) : matching;
        const found = input.id ? inSession.filter((e) => e.id === input.id) : inSession;
        const offset = input.offset ?? 0;
        const entries = found.slice(offset, offset + (input.limit ?? 50)).map((e) => ({
          id: e.id,
          ...(e.kind && { kind: e.kind }),
          conversationId: e.conversationId,
          serverId: e.serverId,
          callName: e.callName,
          callArgs: e.callArgs,
          status: e.status,
          decidedBy: e.decidedBy,
          receivedAt: e.receivedAt,
          endedAt: e.endedAt,
          model: e.model,
          providerId: e.providerId,
          edited: e.edited,
          error: e.error,
          errorUi: e.errorUi,
          preview: e.preview,
          sessionSize: history.filter((x) => x.conversationId === e.conversationId).length,
          sessionIndex: history.filter((x) => x.conversationId === e.conversationId && x.receivedAt <= e.receivedAt).length,
          mediaBytes: 0,
          mediaCount: 0,
        }));
        return { entries, total: found.length };
      }),
    getHistoryEntry: (input: { id: string; media?: 'by-ref' }) =>
      answer('getHistoryEntry', input, () => {
        const entry = history.find((e) => e.id === input.id) ?? null;
        return entry && input.media === 'by-ref' ? (data.historyMedia[entry.id]?.entry ?? entry) : entry;
      }),
    getHistoryMedia: (input: { id: string; refs: string[] }) =>
      answer('getHistoryMedia', input, () => {
        const payloads = data.historyMedia[input.id]?.payloads ?? {};
        return { media: picked(payloads, input.refs) };
      }),
    // Providers: canned answers; the live spec e2e/web/providers.spec.ts runs the real registry.
    saveProvider: (input: { provider: { id: string; kind: string; label?: string; models: string[] } }) =>
      answer('saveProvider', input, () => ({ ...input.provider, label: input.provider.label ?? input.provider.id, hasApiKey: false })),
    removeProvider: (input: unknown) => answer('removeProvider', input, () => undefined),
    testProvider: (input: unknown) => answer('testProvider', input, () => ({ ok: true, message: 'Connected: 1 model listed in 3 ms', latencyMs: 3, models: ['fake-model'] })),
    listProviderModels: (input: unknown) => answer('listProviderModels', input, () => ({ models: [{ id: 'fake-model' }] })),
    saveModelSettings: (input: unknown) => answer('saveModelSettings', input, () => data.state.modelSettings),
    // Rules: the live spec e2e/web/rules.spec.ts runs the real policy.
    saveRules: (input: unknown) => answer('saveRules', input, () => undefined),
    setAutoApprovalPaused: (input: unknown) => answer('setAutoApprovalPaused', input, () => undefined),
    exportRules: (input: unknown) => answer('exportRules', input, () => ({ fileName: 'rules.json', text: '{}\n' })),
    importRules: (input: unknown) => answer('importRules', input, () => ({ rules: 0 })),
    setKeepOriginal: (input: unknown) => answer('setKeepOriginal', input, () => undefined),
    // History screen extras: simple stand-ins; the live spec e2e/web/history.spec.ts runs the real store.
    historyStats: (input: unknown) =>
      answer('historyStats', input, () => ({
        servers: [...new Set(history.map((e) => e.serverId))].sort().map((serverId) => {
          const mine = history.filter((e) => e.serverId === serverId);
          const count = (status: string) => mine.filter((e) => e.status === status).length;
          const tokens = mine.reduce((n, e) => n + (e.usage?.inputTokens ?? 0) + (e.usage?.outputTokens ?? 0), 0);
          return { serverId, requests: mine.length, approved: count('delivered'), rejected: count('rejected'), auto: 0, tokens, cost: null };
        }),
      })),
    historyFacets: (input: unknown) =>
      answer('historyFacets', input, () => {
        const distinct = (f: (e: HistoryEntry) => string | undefined) => [...new Set(history.map(f).filter((v): v is string => !!v))].sort();
        return { servers: distinct((e) => e.serverId), tools: distinct((e) => e.callName), models: distinct((e) => e.model), providers: distinct((e) => e.providerId), rules: [] };
      }),
    exportHistory: (input: { format: string }) =>
      answer('exportHistory', input, () => ({ filename: `fake.${input.format}`, mimeType: 'text/plain', content: JSON.stringify(input), sessions: 0, entries: 0 })),
    deleteHistory: (input: unknown) => answer('deleteHistory', input, () => ({ deleted: 0, sessions: 0 })),
    getHistorySettings: (input: unknown) => answer('getHistorySettings', input, () => ({ retentionDays: null, retentionSessions: null })),
    setHistorySettings: (input: Record<string, unknown>) =>
      answer('setHistorySettings', input, () => ({ settings: { retentionDays: null, retentionSessions: null, ...input }, pruned: 0 })),
    reopenHistoryEntry: (input: unknown) => answer('reopenHistoryEntry', input, () => ({ itemId: 'draft-1' })),
    // Servers: canned answers; the live spec e2e/web/servers.spec.ts runs the real manager.
    getServerEntry: (input: unknown) => answer('getServerEntry', input, () => ({ entry: { transport: 'stdio', command: 'node', args: ['server.js'], env: {} }, masked: [], otherKeys: [] })),
    duplicateServer: (input: unknown) => answer('duplicateServer', input, () => ({ id: 'copy' })),
    getPrompt: (input: unknown) => answer('getPrompt', input, () => ({ callId: 'call-prompt' })),
    readResource: (input: unknown) => answer('readResource', input, () => ({ callId: 'call-resource' })),
    getServerLog: (input: unknown) => answer('getServerLog', input, () => ({ protocol: [], stderr: [], totals: { protocol: 0, stderr: 0 } })),
    scanImports: (input: unknown) => answer('scanImports', input, () => ({ sources: [] })),
    importServers: (input: unknown) => answer('importServers', input, () => ({ imported: [], skipped: [] })),
    routeServer: (input: unknown) => answer('routeServer', input, () => ({ id: 'route-1', format: 'claude-desktop', path: '/tmp/claude_desktop_config.json', name: 'x', at: 0 })),
    unrouteServer: (input: unknown) => answer('unrouteServer', input, () => undefined),
    listRoutes: (input: unknown) => answer('listRoutes', input, () => ({ routes: [] })),
    signIn: (input: unknown) => answer('signIn', input, () => ({ authorizationUrl: '', opened: false })),
    // The provider gateway's named tokens: a token per name; the slice is left as the spec emits it.
    createGatewayToken: (input: { name: string }) => answer('createGatewayToken', input, () => ({ token: `mcpgw_fake_${input.name}` })),
    revealGatewayToken: (input: { name: string }) => answer('revealGatewayToken', input, () => ({ token: `mcpgw_fake_${input.name}` })),
    revokeGatewayToken: (input: unknown) => answer('revokeGatewayToken', input, () => undefined),
    claimItem: (input: unknown) => answer('claimItem', input, () => ({ holder: { subject: 'admin', name: 'admin', since: 0 }, mine: true })),
    releaseClaim: (input: unknown) => answer('releaseClaim', input, () => undefined),
    takeOverClaim: (input: unknown) => answer('takeOverClaim', input, () => undefined),
    whoAmI: (input: unknown) => answer('whoAmI', input, () => null),
    listAudit: (input: unknown) => answer('listAudit', input, () => ({ records: [], head: { seq: 0, hash: '0'.repeat(64) } })),
    verifyAudit: (input: unknown) => answer('verifyAudit', input, () => ({ intact: true, records: 0, last: { seq: 0, hash: '0'.repeat(64) }, anchors: { checked: 0 }, findings: [] })),
    // Roles and personal tokens: none on the desktop-like fake.
    createPersonalToken: (input: { name: string }) =>
      answer('createPersonalToken', input, () => ({ token: `mcppt_fake_${input.name}`, view: { id: `pt_${input.name}`, name: input.name, owner: { subject: 'admin', name: 'admin' }, createdAt: 0, calls: 0 } })),
    listPersonalTokens: (input: unknown) => answer('listPersonalTokens', input, () => ({ tokens: [] })),
    revokePersonalToken: (input: unknown) => answer('revokePersonalToken', input, () => undefined),
    // A team server's people: a list a spec may fill (`people`), changed as the team server would.
    listPeople: (input: unknown) => answer('listPeople', input, () => ({ people: [] })),
    addPerson: (input: { name: string; role: string; servers?: string[] }) =>
      answer('addPerson', input, () => ({ person: { subject: `p_${input.name}`, name: input.name, role: input.role, ...(input.servers && { servers: input.servers }), createdAt: 0 } })),
    setPersonRole: (input: { subject: string; role: string; servers?: string[] }) =>
      answer('setPersonRole', input, () => ({ person: { subject: input.subject, name: input.subject.replace(/^p_/, ''), role: input.role, ...(input.servers && { servers: input.servers }), createdAt: 0 } })),
    resetPassword: (input: unknown) => answer('resetPassword', input, () => undefined),
    removePerson: (input: unknown) => answer('removePerson', input, () => undefined),
    // Elicitation and roots: the live spec e2e/web/elicitation-live.spec.ts runs the real queue.
    setServerRoots: (input: { folders: string[] }) =>
      answer('setServerRoots', input, () => ({ roots: input.folders.map((f) => ({ uri: f.startsWith('file://') ? f : `file://${f}` })) })),
  };
  for (const method of ['saveServer', 'removeServer', 'setServerEnabled', 'signOut']) api[method] = (input: unknown) => answer(method, input, () => undefined);
  for (const method of ['approveRequest', 'rejectRequest', 'cancelGeneration', 'regenerate', 'approveResponse', 'rejectResponse', 'dismissItem', 'saveDraft', 'restartServer', 'respondElicitation']) {
    api[method] = (input: unknown) => answer(method, input, () => undefined);
  }
  const handle: FakeHandle = {
    calls,
    emit: (event, items = []) => {
      for (const item of items) whole.set(item.id, item);
      if (event.type === 'patch') version = Math.max(version, event.patch.version);
      listeners.forEach((l) => l(event));
    },
    failNext: (method, message) => failures.set(method, message),
    hold: (method) => void held.set(method, held.get(method) ?? []),
    release: (method) => {
      const waiting = held.get(method) ?? [];
      held.delete(method);
      for (const answerNow of waiting) answerNow();
    },
  };
  Object.assign(window, { api, __fake: handle });
}
