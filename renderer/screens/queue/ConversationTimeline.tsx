/**
 * One tool loop as one timeline: the requests that share a `conversationId` (the pipeline numbers
 * them with `round`), in round order, each clickable, with the current round highlighted and what
 * the model did in each finished round ("called get_weather, get_time").
 */
import { contentBlocks } from '../../../shared/sampling';
import type { SamplingItemView } from '../../../shared/state';
import { StatusBadge } from '../../components/common';
import '../../components/review.css';
import { useConsole, useItems } from '../../store';

/** What the model did in a round, from its response: the tools it called, or that it answered. */
export function roundSummary(item: SamplingItemView): string | undefined {
  const result = item.response?.draft;
  if (!result) return undefined;
  const calls = contentBlocks(result.content).flatMap((b) => (b.type === 'tool_use' ? [b.name] : []));
  if (calls.length > 0) return `called ${calls.join(', ')}`;
  return item.status === 'delivered' ? 'answered' : undefined;
}

/** The rounds of `item`'s conversation; nothing when it is a lone request. */
export function ConversationTimeline({ item }: { item: SamplingItemView }) {
  const items = useItems();
  const selectItem = useConsole((s) => s.selectItem);
  const rounds = items.filter((i) => i.conversationId === item.conversationId);
  if (rounds.length <= 1 && item.round <= 1) return null;
  const last = Math.max(item.round, ...rounds.map((r) => r.round));
  const byRound = new Map(rounds.map((r) => [r.round, r]));
  return (
    <nav className="conversation" aria-label="Tool loop conversation" data-testid="conversation-timeline">
      <div className="conversation-title">
        <strong data-testid="round-counter">Round {item.round} of this tool loop</strong>{' '}
        <span className="muted">
          ({last} {last === 1 ? 'round' : 'rounds'} so far, one conversation)
        </span>
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
                  title={current ? 'This round' : `Open round ${round}`}
                >
                  Round {round} <StatusBadge status={step.status} />
                  {summary && <span className="muted">{summary}</span>}
                </button>
              ) : (
                <span className="timeline-step muted">Round {round} (no longer in the queue)</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
