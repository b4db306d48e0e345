/**
 * The audit trail's API methods (the auditor's view in History): pages of records newest first,
 * and a verification of the whole chain against the configured anchors — the same walk as
 * `mcp-approval-console audit verify`, reading the store page by page so the main process keeps
 * answering while it runs.
 */
import { ApiError, type ConsoleService } from '../../shared/contract/api.js';
import { ui } from '../../shared/contract/ui-text.js';
import { anchorsToCheck } from './configured-anchors.js';
import type { AuditTrail } from './trail.js';
import { verifyAuditStore } from './verify.js';

/** What the methods read. */
export interface AuditMethodsDeps {
  trail: AuditTrail;
  /** The data folder (audit-settings.json, the local signing key). */
  dir: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** `listAudit` and `verifyAudit`. Records written but not yet appended (the trail batches) are left out until they are. */
export function auditMethods(deps: AuditMethodsDeps): Pick<ConsoleService, 'listAudit' | 'verifyAudit'> {
  return {
    async listAudit({ before, limit }) {
      await deps.trail.durable().catch(() => undefined); // what was just decided is on the page
      const [records, head] = await Promise.all([deps.trail.list({ ...(before !== undefined && { before }), limit }), deps.trail.head()]);
      return { records, head };
    },
    async verifyAudit() {
      let anchors;
      try {
        anchors = anchorsToCheck({ userDataDir: deps.dir, env: deps.env });
      } catch (err) {
        throw new ApiError('invalid_state', ui('error.auditAnchors', { why: (err as Error).message }));
      }
      await deps.trail.durable().catch(() => undefined);
      return verifyAuditStore(deps.trail.store, anchors);
    },
  };
}
