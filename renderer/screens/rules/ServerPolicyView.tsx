/**
 * One server's policy on the Rules screen: its counters, ordered rules (first match wins; move,
 * enable, edit, delete), default action and limits. Every change saves the whole rules file
 * through `saveRules`; main versions the rules that changed and the mirror shows the result.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SERVER_LIMITS,
  serverPolicyOf,
  type Limits,
  type Rule,
  type RuleAction,
  type RulesFile,
  type ServerCounters,
  type ServerPolicy,
} from '../../../shared/contract/rules';
import { Facts, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useRuleDraft, newRuleId } from './rule-draft';
import { ElicitationPolicySection } from './ElicitationPolicySection';

/** Saves a changed copy of the rules file. */
export type SaveFile = (next: RulesFile) => Promise<void>;

const withServer = (file: RulesFile, serverId: string, policy: ServerPolicy): RulesFile => ({ ...file, servers: { ...file.servers, [serverId]: policy } });

/** The rule's conditions in one line ("tool ask · maxTokens ≤ 50 · no sensitive data"), in the UI language. */
function conditionSummary(rule: Rule, t: TFunction<'rules'>): string {
  const w = rule.when;
  const parts: string[] = [];
  if (w.toolCall) parts.push(t('summary.tool', { name: w.toolCall }));
  if (w.maxTokensAtMost !== undefined) parts.push(t('summary.maxTokens', { n: w.maxTokensAtMost }));
  if (w.models) parts.push(t('summary.model', { models: w.models.map((m) => m.modelId).join('/') }));
  if (w.providers) parts.push(t('summary.provider', { providers: w.providers.join('/') }));
  if (w.media) parts.push(w.media.length ? t('summary.textPlus', { media: w.media.map((m) => t(`summary.${m}`)).join('+') }) : t('summary.textOnly'));
  if (w.tools) parts.push(w.tools.kind === 'none' ? t('summary.noTools') : t('summary.toolsSubset', { names: w.tools.names.join(', ') }));
  if (w.systemPrompt) parts.push(t('summary.system', { op: w.systemPrompt.negate ? '!~' : '~', pattern: w.systemPrompt.pattern }));
  if (w.messageText) parts.push(t('summary.text', { op: w.messageText.negate ? '!~' : '~', pattern: w.messageText.pattern }));
  if (w.maxCostUsd !== undefined) parts.push(t('summary.cost', { usd: w.maxCostUsd }));
  if (w.timeWindow) parts.push(`${w.timeWindow.from}–${w.timeWindow.to}`);
  if (w.sensitive) parts.push(w.sensitive === 'absent' ? t('summary.noSensitive') : t('summary.sensitive'));
  return parts.length ? parts.join(' · ') : t('summary.every');
}

/** What an action does, in the UI language (the words of shared/contract/rules.ts describeAction). */
function actionText(a: RuleAction, t: TFunction<'rules'>): string {
  switch (a.kind) {
    case 'reject':
      return t('action.reject', { reason: a.reason });
    case 'redact':
      return a.then === 'approve_all' ? t('action.redact_all') : t('action.redact_request');
    default:
      return t(`action.${a.kind}`);
  }
}

/** Requests per minute, max waiting, tokens and spend per day (empty = the default, or no limit); Save sends the ones given. */
function LimitsForm({ limits, onSave }: { limits: Limits | undefined; onSave: (l: Limits) => void }) {
  const { t } = useTranslation('rules');
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
    <label key={key}>
      {label}
      <input type="number" min={0} data-testid={`limit-${key}`} value={v[key]} placeholder={placeholder} onChange={(e) => setV({ ...v, [key]: e.target.value })} />
    </label>
  );
  const fields = [
    field('requestsPerMinute', t('limits.requestsPerMinute'), t('limits.defaultValue', { n: DEFAULT_SERVER_LIMITS.requestsPerMinute })),
    field('maxWaiting', t('limits.maxWaiting'), t('limits.defaultValue', { n: DEFAULT_SERVER_LIMITS.maxWaiting })),
    field('tokensPerDay', t('limits.tokensPerDay'), t('limits.noLimit')),
    field('spendPerDayUsd', t('limits.spendPerDay'), t('limits.noLimit')),
  ];
  return (
    <form
      className="limits-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(Object.fromEntries(Object.entries(next).filter(([, x]) => x !== undefined)) as Limits);
      }}
    >
      {fields}
      <button type="submit" data-testid="limits-save">
        {t('limits.save')}
      </button>
    </form>
  );
}

