/**
 * The audit trail's part of a running console: its settings (settings.ts), the scheduled anchors
 * (anchoring.ts) when an anchor folder is configured, and the notices a person gets when an anchor
 * cannot be written — above all when the chain no longer verifies.
 */
import { ui, type UiText } from '../../shared/contract/ui-text.js';
import type { Logger } from '../logger.js';
import { loadSigningKey, type SigningKey } from './anchor-files.js';
import { startAnchoring, type Anchoring } from './anchoring.js';
import { loadAuditSettings, type AuditSettings } from './settings.js';
import type { AuditTrail } from './trail.js';

/** What the audit service needs. */
export interface AuditServiceDeps {
  trail: AuditTrail;
  /** The data folder (audit-settings.json, the default signing key). */
  dir: string;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  now: () => number;
  notify(level: 'warning' | 'error', message: UiText): void;
}

/** The running audit service. */
export interface AuditService {
  settings: AuditSettings;
  /** The anchoring schedule, when an anchor folder is configured. */
  anchoring?: Anchoring;
  /** Stops the schedule after one last anchor (the state at shutdown). Call before the trail closes. */
  dispose(): Promise<void>;
}

/** Loads the settings and starts anchoring on schedule when a folder is configured. */
export function startAuditService(deps: AuditServiceDeps): AuditService {
  const { settings, problem } = loadAuditSettings(deps.dir, deps.env);
  if (problem) deps.notify('warning', ui('notice.auditSettings', { why: problem }));
  const folder = settings.anchorFolder;
  if (!folder) return { settings, dispose: async () => undefined };
  let key: SigningKey | undefined;
  const anchoring = startAnchoring({
    store: deps.trail.store,
    folder,
    everyMs: settings.anchorEveryMs,
    key: () => (key ??= loadSigningKey(settings.signingKeyFile, { create: settings.defaultKey })),
    now: deps.now,
    logger: deps.logger,
    onProblem: (p) => deps.notify('error', 'report' in p ? ui('notice.auditTampered', { finding: p.report.findings[0]?.ui ?? '' }) : ui('notice.auditAnchorFailed', { folder, why: p.error })),
  });
  return {
    settings,
    anchoring,
    async dispose() {
      await deps.trail.durable().catch(() => undefined); // the last records are in the last anchor
      await anchoring.stop();
    },
  };
}
