/**
 * An in-memory {@link ConsoleService} for host tests: records every call with the (already
 * zod-parsed) input it received, answers with canned results (overridable per method), and lets
 * the test push events to every subscriber.
 */
import { ApiError, type ApiMethod, type ApiParsedInput, type ApiResults, type ConsoleEvent, type ConsoleService } from '../../shared/contract/api.js';
import type { ConsoleState } from '../../shared/contract/state.js';

/** One recorded call. */
export interface RecordedCall {
  method: ApiMethod;
  input: unknown;
}

/** Per-method overrides: return a result or throw (e.g. `new ApiError('not_found', …)`). */
export type FakeHandlers = { [M in ApiMethod]?: (input: ApiParsedInput<M>) => ApiResults[M] | Promise<ApiResults[M]> };

/** The fake plus its test controls. */
export interface FakeService {
  service: ConsoleService;
  /** Every call in order. */
  calls: RecordedCall[];
  /** Sends `event` to every current subscriber. */
  emit(event: ConsoleEvent): void;
  /** How many subscribers are attached right now. */
  listenerCount(): number;
  /** The state `getState` returns (mutable). */
  state: ConsoleState;
}

/** A minimal valid {@link ConsoleState} with the given version. */
export function makeState(version = 1): ConsoleState {
  return {
    version,
    servers: [],
    calls: [],
    items: [],
    providers: [],
    notices: [],
    settings: {
      host: 'test',
      userDataDir: '/tmp/fake',
      serversConfigPath: '/tmp/fake/servers.json',
      providersConfigPath: '/tmp/fake/providers.json',
      historyPath: '/tmp/fake/history.db',
    },
  };
}