/** The server's name and counters: rate-limited (and the last refusal), auto-approved and -rejected, waiting, tokens and spend today. */
function PolicyHeader({ serverId, counters, pricesKnown }: { serverId: string; counters?: ServerCounters; pricesKnown: boolean }) {
  const { t } = useTranslation('rules');
  return (
    <header className="item-header">
      <div className="item-header-top">
        <h2>{serverId}</h2>
      </div>
      <Facts
        rows={[
          [t('policy.rateLimited'), <span data-testid="rate-limited-count">{counters?.rateLimited ?? 0}</span>],
          counters?.lastLimited && [t('policy.lastRefused'), `${clockTime(counters.lastLimited.at)}: ${counters.lastLimited.message}`],
          [t('policy.autoApproved'), <span data-testid="auto-approved-count">{counters?.autoApproved ?? 0}</span>],
          [t('policy.autoRejected'), counters?.autoRejected ?? 0],
          [t('policy.waiting'), counters?.waiting ?? 0],
          [t('policy.tokensToday'), counters?.tokensToday ?? 0],
          [t('policy.spendToday'), !pricesKnown || counters?.spendTodayUsd === null ? t('policy.spendUnknown') : counters?.unpricedTokensToday ? t('dailyTotals.withUnpriced', { spend: `$${(counters.spendTodayUsd ?? 0).toFixed(4)}`, tokens: counters.unpricedTokensToday }) : `$${(counters?.spendTodayUsd ?? 0).toFixed(4)}`],
          [t('dailyTotals.day'), <span title={t('dailyTotals.dayTitle')}>{counters?.day ?? new Date().toISOString().slice(0, 10)}</span>],
        ]}
      />
    </header>
  );
}

/** What a rule's row can do to the list: move it, enable or disable it, edit it, delete it. */
interface RuleRowActions {
  move: (by: number) => void;
  toggle: () => void;
  edit: () => void;
  remove: () => void;
}

/** One rule: name, version, disabled, conditions and action, and its tools (move up/down, enable, edit, delete). */
function RuleRow({ rule: r, index: i, count, actions }: { rule: Rule; index: number; count: number; actions: RuleRowActions }) {
  const { t } = useTranslation('rules');
  return (
    <li className={`rule-row${r.enabled ? '' : ' is-disabled'}`} data-testid={`rule-row-${i}`}>
      <div className="rule-row-main">
        <strong>{r.name}</strong> <span className="badge tone-muted">{t('policy.version', { version: r.version })}</span>
        {!r.enabled && <span className="badge tone-warn">{t('policy.disabled')}</span>}
        <div className="small muted">{conditionSummary(r, t)}</div>
        <div className="small">→ {actionText(r.action, t)}</div>
      </div>
      <div className="rule-row-tools">
        <button type="button" className="btn-small" aria-label={t('policy.moveUp', { name: r.name })} disabled={i === 0} onClick={() => actions.move(-1)}>
          ↑
        </button>
        <button type="button" className="btn-small" aria-label={t('policy.moveDown', { name: r.name })} disabled={i === count - 1} onClick={() => actions.move(1)}>
          ↓
        </button>
        <button type="button" className="btn-small" onClick={actions.toggle}>
          {r.enabled ? t('policy.disable') : t('policy.enable')}
        </button>
        <button type="button" className="btn-small" data-testid={`rule-edit-${i}`} onClick={actions.edit}>
          {t('policy.edit')}
        </button>
        <button type="button" className="btn-small btn-danger" aria-label={t('policy.deleteAria', { name: r.name })} onClick={actions.remove}>
          {t('policy.delete')}
        </button>
      </div>
    </li>
  );
}

