/** The Queue screen: the list of sampling items and the review screen of the selected one. */
import { useTranslation } from 'react-i18next';
import type { ItemView, SamplingItemView } from '../../../shared/contract/state';
import { Empty } from '../../components/common';
import { needsPerson, useConsole, useItemDetail, useItems } from '../../store';
import { ElicitationReview } from './ElicitationReview';
import { GeneratingView } from './GeneratingView';
import { OutcomeView } from './OutcomeView';
import { QueueList } from './QueueList';
import { RequestReview } from './RequestReview';
import { ResponseReview } from './ResponseReview';
import { useQueueShortcuts } from '../../keyboard/review-actions';

/** The review (or outcome) screen of one sampling item (or provider call), by its status; each sits in the one ReviewFrame. */
export function Detail({ item }: { item: SamplingItemView }) {
  switch (item.status) {
    case 'awaiting_request_review':
      return <RequestReview item={item} />;
    case 'generating':
      return <GeneratingView item={item} />;
    case 'awaiting_response_review':
      return <ResponseReview item={item} />;
    default:
      return <OutcomeView item={item} />;
  }
}

/**
 * The review of a whole item of either kind: one frame (ReviewFrame: the item's header), the body
 * by kind and status; keyed by id and status so per-screen local state (reject reason) starts fresh.
 */
export function ItemReview({ item }: { item: ItemView }) {
  return item.kind === 'elicitation' ? <ElicitationReview key={`${item.id}:${item.status}`} item={item} /> : <Detail key={`${item.id}:${item.status}`} item={item} />;
}

/** The Queue screen. */
export function QueueScreen() {
  const { t } = useTranslation('queue');
  const items = useItems();
  const selectedId = useConsole((s) => s.selectedItemId);
  const selectItem = useConsole((s) => s.selectItem);
  useQueueShortcuts(items.map((i) => i.id), selectedId, selectItem);
  const listed = items.some((i) => i.id === selectedId);
  const selected = useItemDetail(listed ? selectedId : null);
  const waiting = items.filter(needsPerson).length;
  return (
    <div className="split" data-testid="queue-screen">
      <div className="split-list">
        <div className="pane-title">
          <h2>{t('screen.title')}</h2>
          <span className="muted small">{t('screen.counts', { waiting, total: items.length })}</span>
        </div>
        {items.length === 0 ? (
          <Empty>{t('screen.empty')}</Empty>
        ) : (
          <QueueList items={items} selectedId={selectedId} onSelect={selectItem} />
        )}
      </div>
      <div className="split-detail" data-testid="queue-detail">
        {selected ? (
          <ItemReview item={selected} />
        ) : listed ? null : (
          <Empty>{items.length ? t('screen.selectOne') : t('screen.nothingToReview')}</Empty>
        )}
      </div>
    </div>
  );
}
