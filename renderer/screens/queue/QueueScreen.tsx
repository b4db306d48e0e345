/** The Queue screen: the list of sampling items and the review screen of the selected one. */
import type { SamplingItemView } from '../../../shared/state';
import { Empty } from '../../components/common';
import { isAwaitingPerson, useConsole, useItems } from '../../store';
import { GeneratingView } from './GeneratingView';
import { OutcomeView } from './OutcomeView';
import { QueueList } from './QueueList';
import { RequestReview } from './RequestReview';
import { ResponseReview } from './ResponseReview';

function Detail({ item }: { item: SamplingItemView }) {
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

/** The Queue screen. */
export function QueueScreen() {
  const items = useItems();
  const selectedId = useConsole((s) => s.selectedItemId);
  const selectItem = useConsole((s) => s.selectItem);
  const selected = items.find((i) => i.id === selectedId);
  const waiting = items.filter(isAwaitingPerson).length;
  return (
    <div className="split" data-testid="queue-screen">
      <div className="split-list">
        <div className="pane-title">
          <h2>Queue</h2>
          <span className="muted small">
            {waiting} waiting · {items.length} total
          </span>
        </div>
        {items.length === 0 ? (
          <Empty>No sampling requests yet. They appear here when a server asks for a completion.</Empty>
        ) : (
          <QueueList items={items} selectedId={selectedId} onSelect={selectItem} />
        )}
      </div>
      <div className="split-detail" data-testid="queue-detail">
        {selected ? (
          // Keyed by id and status so per-screen local state (reject reason) starts fresh.
          <Detail key={`${selected.id}:${selected.status}`} item={selected} />
        ) : (
          <Empty>{items.length ? 'Select a request to review it.' : 'Nothing to review.'}</Empty>
        )}
      </div>
    </div>
  );
}