/** The ordered rules with Add rule; each change saves the server's rules through `setRules`. */
function RulesSection({ serverId, rules, setRules }: { serverId: string; rules: Rule[]; setRules: (rules: Rule[]) => Promise<void> }) {
  const { t } = useTranslation('rules');
  const open = useRuleDraft((s) => s.open);
  const move = (i: number, by: number) => {
    const next = [...rules];
    const [r] = next.splice(i, 1);
    next.splice(i + by, 0, r!);
    void setRules(next);
  };
  const actionsOf = (r: Rule, i: number): RuleRowActions => ({
    move: (by) => move(i, by),
    toggle: () => void setRules(rules.map((x, j) => (j === i ? { ...x, enabled: !x.enabled } : x))),
    edit: () => open({ serverId, rule: r, index: i }),
    remove: () => void setRules(rules.filter((_, j) => j !== i)),
  });
  return (
    <Section
      title={t('policy.rulesTitle', { n: rules.length })}
      actions={
        <button type="button" className="btn-small" data-testid="rule-new" onClick={() => open({ serverId, rule: { id: newRuleId(), name: t('policy.newRuleName'), when: {}, action: { kind: 'approve_request' } } })}>
          {t('policy.addRule')}
        </button>
      }
    >
      {rules.length === 0 ? (
        <p className="muted small">{t('policy.noRules')}</p>
      ) : (
        <ol className="rule-list" data-testid="rule-list">
          {rules.map((r, i) => (
            <RuleRow key={r.id} rule={r} index={i} count={rules.length} actions={actionsOf(r, i)} />
          ))}
        </ol>
      )}
    </Section>
  );
}

/** The action when no rule matches (a redacting default shows as Ask), with its version. */
function DefaultActionSection({ policy, onChange }: { policy: ServerPolicy; onChange: (action: RuleAction) => void }) {
  const { t } = useTranslation('rules');
  const defaults: Array<[string, RuleAction]> = [
    ['ask', { kind: 'ask' }],
    ['approve_request', { kind: 'approve_request' }],
    ['approve_all', { kind: 'approve_all' }],
    ['reject', { kind: 'reject', reason: t('policy.defaultRejectReason') }],
  ];
  return (
    <Section title={t('policy.noMatchTitle')}>
      <div className="field">
        <label htmlFor="default-action">
          {t('policy.defaultAction')} <span className="badge tone-muted">{t('policy.version', { version: policy.defaultVersion })}</span>
        </label>
        <select
          id="default-action"
          data-testid="default-action"
          value={policy.defaultAction.kind === 'redact' ? 'ask' : policy.defaultAction.kind}
          onChange={(e) => onChange(defaults.find(([k]) => k === e.target.value)![1])}
        >
          <option value="ask">{t('policy.defaultAsk')}</option>
          <option value="approve_request">{t('policy.defaultApproveRequest')}</option>
          <option value="approve_all">{t('policy.defaultApproveAll')}</option>
          <option value="reject">{t('policy.defaultReject')}</option>
        </select>
      </div>
    </Section>
  );
}

/** The policy of one server. */
export function ServerPolicyView({ serverId, file, counters, pricesKnown, save }: { serverId: string; file: RulesFile; counters?: ServerCounters; pricesKnown: boolean; save: SaveFile }) {
  const { t } = useTranslation('rules');
  const policy = serverPolicyOf(file, serverId);
  const put = (p: ServerPolicy) => save(withServer(file, serverId, p));
  return (
    <div className="review" data-testid="server-policy">
      <PolicyHeader serverId={serverId} counters={counters} pricesKnown={pricesKnown} />
      <RulesSection serverId={serverId} rules={policy.rules} setRules={(rules) => put({ ...policy, rules })} />
      <DefaultActionSection policy={policy} onChange={(defaultAction) => void put({ ...policy, defaultAction })} />
      <ElicitationPolicySection policy={policy} declined={counters?.elicitationDeclined ?? 0} onChange={(action) => void put({ ...policy, elicitation: { action, version: policy.elicitation?.version ?? 1 } })} />
      <Section title={t('policy.limits')}>
        <LimitsForm key={JSON.stringify(policy.limits ?? {})} limits={policy.limits} onSave={(limits) => void put({ ...policy, limits })} />
      </Section>
    </div>
  );
}
