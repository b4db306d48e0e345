/**
 * The header of every review screen: server and its protocol era, the client request it belongs
 * to, timing, status, and (for tool loops) the conversation timeline with the round counter.
 */
import type { SamplingItemView } from '../../../shared/state';
import { StatusBadge } from '../../components/common';
import { clockTime, duration } from '../../format';
import { useNow } from '../../hooks';
import { useConsole } from '../../store';
import { ConversationTimeline } from './ConversationTimeline';
import { associationLabel, isTerminal, waitedMs } from './summary';

/** Header of the selected item. */
export function ItemHeader({ item, title }: { item: SamplingItemView; title: string }) {
  const now = useNow();
  const selectServer = useConsole((s) => s.selectServer);
  const setScreen = useConsole((s) => s.setScreen);
  const { calls, exact } = item.association;
  const waited = duration(waitedMs(item, now));
  return (
    <header className="item-header" data-testid="item-header">
      <div className="item-header-top">
        <h2>{title}</h2>
        <StatusBadge status={item.status} />
        {item.round > 1 && (
          <span className="badge tone-info" data-testid="item-round">
            round {item.round}
          </span>
        )}
      </div>
      <div className="item-header-facts">
        <span>
          <span className="muted">Server </span>
          <button
            type="button"
            className="btn-link strong"
            onClick={() => {
              selectServer(item.serverId);
              setScreen('servers');
            }}
          >
            {item.serverId}
          </button>
          <span
            className="muted"
            data-testid="item-era"
            title={
              item.era === 'modern'
                ? 'Protocol 2026-07-28: the server returned this request from its call (input_required); the console retries the call with the answer'
                : 'Protocol 2025-11-25 or earlier: the server pushed this request while a call of ours was running'
            }
          >
            {' '}
            ({item.era === 'modern' ? 'MRTR, 2026-07-28' : 'push, 2025-11-25 era'})
          </span>
        </span>
        <span data-testid="item-association">
          <span className="muted">For </span>
          <strong>{associationLabel(item)}</strong>
          {!exact && calls.length > 1 && (
            <span className="muted" title="The server did not say which request this belongs to">
              {' '}
              ({calls.map((c) => `${c.kind} ${c.name}`).join(', ')})
            </span>
          )}
        </span>
        <span>
          <span className="muted">Received </span>
          {clockTime(item.receivedAt)}
        </span>
        <span data-testid="item-waited">
          <span className="muted">{isTerminal(item) ? 'Took ' : 'Waiting '}</span>
          {waited}
        </span>
      </div>
      <ConversationTimeline item={item} />
    </header>
  );
}
