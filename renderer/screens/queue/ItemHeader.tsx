/**
 * The headers of the review screens (one per kind, chosen by ReviewFrame): server and its protocol
 * era, the client request it belongs to, timing, status, and (for tool loops) the conversation
 * timeline with the round counter. A
 * provider call through the gateway says so (a badge naming the API), names its caller (a server,
 * or a named token with no server nor client request behind it) and its request's facts.
 */
import { useTranslation } from 'react-i18next';
import type { ElicitationItemView, ItemStatus, SamplingItemView } from '../../../shared/contract/state';
import { Pill, StatusBadge } from '../../components/common';
import { elicitationStatus } from './ElicitationModel';
import { ConversationTimeline } from './ConversationTimeline';
import { AssociationFact, EraFact, ServerLink, TimeFacts } from './HeaderFacts';
import { PolicyNotes } from './PolicyNotes';
import { isTerminal } from './summary';
import { ViaHost } from '../../components/ViaHost';
import { RequestedBy } from '../../components/RequestedBy';
import { GatewayBadge, GatewayCaller, GatewayNotes, isTokenCall } from '../../components/GatewayCall';

/**
 * "Server everything (push, 2025-11-25 era)"; for a provider call the protocol era is left out (it
 * says how a sampling request arrived), and a named token's call reads "Caller token ci-script".
 */
function CallerFact({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation(['queue', 'common']);
  if (isTokenCall(item.gateway)) {
    return (
      <span>
        <span className="muted">{t('common:gateway.caller')} </span>
        <strong>
          <GatewayCaller gateway={item.gateway} serverId={item.serverId} />
        </strong>
      </span>
    );
  }
  return (
    <span>
      <span className="muted">{t('header.server')} </span>
      <ServerLink serverId={item.serverId} /> <ViaHost via={item.via} /> <RequestedBy person={item.requestedBy} />
      {!item.gateway && <EraFact era={item.era} />}
    </span>
  );
}

/** A held review's end, for its header: when (epoch ms) and the item's status now (absent: it left the queue). */
export interface HeaderEnd {
  at: number;
  status?: ItemStatus;
}

/** Header of the selected item; `ended`: its review ended under the person (the clock stops, the badge says how it is now). */
export function ItemHeader({ item, title, ended }: { item: SamplingItemView; title: string; ended?: HeaderEnd }) {
  const { t } = useTranslation('queue');
  return (
    <header className="item-header" data-testid="item-header">
      <div className="item-header-top">
        <h2>{title}</h2>
        <StatusBadge status={ended?.status ?? item.status} />
        <GatewayBadge gateway={item.gateway} />
        {item.round > 1 && (
          <span className="badge tone-info" data-testid="item-round">
            {t('header.round', { round: item.round })}
          </span>
        )}
      </div>
      <div className="item-header-facts">
        <CallerFact item={item} />
        {!isTokenCall(item.gateway) && <AssociationFact item={item} />}
        <GatewayNotes gateway={item.gateway} />
        <TimeFacts receivedAt={item.receivedAt} endedAt={ended?.at ?? item.outcome?.at ?? item.updatedAt} wait={item.serverWait} waiting={!ended && !isTerminal(item)} />
      </div>
      <PolicyNotes item={item} />
      <ConversationTimeline item={item} />
    </header>
  );
}

/** Header of an elicitation: which server asks (via which host), for what, its status, the call it belongs to, times; `ended` as for {@link ItemHeader}. */
export function ElicitationHeader({ item, ended }: { item: ElicitationItemView; ended?: HeaderEnd }) {
  const { t } = useTranslation('queue');
  const look = elicitationStatus((ended?.status as ElicitationItemView['status'] | undefined) ?? item.status);
  return (
    <header className="item-header" data-testid="item-header">
      <div className="item-header-top">
        <h2>
          <ServerLink serverId={item.serverId} className="btn-link strong elicitation-asker" testId="elicitation-server" title={t('elicitation.openServer')} /> <ViaHost via={item.via} />{' '}
          {item.params.mode === 'url' ? t('elicitation.asksOpen') : t('elicitation.asksInfo')}
        </h2>
        <Pill tone={look.tone} testId="elicitation-status">
          {look.label}
        </Pill>
      </div>
      <div className="item-header-facts">
        <span>
          <AssociationFact item={item} />
          <EraFact era={item.era} />
        </span>
        <TimeFacts receivedAt={item.receivedAt} endedAt={ended?.at ?? item.outcome?.at} wait={item.serverWait} waiting={!ended && item.status === 'awaiting_input'} />
      </div>
    </header>
  );
}
