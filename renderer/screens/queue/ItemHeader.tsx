/**
 * The header of every review screen: server and its protocol era, the client request it belongs
 * to, timing, status, and (for tool loops) the conversation timeline with the round counter.
 */
import { useTranslation } from 'react-i18next';
import type { SamplingItemView } from '../../../shared/contract/state';
import { StatusBadge } from '../../components/common';
import { ConversationTimeline } from './ConversationTimeline';
import { AssociationFact, EraFact, ServerLink, TimeFacts } from './HeaderFacts';
import { PolicyNotes } from './PolicyNotes';
import { isTerminal } from './summary';
import { ViaHost } from '../../components/ViaHost';

/** Header of the selected item. */
export function ItemHeader({ item, title }: { item: SamplingItemView; title: string }) {
  const { t } = useTranslation('queue');
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
          <ServerLink serverId={item.serverId} /> <ViaHost via={item.via} />
          <EraFact era={item.era} />
        </span>
        <AssociationFact item={item} />
        <TimeFacts receivedAt={item.receivedAt} endedAt={item.outcome?.at ?? item.updatedAt} wait={item.serverWait} waiting={!isTerminal(item)} />
      </div>
      <PolicyNotes item={item} />
      <ConversationTimeline item={item} />
    </header>
  );
}
