/**
 * RESPONSE review (`awaiting_response_review`): the generated response (text editable; each
 * tool_use input editable as JSON) or a textarea to write it by hand (plus tool calls from the
 * offered tools), its model, stop reason and usage; approve & send, reject or regenerate.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contentBlocks, contentText } from '../../../shared/contract/sampling';
import type { ResponseView, SamplingItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { withItemMedia } from '../../item-media';
import { EditableText } from '../../components/Blocks';
import { Banner, Facts, RawJson, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { useConsole, type ResponseDraft } from '../../store';
import { blockKey, buildResult, initialResponseDraft, isAllText, MANUAL_KEY, type BuiltResult } from './drafts';
import { NO_RESPONSE_EXTRAS, withEdit, type ResponseExtras } from './edits';
import { flushDraft } from './autosave';
import { ReviewFrame } from './ReviewFrame';
import { DraftProblems, ReviewActionBar } from './ReviewActionBar';
import { PromptToolNotice } from '../providers/PromptToolNotice';
import { ManualToolCalls, ResponseBlocks } from './ToolCallEditors';
import { useResponseShortcuts } from '../../keyboard/review-shortcuts';
import { ProviderFailure } from '../../components/ProviderFailure';
import { decideHere, useDecisionsOff } from './review-hold';

/** The item's response draft and other edits (tool inputs, added tool calls), and their setters. */
function useResponseEdits(item: SamplingItemView) {
  const stored = useConsole((s) => s.drafts[item.id]?.response);
  const setDraft = useConsole((s) => s.setResponseDraft);
  // What main kept (e.g. after a reload) until the person types here.
  const draft = stored ?? item.draft?.response?.draft ?? initialResponseDraft();
  const update = (patch: Partial<ResponseDraft>) => setDraft(item.id, { ...draft, ...patch });
  const extras = useConsole((s) => s.drafts[item.id]?.responseExtras) ?? item.draft?.response?.extras ?? NO_RESPONSE_EXTRAS;
  const setExtras = useConsole((s) => s.setResponseExtras);
  const updateExtras = (next: ResponseExtras) => setExtras(item.id, next);
  const setText = (key: string, text: string | undefined) => update({ texts: withEdit(draft.texts, key, text) });
  const toggle = (key: string) => update({ editing: { ...draft.editing, [key]: !draft.editing[key] } });
  const setToolInput = (id: string, text: string | undefined) => updateExtras({ ...extras, toolInputs: withEdit(extras.toolInputs, id, text) });
  return { draft, extras, updateExtras, setText, toggle, setToolInput };
}

/** The response draft and its setters, as {@link useResponseEdits} returns them. */
type ResponseEdits = ReturnType<typeof useResponseEdits>;

/** Approve & send, reject (with the reason typed) and regenerate, and their keyboard shortcuts. */
function useResponseActions(item: SamplingItemView, built: BuiltResult) {
  const [reason, setReason] = useState('');
  const response = item.response;
  // A decision names the version of the response shown here; main refuses it about any other.
  const version = item.contentVersion;
  const off = useDecisionsOff() || !version;
  const approve = useAction(async () => {
    if (!built.ok || !version) return;
    flushDraft(item.id);
    const result = await withItemMedia(item.id, built.result);
    await decideHere(item, () => getApi().approveResponse({ itemId: item.id, version, result }));
  });
  // Main gets the latest typed text before the action (requests arrive in order).
  const reject = useAction(async () => {
    if (!version) return;
    flushDraft(item.id);
    await decideHere(item, () => getApi().rejectResponse({ itemId: item.id, version, reason: reason.trim() || undefined }));
  });
  const regenerate = useAction(async () => {
    if (!version) return;
    flushDraft(item.id);
    await decideHere(item, () => getApi().regenerate({ itemId: item.id, version }));
  });
  const busy = approve.pending || reject.pending || regenerate.pending || off;
  const keys = useResponseShortcuts(item, {
    approve: () => void approve.run(),
    reject: () => void reject.run(),
    regenerate: response && !response.manual ? () => void regenerate.run() : undefined,
    canApprove: built.ok,
    busy,
  });
  return { reason, setReason, approve, reject, regenerate, busy, keys, error: approve.error ?? reject.error ?? regenerate.error };
}

/** The textarea to write the response by hand (no model was called). */
function ManualResponse({ item, toolsOffered, edits }: { item: SamplingItemView; toolsOffered: boolean; edits: ResponseEdits }) {
  const { t } = useTranslation('queue');
  return (
    <Section title={t('response.writeMyself')}>
      <p className="small muted">{item.gateway ? t('response.noModelCalledProviderCall') : t('response.noModelCalled')}</p>
      <textarea
        className="editor tall"
        aria-label={t('response.text')}
        data-testid="response-editor"
        value={edits.draft.texts[MANUAL_KEY] ?? ''}
        placeholder={toolsOffered ? t('response.typeWithTools') : t('response.type')}
        onChange={(e) => edits.setText(MANUAL_KEY, e.target.value)}
      />
    </Section>
  );
}

