/** `generating`: the model's text as it streams in, the model, elapsed time and Cancel. */
import { useEffect, useRef } from 'react';
import type { SamplingItemView } from '../../../shared/state';
import { getApi } from '../../api';
import { ActionError, Facts, RawJson } from '../../components/common';
import { duration } from '../../format';
import { useAction, useNow } from '../../hooks';
import { ItemHeader } from './ItemHeader';

/** The live generation screen of one item. */
export function GeneratingView({ item }: { item: SamplingItemView }) {
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
    <div className="review" data-testid="generating-view">
      <ItemHeader item={item} title="Generating" />
      <Facts
        rows={[
          ['Model', <span key="m" className="mono">{`${item.model.providerId} — ${item.model.modelId}`}</span>],
          ['Elapsed', <span key="e" data-testid="generation-elapsed">{duration(now - startedAt)}</span>],
          ['Received', `${text.length.toLocaleString()} characters`],
        ]}
      />
      <pre className="stream-box" ref={boxRef} data-testid="generation-text" aria-live="polite" aria-label="Generated text so far">
        {text || <span className="muted">Waiting for the first tokens…</span>}
        <span className="caret" aria-hidden="true" />
      </pre>
      {item.sent && <RawJson value={item.sent} label="Raw JSON: the request as approved" />}
      <footer className="action-bar">
        <ActionError error={cancel.error} />
        <button type="button" className="btn-danger" data-testid="cancel-generation" disabled={cancel.pending} onClick={() => void cancel.run()}>
          Cancel
        </button>
      </footer>
    </div>
  );
}
