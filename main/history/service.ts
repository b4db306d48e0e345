/**
 * The history part of the {@link ConsoleService}: counters, facets, export, delete, retention
 * settings and re-opening a past request as a draft. `createConsole` spreads `methods` into its
 * service; inputs arrive already parsed by the hosts (shared/contract/api.ts schemas).
 */
import { ApiError, type ApiParsedInput, type ApiResults } from '../../shared/contract/api.js';
import { HistorySettingsSchema, type HistorySettings } from '../../shared/contract/history.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import type { Logger } from '../ports.js';
import type { HistoryStore } from '../store/history-store.js';
import { exportHistory } from './export.js';
import { createRetention, type Retention } from './retention.js';
import { loadHistorySettings, saveHistorySettings } from './settings.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { AuditJson } from '../../shared/contract/audit.js';
import { personActing } from '../audit/actor.js';
import { sha256Hex } from '../audit/chain.js';
import type { AuditTrail } from '../audit/trail.js';

/** The methods this module implements. */
export type HistoryMethod =
  | 'historyStats'
  | 'historyFacets'
  | 'exportHistory'
  | 'deleteHistory'
  | 'getHistorySettings'
  | 'setHistorySettings'
  | 'reopenHistoryEntry';

/** Those methods, as the console service has them. */
export type HistoryMethods = { [M in HistoryMethod]: (input: ApiParsedInput<M>) => Promise<ApiResults[M]> };

/** What the history service needs from the console. */
export interface HistoryServiceDeps {
  store: HistoryStore;
  /** The user-data folder (settings file). */
  userDataDir: string;
  now: () => number;
  logger: Logger;
  /** Reports a problem to the person (e.g. an unreadable settings file). */
  notify(level: 'info' | 'warning' | 'error', message: string): void;
  /** Creates a draft queue item from a past request (no server waiting); returns its id. */
  reopenDraft(entry: HistoryEntry): string;
  /**
   * The audit trail: sessions removed (by retention or a person) are recorded in it, and a JSONL
   * export carries it (main/audit/export.ts). Retention never prunes it.
   */
  audit?: AuditTrail;
}

/** Most conversation ids one record of removed sessions lists (all of them are in its `sessionsSha256`). */
const IDS_LISTED = 100;

/**
 * What a record of removed sessions says: how many sessions and entries, their conversation ids
 * (the first {@link IDS_LISTED}), and the SHA-256 of all of them (sorted, one per line).
 */
function removedDetails(sessions: readonly string[], entries: number): Record<string, AuditJson> {
  const sorted = [...sessions].sort();
  return { sessions: sessions.length, entries, conversationIds: sorted.slice(0, IDS_LISTED), sessionsSha256: sha256Hex(sorted.join('\n')) };
}

/** The running history service. */
export interface HistoryService {
  methods: HistoryMethods;
  retention: Retention;
  /** Stops the retention timer (call before closing the store). */
  dispose(): void;
}

/**
 * Loads the retention settings, starts the pruner (one prune now, then hourly) and returns the
 * API methods.
 */
export function createHistoryService(deps: HistoryServiceDeps): HistoryService {
  const { store } = deps;
  const loaded = loadHistorySettings(deps.userDataDir);
  if (loaded.problem) deps.notify('error', loaded.problem);
  if (loaded.note) deps.notify('info', loaded.note);
  let settings: HistorySettings = loaded.settings;
  const retention = createRetention({
    store,
    settings: () => settings,
    now: deps.now,
    logger: deps.logger,
    // The console prunes by the person's retention settings: itself the actor, the settings in the record.
    onPruned: (entries, sessions) => deps.audit?.record({ actor: { kind: 'console' }, kind: 'history.pruned', subject: 'history', details: { ...removedDetails(sessions, entries), retentionDays: settings.retentionDays, retentionSessions: settings.retentionSessions } }),
  });
  retention.start();
  void retention.run();

  const methods: HistoryMethods = {
    historyStats: async ({ from, to }) => store.stats({ from, to }),
    historyFacets: async () => store.facets(),
    exportHistory: async (input) => exportHistory(store, input, deps.now(), deps.audit?.store),
    deleteHistory: async ({ ids }) => {
      const sessions = await store.sessions({ ids }, ids.length);
      const deleted = await store.deleteSessions(sessions);
      if (sessions.length > 0) deps.audit?.record({ actor: personActing(), kind: 'history.deleted', subject: 'history', details: removedDetails(sessions, deleted) });
      return { deleted, sessions: sessions.length };
    },
    getHistorySettings: async () => ({ ...settings }),
    setHistorySettings: async (input) => {
      // Applied to the file as it is now (a hand edit since start counts); refused while broken.
      const fresh = loadHistorySettings(deps.userDataDir);
      if (fresh.problem) throw new ApiError('invalid_state', ui('error.nothingChanged', { problem: fresh.problem }));
      const next = HistorySettingsSchema.parse({ ...fresh.settings, ...input });
      try {
        saveHistorySettings(loaded.path, next);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw new ApiError('internal', ui('error.couldNotSave', { path: loaded.path, why: err instanceof Error ? err.message : String(err) }));
      }
      settings = next;
      const pruned = await retention.run();
      return { settings: { ...settings }, pruned };
    },
    reopenHistoryEntry: async ({ id }) => {
      const entry = await store.get(id);
      if (!entry) throw new ApiError('not_found', ui('error.noHistoryEntry', { id }));
      return { itemId: deps.reopenDraft(entry) };
    },
  };
  return { methods, retention, dispose: () => retention.stop() };
}