/** Creates a fake service. `handlers` replace the canned answers of single methods. */
export function createFakeService(handlers: FakeHandlers = {}): FakeService {
  const calls: RecordedCall[] = [];
  const listeners = new Set<(event: ConsoleEvent) => void>();
  const defaults: { [M in ApiMethod]: () => ApiResults[M] } = {
    getState: () => fake.state,
    getItem: () => {
      throw new ApiError('not_found', 'no item');
    },
    getItemMedia: () => {
      throw new ApiError('not_found', 'no item');
    },
    getCallMedia: () => {
      throw new ApiError('not_found', 'no call');
    },
    callTool: () => ({ callId: 'call-1' }),
    approveRequest: () => undefined,
    rejectRequest: () => undefined,
    cancelGeneration: () => undefined,
    regenerate: () => undefined,
    approveResponse: () => undefined,
    rejectResponse: () => undefined,
    dismissItem: () => undefined,
    saveDraft: () => undefined,
    restartServer: () => undefined,
    listHistory: () => ({ entries: [], total: 0 }),
    getHistoryEntry: () => null,
    getHistoryMedia: () => {
      throw new ApiError('not_found', 'no entry');
    },
    saveProvider: () => ({ id: 'p', kind: 'openai-compatible', label: 'p', models: [], hasApiKey: false }),
    removeProvider: () => undefined,
    testProvider: () => ({ ok: true, message: 'Connected', latencyMs: 1, models: [] }),
    listProviderModels: () => ({ models: [] }),
    saveModelSettings: () => ({ families: [], servers: {}, defaultModel: { providerId: 'manual', modelId: 'manual' } }),
    saveRules: () => undefined,
    setAutoApprovalPaused: () => undefined,
    exportRules: () => ({ fileName: 'rules.json', text: '{}' }),
    importRules: () => ({ rules: 0 }),
    setKeepOriginal: () => undefined,
    historyStats: () => ({ servers: [] }),
    historyFacets: () => ({ servers: [], tools: [], models: [], providers: [], rules: [] }),
    exportHistory: () => ({ filename: 'h.jsonl', mimeType: 'application/x-ndjson; charset=utf-8', content: '', sessions: 0, entries: 0 }),
    deleteHistory: () => ({ deleted: 0, sessions: 0 }),
    getHistorySettings: () => ({ retentionDays: null, retentionSessions: null }),
    setHistorySettings: () => ({ settings: { retentionDays: null, retentionSessions: null }, pruned: 0 }),
    reopenHistoryEntry: () => ({ itemId: 'draft-1' }),
    getServerEntry: () => ({ entry: { transport: 'stdio', command: 'node', args: [], env: {} }, masked: [], otherKeys: [] }),
    saveServer: () => undefined,
    removeServer: () => undefined,
    setServerEnabled: () => undefined,
    duplicateServer: () => ({ id: 'copy' }),
    getPrompt: () => ({ callId: 'call-1' }),
    readResource: () => ({ callId: 'call-1' }),
    getServerLog: () => ({ protocol: [], stderr: [], totals: { protocol: 0, stderr: 0 } }),
    scanImports: () => ({ sources: [] }),
    importServers: () => ({ imported: [], skipped: [] }),
    routeServer: () => ({ id: 'route-1', format: 'claude-desktop', path: '/tmp/claude_desktop_config.json', name: 'x', at: 0 }),
    unrouteServer: () => undefined,
    listRoutes: () => ({ routes: [] }),
    signIn: () => ({ authorizationUrl: '', opened: false }),
    signOut: () => undefined,
    setDesktopSettings: () => ({ theme: 'system', language: 'system', notifications: true, sound: false, doNotDisturb: false, launchAtLogin: false }),
    sendTestNotification: () => undefined,
    respondElicitation: () => undefined,
    setServerRoots: () => ({ roots: [] }),
    rerunCall: () => ({ callId: 'call-2' }),
    setToolEra: () => undefined,
    dismissNotice: () => undefined,
    createGatewayToken: () => ({ token: 'mcpgw_fake' }),
    revealGatewayToken: () => ({ token: 'mcpgw_fake' }),
    revokeGatewayToken: () => undefined,
    claimItem: () => ({ holder: { subject: 'admin', name: 'admin', since: 0 }, mine: true }),
    releaseClaim: () => undefined,
    takeOverClaim: () => undefined,
    whoAmI: () => null,
    listAudit: () => ({ records: [], head: { seq: 0, hash: '0'.repeat(64) } }),
    verifyAudit: () => ({ intact: true, records: 0, last: { seq: 0, hash: '0'.repeat(64) }, anchors: { checked: 0 }, findings: [] }),
    // Roles and personal tokens.
    createPersonalToken: () => ({ token: 'mcppt_fake', view: { id: 'pt_fake', name: 'fake', owner: { subject: 'admin', name: 'admin' }, createdAt: 0, calls: 0 } }),
    listPersonalTokens: () => ({ tokens: [] }),
    revokePersonalToken: () => undefined,
    // A team server's people.
    listPeople: () => ({ people: [] }),
    addPerson: () => ({ person: { subject: 'p_fake', name: 'fake', role: 'reviewer', createdAt: 0 } }),
    setPersonRole: () => ({ person: { subject: 'p_fake', name: 'fake', role: 'reviewer', createdAt: 0 } }),
    resetPassword: () => undefined,
    removePerson: () => undefined,
  };
  const record =
    <M extends ApiMethod>(method: M) =>
    async (input: ApiParsedInput<M>): Promise<ApiResults[M]> => {
      calls.push({ method, input });
      const handler = handlers[method] as ((i: ApiParsedInput<M>) => ApiResults[M] | Promise<ApiResults[M]>) | undefined;
      return handler ? handler(input) : defaults[method]();
    };
  const service: ConsoleService = {
    whoAmI: record('whoAmI'),
    listAudit: record('listAudit'),
    verifyAudit: record('verifyAudit'),
    getState: record('getState'),
    getItem: record('getItem'),
    getItemMedia: record('getItemMedia'),
    getCallMedia: record('getCallMedia'),
    createGatewayToken: record('createGatewayToken'),
    revealGatewayToken: record('revealGatewayToken'),
    revokeGatewayToken: record('revokeGatewayToken'),
    createPersonalToken: record('createPersonalToken'),
    listPersonalTokens: record('listPersonalTokens'),
    revokePersonalToken: record('revokePersonalToken'),
    listPeople: record('listPeople'),
    addPerson: record('addPerson'),
    setPersonRole: record('setPersonRole'),
    resetPassword: record('resetPassword'),
    removePerson: record('removePerson'),
    claimItem: record('claimItem'),
    releaseClaim: record('releaseClaim'),
    takeOverClaim: record('takeOverClaim'),
    callTool: record('callTool'),
    approveRequest: record('approveRequest'),
    rejectRequest: record('rejectRequest'),
    cancelGeneration: record('cancelGeneration'),
    regenerate: record('regenerate'),
    approveResponse: record('approveResponse'),
    rejectResponse: record('rejectResponse'),
    dismissItem: record('dismissItem'),
    saveDraft: record('saveDraft'),
    restartServer: record('restartServer'),
    listHistory: record('listHistory'),
    getHistoryEntry: record('getHistoryEntry'),
    getHistoryMedia: record('getHistoryMedia'),
    saveProvider: record('saveProvider'),
    removeProvider: record('removeProvider'),
    testProvider: record('testProvider'),
    listProviderModels: record('listProviderModels'),
    saveModelSettings: record('saveModelSettings'),
    saveRules: record('saveRules'),
    setAutoApprovalPaused: record('setAutoApprovalPaused'),
    exportRules: record('exportRules'),
    importRules: record('importRules'),
    setKeepOriginal: record('setKeepOriginal'),
    historyStats: record('historyStats'),
    historyFacets: record('historyFacets'),
    exportHistory: record('exportHistory'),
    deleteHistory: record('deleteHistory'),
    getHistorySettings: record('getHistorySettings'),
    setHistorySettings: record('setHistorySettings'),
    reopenHistoryEntry: record('reopenHistoryEntry'),
    getServerEntry: record('getServerEntry'),
    saveServer: record('saveServer'),
    removeServer: record('removeServer'),
    setServerEnabled: record('setServerEnabled'),
    duplicateServer: record('duplicateServer'),
    getPrompt: record('getPrompt'),
    readResource: record('readResource'),
    getServerLog: record('getServerLog'),
    scanImports: record('scanImports'),
    importServers: record('importServers'),
    routeServer: record('routeServer'),
    unrouteServer: record('unrouteServer'),
    listRoutes: record('listRoutes'),
    signIn: record('signIn'),
    signOut: record('signOut'),
    setDesktopSettings: record('setDesktopSettings'),
    sendTestNotification: record('sendTestNotification'),
    respondElicitation: record('respondElicitation'),
    setServerRoots: record('setServerRoots'),
    rerunCall: record('rerunCall'),
    setToolEra: record('setToolEra'),
    dismissNotice: record('dismissNotice'),
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  const fake: FakeService = {
    service,
    calls,
    state: makeState(),
    emit: (event) => {
      for (const l of [...listeners]) l(event);
    },
    listenerCount: () => listeners.size,
  };
  return fake;
}
