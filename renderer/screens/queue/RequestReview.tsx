/**
 * REQUEST review (`awaiting_request_review`): the person sees exactly what the server asks the
 * model, may edit the messages (text; remove images and audio), system prompt, limits, model, the
 * tools offered and the tool choice, then approves or rejects. An embeddings call through the
 * gateway shows only what applies to it: its input texts (editable) and the model.
 */
import { useTranslation } from 'react-i18next';
import { contentBlocks } from '../../../shared/contract/sampling';
import type { SamplingItemView } from '../../../shared/contract/state';
import { MessageBlocks } from '../../components/Blocks';
import { Banner, RawJson, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useProviders } from '../../store';
import { baseParams } from './drafts';
import { ReviewFrame } from './ReviewFrame';
import { DraftProblems, ReviewActionBar } from './ReviewActionBar';
import { RequestParams } from './RequestParams';
import { ToolsOffered } from './ToolsOffered';
import { RedactionPanel } from '../../components/RedactionPanel';
import { AllowLikeThis } from '../rules/AllowLikeThis';
import { ProviderFailure } from '../../components/ProviderFailure';
import { useRequestReview, type RequestReviewState } from './useRequestReview';

/** The request review screen of one item. */
export function RequestReview({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const providers = useProviders();
  const review = useRequestReview(item);
  const { draft, extras, update, updateExtras, reason, setReason, built, edited, approve, reject, busy, keys } = review;
  const params = baseParams(item);
  const embeddings = !!item.gateway?.embeddings;

  return (
    <ReviewFrame item={item} title={t('request.title')} testId="request-review">
      <AllowLikeThis item={item} />
      {item.error && <LastFailure error={item.error} disabled={busy || !built.ok} onRetry={() => void approve.run()} />}
      {item.sent && !item.policy?.notes.some((n) => n.kind === 'redacted') && <p className="small muted">{item.gateway ? t('request.showingApprovedProviderCall') : t('request.showingApproved')}</p>}
      <Section title={t(embeddings ? 'request.textsToEmbed' : 'request.messages', { count: params.messages.length })}>
        <RequestMessages item={item} messages={params.messages} review={review} embeddings={embeddings} />
      </Section>
      {params.tools && params.tools.length > 0 && (
        <ToolsOffered tools={params.tools} toolChoice={params.toolChoice} extras={extras} onChange={updateExtras} />
      )}
      <Section title={t(embeddings ? 'request.embeddingModel' : 'request.parameters')}>
        <RequestParams params={params} draft={draft} choice={item.model} candidates={item.candidates} serverId={item.serverId} providerCall={!!item.gateway} embeddings={embeddings} providers={providers} onChange={update} />
      </Section>
      <RedactionPanel item={item} params={params} draft={draft} onChange={update} />
      <RawJson value={item.original} label={item.gateway ? t('request.rawOriginalProviderCall') : t('request.rawOriginal')} testId="raw-original" />
      {!built.ok && <DraftProblems title={t('request.cannotApprove')} errors={built.errors} testId="request-invalid" />}
      <ReviewActionBar
        stage="request"
        serverId={item.serverId}
        error={approve.error ?? reject.error}
        reason={reason}
        onReason={setReason}
        keys={keys}
        busy={busy}
        canApprove={built.ok}
        onReject={() => void reject.run()}
        onApprove={() => void approve.run()}
        approveLabel={edited ? t('actions.approveWithEdits') : t('actions.approve')}
      />
    </ReviewFrame>
  );
}

/** The banner of the item's last failed generation, with a button to retry it. */
function LastFailure({ error, disabled, onRetry }: { error: NonNullable<SamplingItemView['error']>; disabled: boolean; onRetry: () => void }) {
  const { t } = useTranslation('queue');
  return (
    <Banner tone="error" title={t('request.lastFailed')} testId="item-error">
      <ProviderFailure failure={error.failure} detail={error.message} />
      {error.code !== undefined && <span className="mono">{t('request.code', { code: error.code })}</span>}
      <span className="muted">{t('header.at', { time: clockTime(error.at) })}</span>{' '}
      <button type="button" className="btn-small" data-testid="retry-generation" disabled={disabled} onClick={onRetry}>
        {t('actions.retry')}
      </button>
    </Banner>
  );
}

/**
 * The request's messages, each with its blocks editable (text) or removable (images, audio); an
 * embeddings call's are its input texts, numbered ("Text 2"), not turns of a conversation.
 */
function RequestMessages({ item, messages, review, embeddings }: { item: SamplingItemView; messages: ReturnType<typeof baseParams>['messages']; review: RequestReviewState; embeddings: boolean }) {
  const { t } = useTranslation('queue');
  const { draft, extras, setText, toggle, updateExtras } = review;
  return (
    <ol className="messages">
      {messages.map((m, i) => (
        <li key={i} className={`message role-${m.role}`} data-testid={`message-${i}`}>
          <div className="message-role">{embeddings ? t('request.textN', { n: i + 1 }) : m.role === 'user' ? t('request.user') : t('request.assistant')}</div>
          <div className="message-body">
            <MessageBlocks
              blocks={contentBlocks(m.content)}
              message={i}
              texts={draft.texts}
              editing={draft.editing}
              onText={setText}
              onToggle={toggle}
              labelPrefix={embeddings ? t('request.textN', { n: i + 1 }) : t('request.messageLabel', { n: i + 1, role: t(`request.${m.role}`) })}
              scope={`req-${item.id}`}
              removed={extras.removedBlocks}
              onToggleRemove={(key) => updateExtras({ ...extras, removedBlocks: { ...extras.removedBlocks, [key]: !extras.removedBlocks[key] } })}
            />
          </div>
        </li>
      ))}
    </ol>
  );
}
