/**
 * What the audit trail records when the rule book changes (main/audit): which rules were added,
 * removed or changed (with their versions), whose limits and budgets, default actions and
 * elicitation policies changed, the pause switch and redaction — and the SHA-256 of the rule book
 * before and after (its content version, main/requests/version.ts: RFC 8785 JSON), so the record
 * binds to exactly the rules that were put in force. The rules themselves are not copied.
 */
import type { AuditActor, AuditInput, AuditJson } from '../../shared/contract/audit.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import { contentVersion } from '../requests/version.js';

/** How the rule book changed: saved on the Rules screen, imported, paused or resumed, or its file edited by hand. */
export type RulesChangeHow = 'saved' | 'imported' | 'paused' | 'resumed' | 'file_edited';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Rules added, removed and changed, as `server/rule` with versions. */
function ruleChanges(before: RulesFile, after: RulesFile): Record<string, AuditJson> {
  const added: AuditJson[] = [];
  const removed: AuditJson[] = [];
  const changed: AuditJson[] = [];
  const servers = new Set([...Object.keys(before.servers), ...Object.keys(after.servers)]);
  for (const server of [...servers].sort()) {
    const old = new Map((before.servers[server]?.rules ?? []).map((r) => [r.id, r]));
    const now = new Map((after.servers[server]?.rules ?? []).map((r) => [r.id, r]));
    for (const [id, r] of now) {
      const o = old.get(id);
      if (!o) added.push({ server, rule: id, version: r.version });
      else if (!same(o, r)) changed.push({ server, rule: id, from: o.version, version: r.version });
    }
    for (const [id, o] of old) if (!now.has(id)) removed.push({ server, rule: id, version: o.version });
  }
  return { ...(added.length > 0 && { added }), ...(removed.length > 0 && { removed }), ...(changed.length > 0 && { changed }) };
}

/** Servers (and `global`) whose limits and budgets, default action or elicitation policy changed. */
function policyChanges(before: RulesFile, after: RulesFile): Record<string, AuditJson> {
  const limits: string[] = same(before.global, after.global) ? [] : ['global'];
  const defaults: string[] = [];
  const elicitation: string[] = [];
  const servers = new Set([...Object.keys(before.servers), ...Object.keys(after.servers)]);
  for (const server of [...servers].sort()) {
    const b = before.servers[server];
    const a = after.servers[server];
    if (!same(b?.limits, a?.limits)) limits.push(server);
    if (!same(b?.defaultAction, a?.defaultAction)) defaults.push(server);
    if (!same(b?.elicitation, a?.elicitation)) elicitation.push(server);
  }
  return {
    ...(limits.length > 0 && { limits }),
    ...(defaults.length > 0 && { defaultActions: defaults }),
    ...(elicitation.length > 0 && { elicitation }),
    ...(before.paused !== after.paused && { paused: after.paused }),
    ...(!same(before.redaction, after.redaction) && { redaction: true }),
  };
}

/**
 * The record of the rule book going from `before` to `after`, or undefined when the two have the
 * same content (nothing to record).
 */
export function rulesChangeRecord(before: RulesFile, after: RulesFile, how: RulesChangeHow, actor: AuditActor): AuditInput | undefined {
  const previous = contentVersion(before);
  const sha256 = contentVersion(after);
  if (previous === sha256) return undefined;
  return { actor, kind: 'rules.changed', subject: 'rules', details: { how, sha256, previousSha256: previous, ...ruleChanges(before, after), ...policyChanges(before, after) } };
}
