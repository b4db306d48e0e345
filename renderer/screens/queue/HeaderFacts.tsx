/**
 * The facts every review header shows, whatever kind of server request it is (sampling or
 * elicitation): the server (a link to it), its protocol era, the client request it belongs to
 * (with the candidates when that is not certain), when it arrived and how long it has waited.
 */
import { useTranslation } from 'react-i18next';
import type { ProtocolEra } from '../../../shared/contract/primitives';
import type { SamplingItemView } from '../../../shared/contract/state';
import type { ServerWait } from '../../../shared/domain/wait';
import { clockTime } from '../../format';
import { useConsole } from '../../store';
import { associationLabel } from './summary';
import { WaitClock } from './WaitClock';

/** The server's id as a button that opens it on the Servers screen. */
export function ServerLink({ serverId, className = 'btn-link strong', testId, title }: { serverId: string; className?: string; testId?: string; title?: string }) {
  const selectServer = useConsole((s) => s.selectServer);
  const setScreen = useConsole((s) => s.setScreen);
  return (
    <button
      type="button"
      className={className}
      data-testid={testId}
      title={title}
      onClick={() => {
        selectServer(serverId);
        setScreen('servers');
      }}
    >
      {serverId}
    </button>
  );
}

/** "(push, 2025-11-25 era)" / "(input_required, 2026-07-28 era)", with what that means as a tooltip. */
export function EraFact({ era }: { era: ProtocolEra }) {
  const { t } = useTranslation('queue');
  return (
    <span className="muted" data-testid="item-era" title={era === 'modern' ? t('header.eraModernTitle') : t('header.eraLegacyTitle')}>
      {' '}
      ({era === 'modern' ? t('header.eraModern') : t('header.eraLegacy')})
    </span>
  );
}

/** "For tools/call x", or "one of N calls" with the candidates when the link is inferred. */
export function AssociationFact({ item }: { item: Pick<SamplingItemView, 'association'> }) {
  const { t } = useTranslation('queue');
  const { calls, exact } = item.association;
  return (
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
  );
}

/** "Received 10:02:03" and "Waiting 12 s" (or "Took 12 s" once it ended). */
export function TimeFacts({ receivedAt, endedAt, wait, waiting }: { receivedAt: number; endedAt?: number; wait?: ServerWait; waiting: boolean }) {
  const { t } = useTranslation('queue');
  return (
    <>
      <span>
        <span className="muted">{t('header.received')} </span>
        {clockTime(receivedAt)}
      </span>
      <span data-testid="item-waited">
        <span className="muted">{waiting ? t('header.waiting') : t('header.took')} </span>
        <WaitClock receivedAt={receivedAt} endedAt={endedAt} wait={wait} waiting={waiting} testId="item-wait" />
      </span>
    </>
  );
}
