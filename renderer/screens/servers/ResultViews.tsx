/**
 * Results of the person's calls rendered by content kind: tool results and prompt messages
 * (text, image, audio, resource links, embedded resources) and `resources/read` contents (text —
 * pretty-printed when JSON — or base64 blobs shown as images / audio, else as their size and type).
 */
import { useTranslation } from 'react-i18next';
import type { CallView } from '../../../shared/contract/state';
import { base64DecodedBytes } from '../../../shared/domain/base64';
import { parseMediaRef } from '../../../shared/domain/media-refs';
import { formatBytes } from '../../../shared/domain/validate-sampling';
import { BlockView } from '../../components/Blocks';
import { RawJson } from '../../components/common';
import { prettyJson } from '../../format';

type Contents = NonNullable<CallView['resource']>['contents'][number];


/** Text content, pretty-printed when its MIME type says JSON and it parses. */
function TextBody({ text, mimeType }: { text: string; mimeType?: string }) {
  let shown = text;
  if (mimeType && /json/.test(mimeType)) {
    try {
      shown = prettyJson(JSON.parse(text));
    } catch {
      // not JSON after all: show as is
    }
  }
  return <pre className="pre-text result-text">{shown}</pre>;
}

/**
 * One resource's contents (`resources/read`, or an embedded resource block). A big blob the state
 * holds by reference shows its size and "loading…" until its call card has fetched it.
 */
export function ResourceContentsView({ contents }: { contents: Contents }) {
  const { t } = useTranslation('common');
  const mime = contents.mimeType;
  const blob = contents.blob;
  const arriving = blob === undefined ? undefined : parseMediaRef(blob);
  return (
    <div className="resource-contents" data-testid="resource-contents">
      <div className="muted small mono break">
        {contents.uri}
        {mime && ` · ${mime}`}
        {blob !== undefined && ` · ${formatBytes(arriving?.bytes ?? base64DecodedBytes(blob))} (base64)`}
        {arriving && ` ${t('media.loading')}`}
      </div>
      {contents.text !== undefined && <TextBody text={contents.text} mimeType={mime} />}
      {blob !== undefined && !arriving && mime?.startsWith('image/') && <img className="resource-image" alt={contents.uri} src={`data:${mime};base64,${blob}`} />}
      {blob !== undefined && !arriving && mime?.startsWith('audio/') && <audio controls src={`data:${mime};base64,${blob}`} />}
      {blob !== undefined && !arriving && !mime?.startsWith('image/') && !mime?.startsWith('audio/') && (
        <pre className="pre-text result-text muted">{`${blob.slice(0, 120)}${blob.length > 120 ? '…' : ''}`}</pre>
      )}
    </div>
  );
}

/** One content block of a tool result or prompt message, by its type. */
export function ContentBlockView({ block }: { block: Record<string, unknown> }) {
  const { t } = useTranslation('servers');
  const type = String(block.type);
  if (type === 'text') return <pre className="pre-text result-text">{String(block.text ?? '')}</pre>;
  if (type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
    return <ResourceContentsView contents={block.resource as Contents} />;
  }
  if (type === 'resource_link') {
    return (
      <div className="resource-link" data-testid="resource-link">
        <span className="badge tone-info">{t('results.resourceLink')}</span> <span className="mono break">{String(block.uri ?? '')}</span>
        {typeof block.name === 'string' && <span className="muted small"> {block.name}</span>}
        {typeof block.description === 'string' && <div className="muted small">{block.description}</div>}
      </div>
    );
  }
  return <BlockView block={{ ...block, type }} textAs="pre" />;
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
          <ResourceContentsView key={i} contents={c} />
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