/** The generated response: one editable text when it is all text, else each block (tool_use inputs as JSON). */
function GeneratedResponse({ item, response, edits }: { item: SamplingItemView; response: ResponseView; edits: ResponseEdits }) {
  const { t } = useTranslation('queue');
  const { draft, extras, setText, toggle } = edits;
  const base = response.draft;
  return (
    <Section title={t('response.generated')}>
      {isAllText(base.content) ? (
        <EditableText
          original={contentText(base.content)}
          value={draft.texts[blockKey(0, 0)]}
          editing={draft.editing[blockKey(0, 0)] === true}
          onToggle={() => toggle(blockKey(0, 0))}
          onChange={(t) => setText(blockKey(0, 0), t)}
          label={t('response.text')}
          ids={{ editor: 'response-editor', toggle: 'response-edit', text: 'response-text' }}
        />
      ) : (
        <ResponseBlocks
          blocks={contentBlocks(base.content)}
          texts={draft.texts}
          editing={draft.editing}
          onText={setText}
          onToggle={toggle}
          toolInputs={extras.toolInputs}
          onToolInput={edits.setToolInput}
          scope={`res-${item.id}`}
        />
      )}
    </Section>
  );
}

/** Model, stop reason, tool calls, finish reason, tokens and when it was generated. */
function ResponseFacts({ response, built }: { response: ResponseView; built: BuiltResult }) {
  const { t } = useTranslation('queue');
  const base = response.draft;
  const usage = response.usage;
  const toolCalls = built.ok ? contentBlocks(built.result.content).filter((b) => b.type === 'tool_use').length : 0;
  return (
    <Facts
      rows={[
        [t('response.model'), response.manual ? <span key="m" data-testid="response-model">{t('response.writtenByYou')}</span> : <span key="m" className="mono" data-testid="response-model">{base.model}</span>],
        [t('response.stopReason'), <span key="s" className="mono" data-testid="response-stop-reason">{(built.ok ? built.result.stopReason : base.stopReason) ?? '—'}</span>],
        toolCalls > 0 && [t('response.toolCalls'), <span key="t" data-testid="response-tool-calls">{t('response.toolCallsValue', { count: toolCalls })}</span>],
        response.finishReason !== undefined && [t('response.finishReason'), response.finishReason],
        usage && [t('response.tokens'), t('response.tokensValue', { input: usage.inputTokens ?? '?', output: usage.outputTokens ?? '?' })],
        !response.manual && [t('response.generatedAt'), clockTime(response.generatedAt)],
      ]}
    />
  );
}

/** The action bar: reason, reject, approve & send, and regenerate unless the response is written by hand. */
function ResponseActionBar({ actions, canApprove, manual, serverId }: { actions: ReturnType<typeof useResponseActions>; canApprove: boolean; manual: boolean; serverId: string }) {
  const { t } = useTranslation('queue');
  const { approve, reject, regenerate, busy, keys } = actions;
  return (
    <ReviewActionBar
      stage="response"
      serverId={serverId}
      error={actions.error}
      reason={actions.reason}
      onReason={actions.setReason}
      keys={keys}
      busy={busy}
      canApprove={canApprove}
      onReject={() => void reject.run()}
      onApprove={() => void approve.run()}
      approveLabel={t('actions.approveSend')}
    >
      {!manual && (
        <button type="button" data-testid="regenerate" {...keys.regenerate} disabled={busy} onClick={() => void regenerate.run()}>
          {t('actions.regenerate')}
        </button>
      )}
    </ReviewActionBar>
  );
}

/** The response review screen of one item. */
export function ResponseReview({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const edits = useResponseEdits(item);
  const built = buildResult(item, edits.draft, edits.extras);
  const actions = useResponseActions(item, built);
  const response = item.response;
  if (!response) return <Banner tone="error" title={t('response.noResponse')} />;

  const offered = (item.sent ?? item.original).tools ?? [];
  const { extras, updateExtras } = edits;

  return (
    <ReviewFrame item={item} title={response.manual ? t('response.writeTitle') : t('response.reviewTitle')} testId="response-review">
      {item.error && (
        <Banner tone="error" title={t('response.problem')} testId="item-error">
          <ProviderFailure failure={item.error.failure} detail={item.error.message} />
        </Banner>
      )}
      <PromptToolNotice result={response.generated} />
      {response.manual ? <ManualResponse item={item} toolsOffered={offered.length > 0} edits={edits} /> : <GeneratedResponse item={item} response={response} edits={edits} />}
      {response.manual && offered.length > 0 && (
        <ManualToolCalls tools={offered} added={extras.added} onChange={(added) => updateExtras({ ...extras, added })} />
      )}
      {!built.ok && <DraftProblems title={t('response.cannotSend')} errors={built.errors} testId="response-invalid" />}
      <ResponseFacts response={response} built={built} />
      {response.generated && <RawJson value={response.generated} label={t('response.rawGenerated')} />}
      {item.sent && <RawJson value={item.sent} label={t('response.rawApproved')} />}
      <ResponseActionBar actions={actions} canApprove={built.ok} manual={response.manual} serverId={item.serverId} />
    </ReviewFrame>
  );
}
