/** Readable diffs of one history entry: the request (asked → sent) and the response (generated → delivered). */
import { useTranslation } from 'react-i18next';
import { useSay } from '../../i18n/say';
import { contentBlocks, contentText, type CreateMessageParams, type CreateMessageResult, type SamplingContent } from '../../../shared/contract/sampling';
import type { HistoryEntry } from '../../../shared/contract/state';
import { MANUAL_PROVIDER_ID } from '../../../shared/contract/primitives';
import { ReadOnlyBlocks } from '../../components/Blocks';
import { Facts } from '../../components/common';
import { FieldChanges, TextDiff, type FieldChange } from './DiffView';

const show = (v: unknown): string => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The texts of a message a review can edit, one per line: its text blocks and the texts inside
 * its tool_results (each result's headed `tool_result <toolUseId>`), in order.
 */
function editableText(content: SamplingContent | SamplingContent[]): string {
  return contentBlocks(content)
    .flatMap((b) => {
      if (b.type === 'text') return [b.text];
      if (b.type !== 'tool_result') return [];
      const texts = b.content.flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : []));
      return texts.length ? [`tool_result ${b.toolUseId}`, ...texts] : [];
    })
    .join('\n');
}

/** The request as the server (or a provider call's caller) asked vs as sent to the LLM: field table, system prompt and message diffs. */
export function RequestDiff({ original, sent, entry }: { original: CreateMessageParams; sent: CreateMessageParams; entry: HistoryEntry }) {
  const { t } = useTranslation('history');
  const { t: tc } = useTranslation('common');
  const say = useSay();
  const count = Math.max(original.messages.length, sent.messages.length);
  const model = entry.modelChoice;
  const rows: FieldChange[] = [
    { field: 'maxTokens', before: show(original.maxTokens), after: show(sent.maxTokens), changed: original.maxTokens !== sent.maxTokens },
    { field: 'temperature', before: show(original.temperature), after: show(sent.temperature), changed: original.temperature !== sent.temperature },
  ];
  if (model) {
    rows.push({
      field: 'model',
      before: <span className="small">{model.overridden ? t('diff.otherModel') : say(model.reasonUi, model.reason)}</span>,
      after:
        model.providerId === MANUAL_PROVIDER_ID ? (
          <span className="small" data-testid="history-model-by-hand">
            {t('detail.writtenByPerson')}
          </span>
        ) : (
          <span className="mono">{`${model.providerId} — ${model.modelId}`}</span>
        ),
      changed: model.overridden === true,
    });
  }
  return (
    <>
      <FieldChanges rows={rows} testId="history-field-changes" providerCall={!!entry.gateway} />
      <h4>{t('diff.systemPrompt')}</h4>
      <TextDiff before={original.systemPrompt ?? ''} after={sent.systemPrompt ?? ''} testId="history-system-diff" />
      {Array.from({ length: count }, (_, i) => {
        const a = original.messages[i];
        const b = sent.messages[i];
        const nonText = [...(a ? contentBlocks(a.content) : []), ...(b ? contentBlocks(b.content) : [])].some((x) => x.type !== 'text');
        return (
          <div key={i} className="diff-message" data-testid={`history-message-diff-${i}`}>
            <h4>
              {t('diff.message', { n: i + 1 })} <span className="muted">({tc(`blocks.${(b ?? a)!.role}`)})</span>
              {nonText && <span className="muted small">{t('diff.nonText')}</span>}
            </h4>
            <TextDiff before={a ? editableText(a.content) : ''} after={b ? editableText(b.content) : ''} />
          </div>
        );
      })}
    </>
  );
}

/** The response as generated vs as delivered to the server. */
export function ResponseDiff({ generated, delivered }: { generated?: CreateMessageResult; delivered?: CreateMessageResult }) {
  const { t } = useTranslation('history');
  if (!generated && !delivered) return <p className="muted small">{t('diff.noResponse')}</p>;
  if (!generated && delivered) {
    return (
      <>
        <p className="small muted">{t('diff.byHand')}</p>
        <ReadOnlyBlocks blocks={contentBlocks(delivered.content)} />
      </>
    );
  }
  const before = generated ? contentText(generated.content) : '';
  const after = delivered ? contentText(delivered.content) : '';
  return (
    <>
      {!delivered && <p className="small muted">{t('diff.notDelivered')}</p>}
      <TextDiff before={before} after={delivered ? after : before} testId="history-response-diff" />
      <Facts
        rows={[
          [t('diff.model'), show(delivered?.model ?? generated?.model)],
          [t('diff.stopReason'), show(delivered?.stopReason ?? generated?.stopReason)],
        ]}
      />
    </>
  );
}
