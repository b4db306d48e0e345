/**
 * What the policy said about a sampling request, under the review header: why
 * auto-approval was held back (paused, a rule that always asks, a budget, an unknown price, a
 * hand-written model), what was auto-redacted before review, and the estimate (tokens and USD at
 * the chosen model's price) the cost condition and the spend limit used. Words come from the
 * `queue` namespace (`policy.*`); the facts from main (`item.policy`).
 */
import { useTranslation } from 'react-i18next';
import type { PolicyNote } from '../../../shared/contract/rules';
import type { SamplingItemView } from '../../../shared/contract/state';
import { formatNumber } from '../../format';
import './policy-notes.css';

/** "$0.0123" (small amounts keep four decimals). */
const usd = (n: number): string => formatNumber(n, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: n < 1 ? 4 : 2 });

function NoteText({ note }: { note: PolicyNote }) {
  const { t } = useTranslation('queue');
  const rule = { rule: note.rule.name, version: note.rule.version };
  switch (note.kind) {
    case 'paused':
      return <>{t('policy.paused', rule)}</>;
    case 'ask_rule':
      return <>{t('policy.askRule', rule)}</>;
    case 'redacted':
      return <>{t('policy.redacted', { ...rule, count: note.count })}</>;
    case 'budget': {
      const all = note.scope === 'console';
      return note.limit === 'tokens' ? (
        <>{t(all ? 'policy.budgetTokensAll' : 'policy.budgetTokens', { ...rule, used: formatNumber(note.used), estimate: formatNumber(note.estimate), max: formatNumber(note.max) })}</>
      ) : (
        <>{t(all ? 'policy.budgetSpendAll' : 'policy.budgetSpend', { ...rule, used: usd(note.used), estimate: usd(note.estimate), max: usd(note.max) })}</>
      );
    }
    case 'no_price':
      return note.scope === 'console' ? <>{t('policy.noPriceAll', { ...rule, max: usd(note.max) })}</> : <>{t('policy.noPrice', { ...rule, server: note.rule.serverId, max: usd(note.max) })}</>;
    case 'manual_model':
      return <>{t('policy.manualModel', rule)}</>;
  }
}

/** The notes and estimate of `item.policy`; nothing when the policy said nothing. */
export function PolicyNotes({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const p = item.policy;
  if (!p) return null;
  return (
    <div className="policy-notes" data-testid="policy-notes">
      {p.notes.map((n, i) => (
        <div key={i} className={`banner tone-${n.kind === 'ask_rule' ? 'info' : 'warn'}`} role="status" data-testid={`policy-note-${n.kind}`}>
          <NoteText note={n} />
        </div>
      ))}
      <div className="small muted" data-testid="policy-estimate" title={t('policy.estimateTitle')}>
        {p.estimatedCostUsd === undefined
          ? t('policy.estimate', { tokens: formatNumber(p.estimatedTokens) })
          : t('policy.estimateCost', { tokens: formatNumber(p.estimatedTokens), cost: usd(p.estimatedCostUsd) })}
      </div>
    </div>
  );
}
