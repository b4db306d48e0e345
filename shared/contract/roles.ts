/**
 * Who may call what on a team server. A signed-in person has one role; every `ConsoleApi` method
 * needs one {@link ApiAccess}, and main checks it for every call before the method runs (the UI
 * only hides what the role cannot do). The desktop app has no sign-in: its one person may do
 * everything.
 *
 * - `admin`: servers, providers, rules, budgets, tokens, people — and everything a reviewer and an
 *   auditor may do.
 * - `reviewer`: decides (approve, reject, edit) sampling requests, responses and elicitations, on
 *   every server or on the servers assigned to them; reads the queue and History.
 * - `auditor`: reads and exports History and the audit trail; decides nothing.
 */
import type { ApiMethod } from './api-methods.js';

/** The roles of a team server, most powerful first. */
export const TEAM_ROLES = ['admin', 'reviewer', 'auditor'] as const;
/** See {@link TEAM_ROLES}. */
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The person a UI connection acts for (`whoAmI`); null on the desktop (no sign-in). */
export interface Viewer {
  /** Stable id of the person (`admin` for the team's shared admin token). */
  subject: string;
  /** Display name. */
  name: string;
  role: TeamRole;
  /** Servers a reviewer is assigned to (server ids); absent: every server. */
  servers?: readonly string[];
}

/**
 * What a method needs:
 * - `read`: any signed-in person (the queue, state, History reading);
 * - `decide`: reviewer or admin (and, for a reviewer with assigned servers, the item's server);
 * - `audit`: auditor or admin (exports, the audit trail);
 * - `self`: any signed-in person, about themselves only (their own personal tokens, drafts);
 * - `admin`: admin only.
 */
export type ApiAccess = 'read' | 'decide' | 'audit' | 'self' | 'admin';

/** The roles each access level admits. */
export const ACCESS_ROLES: Readonly<Record<ApiAccess, readonly TeamRole[]>> = {
  read: ['admin', 'reviewer', 'auditor'],
  decide: ['admin', 'reviewer'],
  audit: ['admin', 'auditor'],
  self: ['admin', 'reviewer', 'auditor'],
  admin: ['admin'],
};

/** Whether `role` may call a method needing `access`. */
export function roleAllows(role: TeamRole, access: ApiAccess): boolean {
  return ACCESS_ROLES[access].includes(role);
}

/** The access every method needs. A new method must be classified here (the compiler insists). */
export const API_ACCESS = {
  whoAmI: 'self',
  getState: 'read',
  getItem: 'read',
  getItemMedia: 'read',
  getCallMedia: 'admin',
  callTool: 'admin',
  approveRequest: 'decide',
  rejectRequest: 'decide',
  cancelGeneration: 'decide',
  regenerate: 'decide',
  approveResponse: 'decide',
  rejectResponse: 'decide',
  dismissItem: 'decide',
  saveDraft: 'decide',
  restartServer: 'admin',
  listHistory: 'read',
  getHistoryEntry: 'read',
  getHistoryMedia: 'read',
  saveProvider: 'admin',
  removeProvider: 'admin',
  testProvider: 'admin',
  listProviderModels: 'admin',
  saveModelSettings: 'admin',
  saveRules: 'admin',
  setAutoApprovalPaused: 'admin',
  exportRules: 'admin',
  importRules: 'admin',
  setKeepOriginal: 'admin',
  historyStats: 'read',
  historyFacets: 'read',
  exportHistory: 'audit',
  deleteHistory: 'admin',
  getHistorySettings: 'read',
  setHistorySettings: 'admin',
  reopenHistoryEntry: 'decide',
  respondElicitation: 'decide',
  setServerRoots: 'admin',
  rerunCall: 'admin',
  dismissNotice: 'read',
  setToolEra: 'admin',
  getServerEntry: 'admin',
  saveServer: 'admin',
  removeServer: 'admin',
  setServerEnabled: 'admin',
  duplicateServer: 'admin',
  getPrompt: 'admin',
  readResource: 'admin',
  getServerLog: 'admin',
  scanImports: 'admin',
  importServers: 'admin',
  routeServer: 'admin',
  unrouteServer: 'admin',
  listRoutes: 'admin',
  signIn: 'admin',
  signOut: 'admin',
  setDesktopSettings: 'self',
  sendTestNotification: 'self',
  createGatewayToken: 'admin',
  revealGatewayToken: 'admin',
  revokeGatewayToken: 'admin',
  listAudit: 'audit',
  verifyAudit: 'audit',
  // Roles and personal tokens: each person their own (an admin may list and revoke anyone's: checked in the method).
  createPersonalToken: 'self',
  listPersonalTokens: 'self',
  revokePersonalToken: 'self',
  listPeople: 'admin',
  addPerson: 'admin',
  setPersonRole: 'admin',
  resetPassword: 'admin',
  removePerson: 'admin',
  claimItem: 'decide',
  releaseClaim: 'decide',
  takeOverClaim: 'admin',
} as const satisfies Record<ApiMethod, ApiAccess>;
