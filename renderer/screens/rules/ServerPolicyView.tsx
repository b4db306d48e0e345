/**
 * One server's policy on the Rules screen: its counters, ordered rules (first match wins; move,
 * enable, edit, delete), default action and limits. Every change saves the whole rules file
 * through `saveRules`; main versions the rules that changed and the mirror shows the result.
 */
import { useState } from 'react';
import {
  DEFAULT_SERVER_LIMITS,
  describeAction,
  serverPolicyOf,
  type Limits,
  type Rule,
  type RuleAction,
  type RulesFile,
  type ServerCounters,
  type ServerPolicy,
} from '../../../shared/rules';
import { Facts, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useRuleDraft, newRuleId } from './rule-draft';

/** Saves a changed copy of the rules file. */
export type SaveFile = (next: RulesFile) => Promise<void>;

const withServer = (file: RulesFile, serverId: string, policy: ServerPolicy): RulesFile => ({ ...file, servers: { ...file.servers, [serverId]: policy } });

function conditionSummary(rule: Rule): string {
  const w = rule.when;
  const parts: string[] = [];
  if (w.toolCall) parts.push(`tool ${w.toolCall}`);
  if (w.maxTokensAtMost !== undefined) parts.push(`maxTokens ≤ ${w.maxTokensAtMost}`);
  if (w.models) parts.push(`model ${w.models.map((m) => m.modelId).join('/')}`);
  if (w.providers) parts.push(`provider ${w.providers.join('/')}`);
  if (w.media) parts.push(w.media.length ? `text+${w.media.join('+')}` : 'text only');
  if (w.tools) parts.push(w.tools.kind === 'none' ? 'no tools' : `tools ⊆ ${w.tools.names.join(', ')}`);
  if (w.systemPrompt) parts.push(`system ${w.systemPrompt.negate ? '!~' : '~'} /${w.systemPrompt.pattern}/`);
  if (w.messageText) parts.push(`text ${w.messageText.negate ? '!~' : '~'} /${w.messageText.pattern}/`);
  if (w.maxCostUsd !== undefined) parts.push(`cost ≤ $${w.maxCostUsd}`);
  if (w.timeWindow) parts.push(`${w.timeWindow.from}–${w.timeWindow.to}`);
  if (w.sensitive) parts.push(w.sensitive === 'absent' ? 'no sensitive data' : 'sensitive data');
  return parts.length ? parts.join(' · ') : 'every request';
}

function LimitsForm({ limits, onSave }: { limits: Limits | undefined; onSave: (l: Limits) => void }) {
  const [v, setV] = useState(() => ({
    requestsPerMinute: String(limits?.requestsPerMinute ?? ''),
    maxWaiting: String(limits?.maxWaiting ?? ''),
    tokensPerDay: String(limits?.tokensPerDay ?? ''),
    spendPerDayUsd: String(limits?.spendPerDayUsd ?? ''),
  }));
  const num = (s: string) => (s.trim() === '' ? undefined : Number(s));
  const next: Limits = {
    requestsPerMinute: num(v.requestsPerMinute),
    maxWaiting: num(v.maxWaiting),
    tokensPerDay: num(v.tokensPerDay),
    spendPerDayUsd: num(v.spendPerDayUsd),
  };
  const field = (key: keyof typeof v, label: string, placeholder: string) => (
    <label>
      {label}
      <input type="number" min={0} data-testid={`limit-${key}`} value={v[key]} placeholder={placeholder} onChange={(e) => setV({ ...v, [key]: e.target.value })} />
    </label>
  );
  return (
    <form
      className="limits-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(Object.fromEntries(Object.entries(next).filter(([, x]) => x !== undefined)) as Limits);
      }}
    >
      {field('requestsPerMinute', 'Requests per minute', `${DEFAULT_SERVER_LIMITS.requestsPerMinute} (default)`)}
      {field('maxWaiting', 'Requests waiting at once', `${DEFAULT_SERVER_LIMITS.maxWaiting} (default)`)}
      {field('tokensPerDay', 'Tokens per day', 'no limit')}
      {field('spendPerDayUsd', 'Spend per day ($)', 'no limit')}
      <button type="submit" data-testid="limits-save">
        Save limits
      </button>
    </form>
  );
}

