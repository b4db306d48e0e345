/**
 * Terminal statuses: how the item ended, what was sent and what was delivered, and Dismiss. When
 * nothing was delivered because the server stopped waiting, the call ended or the console stopped,
 * it says so and shows everything the person typed, copyable, with "Re-open as draft".
 */
import { useMay } from '../../viewer';
import { useTranslation } from 'react-i18next';
import { contentBlocks } from '../../../shared/contract/sampling';
import type { SamplingItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ReadOnlyBlocks } from '../../components/Blocks';
import { ParamsView } from '../../components/ParamsView';
import { ActionBar, ActionError, Banner, Facts, RawJson, Section } from '../../components/common';
import { DraftTexts, NotDeliveredBanner } from '../../components/DraftTexts';
import { FailureHeadline, ProviderFailure } from '../../components/ProviderFailure';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { useConsole, useItems } from '../../store';
import { ReviewFrame } from './ReviewFrame';
import { useSay } from '../../i18n/say';

const OUTCOME = {
  delivered: { tone: 'ok', title: 'outcome.delivered' },
  rejected: { tone: 'warn', title: 'outcome.rejected' },
  cancelled: { tone: 'muted', title: 'outcome.cancelled' },
  timed_out: { tone: 'warn', title: 'outcome.timedOut' },
  failed: { tone: 'error', title: 'outcome.failed' },
} as const;

/**
 * Dismiss: removes the item from the queue and selects the next sampling item (else the previous
 * one, else none).
 */
function useDismiss(item: SamplingItemView) {
  const items = useItems();
  const selectItem = useConsole((s) => s.selectItem);
  return useAction(async () => {
    const sampling = items.filter((i) => i.kind === 'sampling');
    const index = sampling.findIndex((i) => i.id === item.id);
    await getApi().dismissItem({ itemId: item.id });
    const next = sampling[index + 1] ?? sampling[index - 1];
    selectItem(next && next.id !== item.id ? next.id : null);
  });
}

/**
 * The banner saying how the item ended (in the person's language), with the error code sent and
 * when; a provider failure leads with the headline of its kind, as in the review.
 */
function OutcomeBanner({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const say = useSay();
  const known = OUTCOME[item.status as keyof typeof OUTCOME] as (typeof OUTCOME)[keyof typeof OUTCOME] | undefined;
  const look = known ? { tone: known.tone, title: item.gateway && item.status === 'delivered' ? t('outcome.returned') : t(known.title) } : { tone: 'muted' as const, title: item.status };
  const outcome = item.outcome;
  return (
    <Banner tone={look.tone} title={look.title} testId="outcome-banner">
      {item.status === 'failed' && item.error?.failure && <FailureHeadline failure={item.error.failure} />}
      {outcome && say(outcome.ui, outcome.message)}
      {outcome?.code !== undefined && (
        <span data-testid="outcome-code">{t('outcome.errorSent', { code: outcome.code })}</span>
      )}
      {outcome && <span className="muted">{t('header.at', { time: clockTime(outcome.at) })}</span>}
    </Banner>
  );
}

/** What the person typed when nothing was delivered, with "Re-open as draft" for a server's request. */
function UndeliveredDraft({ item, undelivered }: { item: SamplingItemView; undelivered: Parameters<typeof DraftTexts>[0]['draft'] }) {
  const { t } = useTranslation('queue');
  const openItem = useConsole((s) => s.openItem);
  const reopen = useAction(async () => openItem((await getApi().reopenHistoryEntry({ id: item.id })).itemId));
  return (
    <>
      <DraftTexts
        draft={undelivered}
        baseSystemPrompt={(item.sent ?? item.original).systemPrompt ?? ''}
        actions={
          item.origin === 'server' && (
            <button type="button" className="btn-small" data-testid="reopen-draft" title={t('outcome.reopenHint')} disabled={reopen.pending} onClick={() => void reopen.run()}>
              {t('outcome.reopen')}
            </button>
          )
        }
      />
      {reopen.error && <ActionError error={reopen.error} />}
    </>
  );
}

/** The response delivered (or returned to a provider call's caller): its blocks, model, stop reason and raw JSON. */
function DeliveredSection({ item, delivered }: { item: SamplingItemView; delivered: NonNullable<SamplingItemView['response']>['draft'] }) {
  const { t } = useTranslation('queue');
  return (
    <Section title={item.gateway ? t('outcome.whatReturned') : t('outcome.whatDelivered')}>
      <ReadOnlyBlocks blocks={contentBlocks(delivered.content)} />
      <Facts
        rows={[
          [t('response.model'), delivered.model],
          [t('outcome.stopReason'), delivered.stopReason ?? '—'],
        ]}
      />
      <RawJson value={delivered} label={t('outcome.rawDelivered')} />
    </Section>
  );
}

/** The outcome screen of a finished item. */
export function OutcomeView({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const dismiss = useDismiss(item);
  const mayDismiss = useMay('decide', item.serverId);
  const outcome = item.outcome;
  const delivered = item.status === 'delivered' ? item.response?.draft : undefined;
  // Delivered: only what was typed after the review it was typed in had ended (e.g. in another window) is left.
  const undelivered = item.status !== 'delivered' ? item.draft : item.draft?.late && { late: item.draft.late };
  // "Sent to the model" only when a provider was asked: a hand-written response calls no model.
  const requestTitle = item.sentToModelAt !== undefined ? t('outcome.whatSent') : item.sent ? t('outcome.approvedNoModel') : t('outcome.neverSent');
  return (
    <ReviewFrame item={item} title={t('outcome.title')} testId="outcome-view">
      <OutcomeBanner item={item} />
      {outcome?.stopped && <NotDeliveredBanner cause={outcome.stopped} at={outcome.at} kept={undelivered !== undefined} />}
      {item.error && item.status !== 'failed' && (
        <Banner tone="error" title={t('outcome.lastError')}>
          <ProviderFailure failure={item.error.failure} detail={item.error.message} />
        </Banner>
      )}
      <UndeliveredDraft item={item} undelivered={undelivered} />
      <Section title={requestTitle}>
        <ParamsView params={item.sent ?? item.original} />
        {item.sentToModelAt !== undefined && (
          <p className="small muted">
            {t('outcome.model')} <span className="mono">{`${item.model.providerId} — ${item.model.modelId}`}</span>
          </p>
        )}
      </Section>
      {delivered && <DeliveredSection item={item} delivered={delivered} />}
      <RawJson value={item.original} label={item.gateway ? t('request.rawOriginalProviderCall') : t('request.rawOriginal')} />
      <ActionBar>
        <ActionError error={dismiss.error} />
        {mayDismiss && (
          <button type="button" data-testid="dismiss-item" disabled={dismiss.pending} onClick={() => void dismiss.run()}>
            {t('actions.dismiss')}
          </button>
        )}
      </ActionBar>
    </ReviewFrame>
  );
}
