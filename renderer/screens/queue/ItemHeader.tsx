/**
 * The header of every review screen: server and its protocol era, the client request it belongs
 * to, timing, status, and (for tool loops) the conversation timeline with the round counter.
 */
import { useTranslation } from 'react-i18next';
import type { SamplingItemView } from '../../../shared/state';
import { StatusBadge } from '../../components/common';
import { clockTime } from '../../format';
import { useConsole } from '../../store';
import { ConversationTimeline } from './ConversationTimeline';
import { PolicyNotes } from './PolicyNotes';
import { associationLabel, isTerminal } from './summary';
import { WaitClock } from './WaitClock';

/** Header of the selected item. */
export function ItemHeader({ item, title }: { item: SamplingItemView; title: string }) {
  const { t } = useTranslation('queue');
  const selectServer = useConsole((s) => s.selectServer);
  const setScreen = useConsole((s) => s.setScreen);
  const { calls, exact } = item.association;
  return (
    <header className="item-header" data-testid="item-header">
      <div className="item-header-top">
        <h2>{title}</h2>
        <StatusBadge status={item.status} />
        {item.round > 1 && (
          <span className="badge tone-info" data-testid="item-round">
            {t('header.round', { round: item.round })}
          </span>
        )}
      </div>
      <div className="item-header-facts">
        <span>
          <span className="muted">{t('header.server')} </span>
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
                ? t('header.eraModernTitle')
                : t('header.eraLegacyTitle')
            }
          >
            {' '}
            ({item.era === 'modern' ? t('header.eraModern') : t('header.eraLegacy')})
          </span>
        </span>
        <span data-testid="item-association">
          <span className="muted">{t('header.for')} </span>
          <strong>{associationLabel(item)}</strong>
          {!exact && calls.length > 1 && (
            <span className="muted" title={t('header.unsureTitle')}>
              {' '}
              ({calls.map((c) => `${c.kind} ${c.name}`).join(', ')})
            </span>
          )}
        </span>
        <span>
          <span className="muted">{t('header.received')} </span>
          {clockTime(item.receivedAt)}
        </span>
        <span data-testid="item-waited">
          <span className="muted">{isTerminal(item) ? t('header.took') : t('header.waiting')}{' '}</span>
          <WaitClock receivedAt={item.receivedAt} endedAt={item.outcome?.at ?? item.updatedAt} wait={item.serverWait} waiting={!isTerminal(item)} testId="item-wait" />
        </span>
      </div>
      <PolicyNotes item={item} />
      <ConversationTimeline item={item} />
    </header>
  );
}