/** The policy of one server. */
export function ServerPolicyView({ serverId, file, counters, pricesKnown, save }: { serverId: string; file: RulesFile; counters?: ServerCounters; pricesKnown: boolean; save: SaveFile }) {
  const policy = serverPolicyOf(file, serverId);
  const open = useRuleDraft((s) => s.open);
  const put = (p: ServerPolicy) => save(withServer(file, serverId, p));
  const setRules = (rules: Rule[]) => put({ ...policy, rules });
  const move = (i: number, by: number) => {
    const rules = [...policy.rules];
    const [r] = rules.splice(i, 1);
    rules.splice(i + by, 0, r!);
    void setRules(rules);
  };
  const defaults: Array<[string, RuleAction]> = [
    ['ask', { kind: 'ask' }],
    ['approve_request', { kind: 'approve_request' }],
    ['approve_all', { kind: 'approve_all' }],
    ['reject', { kind: 'reject', reason: 'Not allowed for this server' }],
  ];
  return (
    <div className="review" data-testid="server-policy">
      <header className="item-header">
        <div className="item-header-top">
          <h2>{serverId}</h2>
        </div>
        <Facts
          rows={[
            ['Rate limited', <span data-testid="rate-limited-count">{counters?.rateLimited ?? 0}</span>],
            counters?.lastLimited && ['Last refused', `${clockTime(counters.lastLimited.at)}: ${counters.lastLimited.message}`],
            ['Auto-approved', <span data-testid="auto-approved-count">{counters?.autoApproved ?? 0}</span>],
            ['Auto-rejected', counters?.autoRejected ?? 0],
            ['Waiting now', counters?.waiting ?? 0],
            ['Tokens today', counters?.tokensToday ?? 0],
            ['Spend today', !pricesKnown || counters?.spendTodayUsd === null ? 'unknown (no model prices)' : `$${(counters?.spendTodayUsd ?? 0).toFixed(4)}`],
          ]}
        />
      </header>
      <Section
        title={`Rules (${policy.rules.length}) — first match wins`}
        actions={
          <button type="button" className="btn-small" data-testid="rule-new" onClick={() => open({ serverId, rule: { id: newRuleId(), name: 'New rule', when: {}, action: { kind: 'approve_request' } } })}>
            Add rule
          </button>
        }
      >
        {policy.rules.length === 0 ? (
          <p className="muted small">No rules: every request follows the default below.</p>
        ) : (
          <ol className="rule-list" data-testid="rule-list">
            {policy.rules.map((r, i) => (
              <li key={r.id} className={`rule-row${r.enabled ? '' : ' is-disabled'}`} data-testid={`rule-row-${i}`}>
                <div className="rule-row-main">
                  <strong>{r.name}</strong> <span className="badge tone-muted">v{r.version}</span>
                  {!r.enabled && <span className="badge tone-warn">disabled</span>}
                  <div className="small muted">{conditionSummary(r)}</div>
                  <div className="small">→ {describeAction(r.action)}</div>
                </div>
                <div className="rule-row-tools">
                  <button type="button" className="btn-small" aria-label={`Move ${r.name} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </button>
                  <button type="button" className="btn-small" aria-label={`Move ${r.name} down`} disabled={i === policy.rules.length - 1} onClick={() => move(i, 1)}>
                    ↓
                  </button>
                  <button type="button" className="btn-small" onClick={() => void setRules(policy.rules.map((x, j) => (j === i ? { ...x, enabled: !x.enabled } : x)))}>
                    {r.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button type="button" className="btn-small" data-testid={`rule-edit-${i}`} onClick={() => open({ serverId, rule: r, index: i })}>
                    Edit
                  </button>
                  <button type="button" className="btn-small btn-danger" aria-label={`Delete ${r.name}`} onClick={() => void setRules(policy.rules.filter((_, j) => j !== i))}>
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </Section>
      <Section title="When no rule matches">
        <div className="field">
          <label htmlFor="default-action">
            Default action <span className="badge tone-muted">v{policy.defaultVersion}</span>
          </label>
          <select
            id="default-action"
            data-testid="default-action"
            value={policy.defaultAction.kind === 'redact' ? 'ask' : policy.defaultAction.kind}
            onChange={(e) => void put({ ...policy, defaultAction: defaults.find(([k]) => k === e.target.value)![1] })}
          >
            <option value="ask">Ask me (default)</option>
            <option value="approve_request">Auto-approve the request</option>
            <option value="approve_all">Auto-approve request and response</option>
            <option value="reject">Reject</option>
          </select>
        </div>
      </Section>
      <Section title="Limits">
        <LimitsForm key={JSON.stringify(policy.limits ?? {})} limits={policy.limits} onSave={(limits) => void put({ ...policy, limits })} />
      </Section>
    </div>
  );
}
