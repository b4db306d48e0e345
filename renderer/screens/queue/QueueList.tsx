/** The queue list: every sampling item, virtualised so a thousand items stay smooth. */
import { memo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SamplingSummary } from '../../../shared/contract/state';
import { StatusBadge } from '../../components/common';
import { isTerminal, rowServerTitle, shownPreview, summaryCallLabel } from './summary';
import { WaitClock, waitClass, useWaitLevel } from './WaitClock';
import { isElicitation, type QueueEntry } from './ElicitationModel';
import { ElicitationRow } from './ElicitationRow';
import { distinctPreview } from '../../distinct-preview';
import { i18n } from '../../i18n';
import { ViaHost } from '../../components/ViaHost';
import { RequestedBy } from '../../components/RequestedBy';
import { GatewayBadge, GatewayCaller } from '../../components/GatewayCall';
import { prefetchItem } from '../../store';
import { RowClaim } from './claims';

const ROW_HEIGHT = 74;
/** The extra line of a row whose call had arguments. */
const ARGS_LINE = 16;

/**
 * One row; re-rendered only when its item or selection changes (selecting a row re-rendered every
 * visible row and its wait clock: ~30 ms of a 1,000-item queue's click, `npm run bench`).
 */
const QueueRow = memo(function QueueRow({ item, preview, selected, onSelect }: { item: SamplingSummary; preview: string; selected: boolean; onSelect: (id: string) => void }) {
  const { t } = useTranslation('queue');
  const waiting = !isTerminal(item);
  const level = useWaitLevel(item.serverWait, waiting);
  const args = rowArgs(item);
  return (
    <button
      type="button"
      className={`queue-row${selected ? ' is-selected' : ''}${waitClass(level)}`}
      aria-current={selected ? 'true' : undefined}
      data-testid="queue-item"
      data-item-id={item.id}
      data-status={item.status}
      onPointerDown={(e) => e.button === 0 && prefetchItem(item.id)}
      onClick={() => onSelect(item.id)}
    >
      <span className="queue-row-top">
        <span className="queue-server" title={serverLine(item)}>
          <GatewayCaller gateway={item.gateway} serverId={item.serverId} /> <ViaHost via={item.via} /> <RequestedBy person={item.requestedBy} />
        </span>
        <StatusBadge status={item.status} />
      </span>
      <span className="queue-preview" title={shownPreview(item.preview)} data-testid="queue-preview">
        {preview}
      </span>
      {args && (
        <span className="row-args mono" title={args} data-testid="queue-args">
          {args}
        </span>
      )}
      <span className="queue-row-bottom">
        <span className="queue-call" title={callLine(item)} data-testid="queue-call">
          {item.gateway && (
            <>
              <GatewayBadge gateway={item.gateway} short />{' '}
            </>
          )}
          {item.round > 1 && <span data-testid="queue-round">{t('list.round', { round: item.round })}</span>}
          {rowCallLabel(item)}
        </span>
        {waiting && <RowClaim itemId={item.id} />}
        <span className="queue-waited">
          <WaitClock receivedAt={item.receivedAt} endedAt={item.outcome?.at} wait={item.serverWait} waiting={waiting} testId="queue-wait" />
        </span>
      </span>
    </button>
  );
});

/**
 * The row's "for" line: the call it belongs to as for any sampling item; a provider call that came
 * outside any client request (always so for a named token) says the model it asked for instead.
 */
function rowCallLabel(item: SamplingSummary): string {
  if (item.gateway && !item.call && !item.candidates) return i18n.t('common:gateway.askedForModel', { model: item.gateway.requestedModel });
  return summaryCallLabel(item);
}

/** The row's server line in full (the caller and the host it came through). */
function serverLine(item: SamplingSummary): string {
  const caller = item.gateway?.caller;
  return rowServerTitle(caller?.kind === 'token' ? i18n.t('common:gateway.token', { name: caller.name }) : item.serverId, item.via);
}

/** The row's last line in full (provider call, round and call), for the title of a cut line. */
function callLine(item: SamplingSummary): string {
  const badge = item.gateway ? `${i18n.t(`common:gateway.api.${item.gateway.api}`)} ` : '';
  const round = item.round > 1 ? i18n.t('queue:list.round', { round: item.round }) : '';
  return `${badge}${round}${rowCallLabel(item)}`;
}

/** The arguments of the call a row's request belongs to (one short line), when there is one call. */
function rowArgs(item: QueueEntry): string | undefined {
  return isElicitation(item) ? undefined : item.call?.args;
}

/** The preview text of a sampling entry, or undefined for an elicitation. */
const previewAt = (items: QueueEntry[], index: number): string | undefined => {
  const item = items[index];
  return item && !isElicitation(item) ? shownPreview(item.preview) : undefined;
};

/** A sampling row's preview, showing where it differs from the rows above and below it. */
function rowPreview(items: QueueEntry[], index: number): string {
  return distinctPreview(previewAt(items, index) ?? '', [previewAt(items, index - 1), previewAt(items, index + 1)]);
}

/** The list pane of the queue. */
export function QueueList({
  items,
  selectedId,
  onSelect,
}: {
  items: QueueEntry[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('queue');
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => ROW_HEIGHT + (rowArgs(items[index]!) ? ARGS_LINE : 0),
    overscan: 4,
    getItemKey: (index) => items[index]!.id,
  });
  return (
    <div className="queue-list" ref={scrollRef} data-testid="queue-list" aria-label={t('list.label')} role="list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index]!;
          return (
            <div
              key={row.key}
              role="listitem"
              aria-setsize={items.length}
              aria-posinset={row.index + 1}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: row.size, transform: `translateY(${row.start}px)` }}
            >
              {isElicitation(item) ? (
                <ElicitationRow item={item} selected={item.id === selectedId} onSelect={() => onSelect(item.id)} />
              ) : (
                <QueueRow item={item} preview={rowPreview(items, row.index)} selected={item.id === selectedId} onSelect={onSelect} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
