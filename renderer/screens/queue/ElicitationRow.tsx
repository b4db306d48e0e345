/** A row of the queue list for an elicitation (form or URL mode), beside the sampling rows. */
import { useTranslation } from 'react-i18next';
import type { ElicitationSummary } from '../../../shared/contract/state';
import { Pill } from '../../components/common';
import { elicitationAwaiting, elicitationStatus } from './ElicitationModel';
import { rowServerTitle, summaryCallLabel } from './summary';
import { WaitClock, waitClass, useWaitLevel } from './WaitClock';
import { ViaHost } from '../../components/ViaHost';
import { prefetchItem } from '../../store';

/** One elicitation in the queue list: server, kind, status, the message's first line, the call, waited time. */
export function ElicitationRow({ item, selected, onSelect }: { item: ElicitationSummary; selected: boolean; onSelect: () => void }) {
  const { t } = useTranslation('queue');
  const waiting = elicitationAwaiting(item);
  const level = useWaitLevel(item.serverWait, waiting);
  const preview = item.preview || t('list.noMessage');
  const look = elicitationStatus(item.status);
  return (
    <button
      type="button"
      className={`queue-row${selected ? ' is-selected' : ''}${waitClass(level)}`}
      aria-current={selected ? 'true' : undefined}
      data-testid="queue-item"
      data-kind="elicitation"
      data-item-id={item.id}
      data-status={item.status}
      onPointerDown={(e) => e.button === 0 && prefetchItem(item.id)}
      onClick={onSelect}
    >
      <span className="queue-row-top">
        <span className="queue-server" title={rowServerTitle(item.serverId, item.via)}>
          {item.serverId} <ViaHost via={item.via} />
        </span>
        <span className="elicitation-row-badges">
          <span className="badge tone-info">{item.mode === 'url' ? t('list.kindUrl') : t('list.kindForm')}</span>
          <Pill tone={look.tone}>{look.label}</Pill>
        </span>
      </span>
      <span className="queue-preview" title={preview}>
        {preview}
      </span>
      <span className="queue-row-bottom">
        <span className="queue-call" title={summaryCallLabel(item)}>
          {summaryCallLabel(item)}
        </span>
        <span className="queue-waited">
          <WaitClock receivedAt={item.receivedAt} endedAt={item.outcome?.at} wait={item.serverWait} waiting={waiting} testId="queue-wait" />
        </span>
      </span>
    </button>
  );
}
