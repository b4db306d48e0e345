/**
 * The names of every `ConsoleApi` request, with no dependencies, so the sandboxed Electron preload
 * can enumerate them without bundling zod. `shared/contract/api.ts` checks at compile time that its schema
 * table has exactly these keys.
 */
export const API_METHODS = [
  'whoAmI',
  'getState',
  'getItem',
  'getItemMedia',
  'getCallMedia',
  'callTool',
  'approveRequest',
  'rejectRequest',
  'cancelGeneration',
  'regenerate',
  'approveResponse',
  'rejectResponse',
  'dismissItem',
  'saveDraft',
  'restartServer',
  'listHistory',
  'getHistoryEntry',
  'getHistoryMedia',
  'saveProvider',
  'removeProvider',
  'testProvider',
  'listProviderModels',
  'saveModelSettings',
  'saveRules',
  'setAutoApprovalPaused',
  'exportRules',
  'importRules',
  'setKeepOriginal',
  'historyStats',
  'historyFacets',
  'exportHistory',
  'deleteHistory',
  'getHistorySettings',
  'setHistorySettings',
  'reopenHistoryEntry',
  'respondElicitation',
  'setServerRoots',
  'rerunCall',
  'dismissNotice',
  'setToolEra',
  // Servers: config edits, prompts/resources, logs, import, OAuth.
  'getServerEntry',
  'saveServer',
  'removeServer',
  'setServerEnabled',
  'duplicateServer',
  'getPrompt',
  'readResource',
  'getServerLog',
  'scanImports',
  'importServers',
  'routeServer',
  'unrouteServer',
  'listRoutes',
  'signIn',
  'signOut',
  'setDesktopSettings',
  'sendTestNotification',
  // The provider gateway's named tokens.
  'createGatewayToken',
  'revealGatewayToken',
  'revokeGatewayToken',
  // The audit trail, for auditors.
  'listAudit',
  'verifyAudit',
  // Roles and personal tokens on a team server.
  'createPersonalToken',
  'listPersonalTokens',
  'revokePersonalToken',
  // A team server's people (accounts and sign-in).
  'listPeople',
  'addPerson',
  'setPersonRole',
  'resetPassword',
  'removePerson',
  // Claims on a team server's waiting items (main/team/claims.ts).
  'claimItem',
  'releaseClaim',
  'takeOverClaim',
] as const;

/** A request name. */
export type ApiMethod = (typeof API_METHODS)[number];

/** IPC channel of a request (`ipcRenderer.invoke(channel, input)`). */
export const requestChannel = (method: ApiMethod): string => `console:${method}`;

/** IPC channel main sends {@link ConsoleEvent}s on. */
export const EVENT_CHANNEL = 'console:event';
