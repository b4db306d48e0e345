/**
 * What the audit trail (main/audit) records of the sampling pipeline: each decision about a
 * request or its response, by a person or by a rule, as one record about `item:<id>`.
 *
 * A person's decision carries the content `version` they saw (main/requests/version.ts) and, for
 * an approval, the `sha256` of what it let out — the same digest as the decision's History event
 * (versions.ts `stampDigest`), and whether they `edited` it. A rule's carries the rule's version
 * and action; nothing is hashed for it (nothing is hashed anywhere for a request nobody reviews).
 * Payloads and typed reasons are never copied: a reason is recorded as its SHA-256.
 */
import type { AuditJson, AuditKind } from '../../shared/contract/audit.js';
import type { RuleRef } from '../../shared/contract/state.js';
import { personActing } from '../audit/actor.js';
import { sha256Hex } from '../audit/chain.js';
import type { PipelineCore } from './core.js';
import type { SamplingRecord } from './record.js';

/** What a decision's record names besides its kind: the item's server (and gateway caller) and the details given. */
function detailsOf(rec: SamplingRecord, more: Record<string, AuditJson | undefined>): Record<string, AuditJson> {
  const out: Record<string, AuditJson> = { server: rec.item.serverId };
  if (rec.item.via) out.via = rec.item.via.host; // the agent host it came through
  for (const [k, v] of Object.entries(more)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Records a person's decision about `rec`. `digest`: the SHA-256 of what it let out, or its promise
 * (a big payload's, computed in slices); the record waits for it in its turn.
 */
export function auditPersonDecision(core: PipelineCore, rec: SamplingRecord, kind: AuditKind, more: Record<string, AuditJson | undefined>, digest?: string | Promise<string>): void {
  const audit = core.deps.audit;
  if (!audit) return;
  const input = (sha256?: string) => ({ actor: personActing(), kind, subject: `item:${rec.item.id}`, details: detailsOf(rec, { ...more, sha256 }) });
  audit.record(digest instanceof Promise ? digest.then(input) : input(digest));
}

/** Records a rule's decision about `rec` (`action`: what the rule does). */
export function auditRuleDecision(core: PipelineCore, rec: SamplingRecord, kind: AuditKind, rule: RuleRef, action: string): void {
  core.deps.audit?.record({
    actor: { kind: 'rule', id: rule.ruleId, name: rule.name },
    kind,
    subject: `item:${rec.item.id}`,
    details: detailsOf(rec, { ruleVersion: rule.version, action }),
  });
}

/** A typed reason as it is recorded: its SHA-256 (the words stay in History). */
export const reasonDigest = (reason: string | undefined): string | undefined => (reason ? sha256Hex(reason) : undefined);
