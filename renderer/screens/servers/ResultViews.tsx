/**
 * Results of the person's calls rendered by content kind: tool results and prompt messages
 * (text, image, audio, resource links, embedded resources) and `resources/read` contents (text —
 * pretty-printed when JSON — or base64 blobs shown as images / audio, else as their size and type).
 */
import { useTranslation } from 'react-i18next';
import type { CallView } from '../../../shared/contract/state';
import { BlockView } from '../../components/Blocks';
import { RawJson } from '../../components/common';
import { CallText, ResourceContentsView, isEmbeddedResource } from '../../components/ResourceViews';

/** One content block of a call's tool result or prompt message, by its type (text as it came, not Markdown; a long one may still be on its way). */
export function ContentBlockView({ block }: { block: Record<string, unknown> }) {
  if (block.type === 'text') return <CallText text={String(block.text ?? '')} />;
  if (isEmbeddedResource(block)) return <ResourceContentsView contents={block.resource} textsByRef />;
  return <BlockView block={{ ...block, type: String(block.type) }} textAs="pre" />;
}

/** The result of a finished call, by its kind. */
export function CallResult({ call }: { call: CallView }) {
  const { t } = useTranslation('servers');
  if (call.prompt) {
    return (
      <div className="call-output" data-testid="prompt-result">
        {call.prompt.description && <p className="muted small">{call.prompt.description}</p>}
        {call.prompt.messages.map((m, i) => (
          <div key={i} className={`message role-${m.role}`}>
            <div className="message-role">{m.role}</div>
            <div className="message-body">
              <ContentBlockView block={m.content} />
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (call.resource) {
    return (
      <div className="call-output" data-testid="resource-result">
        {call.resource.contents.length === 0 && <p className="muted small">{t('results.noContents')}</p>}
        {call.resource.contents.map((c, i) => (
          <ResourceContentsView key={i} contents={c} textsByRef />
        ))}
      </div>
    );
  }
  const result = call.result;
  if (!result) return null;
  return (
    <div className={`call-output${result.isError ? ' is-error' : ''}`}>
      {result.isError && <span className="badge tone-error">{t('results.isError')}</span>}
      {result.content.map((b, i) => (
        <ContentBlockView key={i} block={b} />
      ))}
      {result.structuredContent !== undefined && <RawJson value={result.structuredContent} label={t('results.structured')} />}
    </div>
  );
}
