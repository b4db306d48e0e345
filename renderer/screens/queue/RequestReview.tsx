/**
 * REQUEST review (`awaiting_request_review`): the person sees exactly what the server asks the
 * model, may edit the messages (text; remove images and audio), system prompt, limits, model, the
 * tools offered and the tool choice, then approves or rejects.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contentBlocks } from '../../../shared/contract/sampling';
import type { SamplingItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { MessageBlocks } from '../../components/Blocks';
import { Banner, RawJson, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { useConsole, useProviders, type RequestDraft } from '../../store';
import { baseParams, buildRequest, initialRequestDraft, requestEdited } from './drafts';
import { NO_REQUEST_EXTRAS, withEdit, type RequestExtras } from './edits';
import { flushDraft } from './autosave';
import { ReviewFrame } from './ReviewFrame';
import { DraftProblems, ReviewActionBar } from './ReviewActionBar';
import { RequestParams } from './RequestParams';
import { ToolsOffered } from './ToolsOffered';
import { RedactionPanel } from '../../components/RedactionPanel';
import { AllowLikeThis } from '../rules/AllowLikeThis';
import { useRequestShortcuts } from '../../keyboard/review-shortcuts';
import { ProviderFailure } from '../../components/ProviderFailure';

/** The request review screen of one item. */
export function RequestReview({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const providers = useProviders();
  const stored = useConsole((s) => s.drafts[item.id]?.request);
  const setDraft = useConsole((s) => s.setRequestDraft);
  const initial = useMemo(() => initialRequestDraft(item), [item]);
  // What main kept (e.g. after a reload) until the person types here.
  const draft = stored ?? item.draft?.request?.draft ?? initial;
  const update = (patch: Partial<RequestDraft>) => setDraft(item.id, { ...draft, ...patch });
  const [reason, setReason] = useState('');
  const extras = useConsole((s) => s.drafts[item.id]?.requestExtras) ?? item.draft?.request?.extras ?? NO_REQUEST_EXTRAS;
  const setExtras = useConsole((s) => s.setRequestExtras);
  const updateExtras = (next: RequestExtras) => setExtras(item.id, next);
  const params = baseParams(item);
  // Building (and validating) the draft takes ~10 ms for a megabyte prompt: once per change of
  // the draft, in a deferred render, so a keystroke paints first. Approve builds from the latest
  // draft itself, so what is approved never lags what was typed.
  const settled = useDeferredValue(draft);
  const built = useMemo(() => buildRequest(item, settled, extras), [item, settled, extras]);
  const edited = useMemo(() => requestEdited(item, settled, extras, built), [item, settled, extras, built]);

  const approve = useAction(async () => {
    const mine = useConsole.getState().drafts[item.id];
    const latest = buildRequest(item, mine?.request ?? item.draft?.request?.draft ?? initial, mine?.requestExtras ?? item.draft?.request?.extras ?? NO_REQUEST_EXTRAS);
    if (!latest.ok) return;
    flushDraft(item.id);
    await getApi().approveRequest({ itemId: item.id, params: latest.params, model: latest.model });
  });
  const reject = useAction(async () => {
    flushDraft(item.id);
    await getApi().rejectRequest({ itemId: item.id, reason: reason.trim() || undefined });
  });

  const setText = (key: string, text: string | undefined) => update({ texts: withEdit(draft.texts, key, text) });
  const toggle = (key: string) => update({ editing: { ...draft.editing, [key]: !draft.editing[key] } });
  const busy = approve.pending || reject.pending;
  const keys = useRequestShortcuts(item, { approve: () => void approve.run(), reject: () => void reject.run(), canApprove: built.ok, busy });

  return (
    <ReviewFrame item={item} title={t('request.title')} testId="request-review">
      <AllowLikeThis item={item} />
      {item.error && (
        <Banner tone="error" title={t('request.lastFailed')} testId="item-error">
          <ProviderFailure failure={item.error.failure} detail={item.error.message} />
          {item.error.code !== undefined && <span className="mono">{t('request.code', { code: item.error.code })}</span>}
          <span className="muted">{t('header.at', { time: clockTime(item.error.at) })}</span>{' '}
          <button type="button" className="btn-small" data-testid="retry-generation" disabled={busy || !built.ok} onClick={() => void approve.run()}>
            {t('actions.retry')}
          </button>
        </Banner>
      )}
      {item.sent && !item.policy?.notes.some((n) => n.kind === 'redacted') && <p className="small muted">{item.gateway ? t('request.showingApprovedProviderCall') : t('request.showingApproved')}</p>}
      <Section title={t('request.messages', { count: params.messages.length })}>
        <ol className="messages">
          {params.messages.map((m, i) => (
            <li key={i} className={`message role-${m.role}`} data-testid={`message-${i}`}>
              <div className="message-role">{m.role === 'user' ? t('request.user') : t('request.assistant')}</div>
              <div className="message-body">
                <MessageBlocks
                  blocks={contentBlocks(m.content)}
                  message={i}
                  texts={draft.texts}
                  editing={draft.editing}
                  onText={setText}
                  onToggle={toggle}
                  labelPrefix={t('request.messageLabel', { n: i + 1, role: t(`request.${m.role}`) })}
                  scope={`req-${item.id}`}
                  removed={extras.removedBlocks}
                  onToggleRemove={(key) => updateExtras({ ...extras, removedBlocks: { ...extras.removedBlocks, [key]: !extras.removedBlocks[key] } })}
                />
              </div>
            </li>
          ))}
        </ol>
      </Section>
      {params.tools && params.tools.length > 0 && (
        <ToolsOffered tools={params.tools} toolChoice={params.toolChoice} extras={extras} onChange={updateExtras} />
      )}
      <Section title={t('request.parameters')}>
        <RequestParams params={params} draft={draft} choice={item.model} candidates={item.candidates} serverId={item.serverId} providerCall={!!item.gateway} providers={providers} onChange={update} />
      </Section>
      <RedactionPanel item={item} params={params} draft={draft} onChange={update} />
      <RawJson value={item.original} label={item.gateway ? t('request.rawOriginalProviderCall') : t('request.rawOriginal')} testId="raw-original" />
      {!built.ok && <DraftProblems title={t('request.cannotApprove')} errors={built.errors} testId="request-invalid" />}
      <ReviewActionBar
        stage="request"
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
