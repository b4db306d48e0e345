/**
 * One tool loop as one timeline: the requests that share a `conversationId` (the pipeline numbers
 * them with `round`), in round order, each clickable, with the current round highlighted and what
 * the model did in each finished round ("called get_weather, get_time").
 */
import { useTranslation } from 'react-i18next';
import type { SamplingItemView, SamplingSummary } from '../../../shared/contract/state';
import { StatusBadge } from '../../components/common';
import '../../components/review.css';
import { i18n } from '../../i18n';
import { useConsole, useItems } from '../../store';

/** What the model did in a round, from its response (as drafted): the tools it called, or that it answered. */
export function roundSummary(item: SamplingSummary): string | undefined {
  if (item.sizes.response === undefined) return undefined;
  const calls = item.toolCalls ?? [];
  if (calls.length > 0) return i18n.t('queue:timeline.called', { names: calls.join(', ') });
  return item.status === 'delivered' ? i18n.t('queue:timeline.answered') : undefined;
}

/** The rounds of `item`'s conversation; nothing when it is a lone request. */
export function ConversationTimeline({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const items = useItems();
  const selectItem = useConsole((s) => s.selectItem);
  const rounds = items.filter((i): i is SamplingSummary => i.kind === 'sampling' && (i.conversationId ?? i.id) === item.conversationId);
  if (rounds.length <= 1 && item.round <= 1) return null;
  const last = Math.max(item.round, ...rounds.map((r) => r.round));
  const byRound = new Map(rounds.map((r) => [r.round, r]));
  return (
    <nav className="conversation" aria-label={t('timeline.label')} data-testid="conversation-timeline">
      <div className="conversation-title">
        <strong data-testid="round-counter">{t('timeline.counter', { round: item.round })}</strong>{' '}
        <span className="muted">{t('timeline.soFar', { count: last })}</span>
      </div>
      <ol className="timeline">
        {Array.from({ length: last }, (_x, k) => k + 1).map((round) => {
          const step = byRound.get(round);
          const current = round === item.round;
          const summary = step ? roundSummary(step) : undefined;
          return (
            <li key={round} className="timeline-item" data-testid="timeline-step" data-round={round}>
              {round > 1 && <span className="timeline-arrow" aria-hidden="true">→ </span>}
              {step ? (
                <button
                  type="button"
                  className={`timeline-step${current ? ' is-current' : ''}`}
                  aria-current={current ? 'step' : undefined}
                  onClick={() => selectItem(step.id)}
                  title={current ? t('timeline.thisRound') : t('timeline.openRound', { round })}
                >
                  {t('timeline.round', { round })} <StatusBadge status={step.status} />
                  {summary && <span className="muted">{summary}</span>}
                </button>
              ) : (
                <span className="timeline-step muted">{t('timeline.gone', { round })}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
