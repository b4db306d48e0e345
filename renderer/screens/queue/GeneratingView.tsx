/** `generating`: the model's text as it streams in, the model, elapsed time and Cancel. */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { SamplingItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionBar, ActionError, Facts, RawJson } from '../../components/common';
import { duration } from '../../format';
import { useAction, useNow } from '../../hooks';
import { ReviewFrame } from './ReviewFrame';

/** The live generation screen of one item. */
export function GeneratingView({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('queue');
  const now = useNow();
  const text = item.generation?.text ?? '';
  const boxRef = useRef<HTMLPreElement>(null);
  const cancel = useAction(() => getApi().cancelGeneration({ itemId: item.id }));
  useEffect(() => {
    const box = boxRef.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [text]);
  const startedAt = item.generation?.startedAt ?? item.updatedAt;
  return (
    <ReviewFrame item={item} title={t('generating.title')} testId="generating-view">
      <Facts
        rows={[
          [t('generating.model'), <span key="m" className="mono">{`${item.model.providerId} — ${item.model.modelId}`}</span>],
          [t('generating.elapsed'), <span key="e" data-testid="generation-elapsed">{duration(now - startedAt)}</span>],
          [t('generating.received'), t('generating.characters', { count: text.length })],
        ]}
      />
      <pre className="stream-box" ref={boxRef} data-testid="generation-text" aria-live="polite" aria-label={t('generating.textLabel')}>
        {text || <span className="muted">{t('generating.waitingTokens')}</span>}
        <span className="caret" aria-hidden="true" />
      </pre>
      {item.sent && <RawJson value={item.sent} label={t('response.rawApproved')} />}
      <ActionBar>
        <ActionError error={cancel.error} />
        <button type="button" className="btn-danger" data-testid="cancel-generation" disabled={cancel.pending} onClick={() => void cancel.run()}>
          {t('actions.cancel')}
        </button>
      </ActionBar>
    </ReviewFrame>
  );
}
