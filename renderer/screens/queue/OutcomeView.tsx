/** Terminal statuses: how the item ended, what was sent and what was delivered, and Dismiss. */
import { contentBlocks } from '../../../shared/sampling';
import type { SamplingItemView } from '../../../shared/state';
import { getApi } from '../../api';
import { ReadOnlyBlocks } from '../../components/Blocks';
import { ParamsView } from '../../components/ParamsView';
import { ActionError, Banner, Facts, RawJson, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { useConsole, useItems } from '../../store';
import { ItemHeader } from './ItemHeader';

const OUTCOME: Record<string, { tone: 'ok' | 'error' | 'warn' | 'muted'; title: string }> = {
  delivered: { tone: 'ok', title: 'Delivered to the server' },
  rejected: { tone: 'warn', title: 'Rejected' },
  cancelled: { tone: 'muted', title: 'Cancelled' },
  timed_out: { tone: 'warn', title: 'Timed out' },
  failed: { tone: 'error', title: 'Failed' },
};

/** The outcome screen of a finished item. */
export function OutcomeView({ item }: { item: SamplingItemView }) {
  const items = useItems();
  const selectItem = useConsole((s) => s.selectItem);
  const dismiss = useAction(async () => {
    const index = items.findIndex((i) => i.id === item.id);
    await getApi().dismissItem({ itemId: item.id });
    const next = items[index + 1] ?? items[index - 1];
    selectItem(next && next.id !== item.id ? next.id : null);
  });
  const look = OUTCOME[item.status] ?? { tone: 'muted' as const, title: item.status };
  const outcome = item.outcome;
  const delivered = item.status === 'delivered' ? item.response?.draft : undefined;
  return (
    <div className="review" data-testid="outcome-view">
      <ItemHeader item={item} title="Finished" />
      <Banner tone={look.tone} title={look.title} testId="outcome-banner">
        {outcome?.message}
        {outcome?.code !== undefined && (
          <span data-testid="outcome-code">
            {' '}
            (error {outcome.code} sent to the server)
          </span>
        )}
        {outcome && <span className="muted"> at {clockTime(outcome.at)}</span>}
      </Banner>
      {item.error && item.status !== 'failed' && <Banner tone="error" title="Last error">{item.error.message}</Banner>}
      <Section title={item.sent ? 'What was sent to the model' : 'The request (never sent to a model)'}>
        <ParamsView params={item.sent ?? item.original} />
        {item.sent && (
          <p className="small muted">
            Model: <span className="mono">{`${item.model.providerId} — ${item.model.modelId}`}</span>
          </p>
        )}
      </Section>
      {delivered && (
        <Section title="What was delivered to the server">
          <ReadOnlyBlocks blocks={contentBlocks(delivered.content)} />
          <Facts
            rows={[
              ['Model', delivered.model],
              ['Stop reason', delivered.stopReason ?? '—'],
            ]}
          />
          <RawJson value={delivered} label="Raw JSON: delivered result" />
        </Section>
      )}
      <RawJson value={item.original} label="Raw JSON: params as the server sent them" />
      <footer className="action-bar">
        <ActionError error={dismiss.error} />
        <button type="button" data-testid="dismiss-item" disabled={dismiss.pending} onClick={() => void dismiss.run()}>
          Dismiss
        </button>
      </footer>
    </div>
  );
}
