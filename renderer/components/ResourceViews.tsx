/**
 * Resources inside content blocks, wherever they show (a review's tool_result, a call's result,
 * a history entry): an embedded resource's contents (`{uri, mimeType?, text | blob}`: text —
 * pretty-printed when its MIME type says JSON — or a base64 blob shown as an image or audio, else
 * as its size and first characters) and a resource link (`{uri, name?, description?}`). A blob is
 * never printed whole: a big one may be megabytes, and the state may hold it by reference
 * (shared/contract/media-refs.ts), shown as its size and "(loading…)" until it arrives.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { base64DecodedBytes } from '../../shared/domain/base64';
import { parseMediaRef } from '../../shared/domain/media-refs';
import { formatBytes } from '../../shared/domain/validate-sampling';
import { prettyJson } from '../format';
import { PlainText } from './PlainText';
import { RemoveToggle, type BlockEditing } from './media';
import './resources.css';

/** One resource's contents (`resources/read`, or an embedded resource block's `resource`). */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** Characters of a blob that is neither image nor audio shown after its size. */
const BLOB_HEAD_CHARS = 120;

/**
 * A call's text (a tool result's text block, a resource's text): shown as it is, or — a long text
 * the `calls` slice holds by reference (main/mcp/calls.ts) — its size and "(loading…)" until it
 * arrives. Only a call's views read references in texts: a request's text is the server's, shown
 * as it is whatever it looks like.
 */
export function CallText({ text, mimeType }: { text: string; mimeType?: string }) {
  const { t } = useTranslation('common');
  const arriving = parseMediaRef(text, true);
  if (arriving) {
    return (
      <p className="muted small mono" data-testid="text-loading">
        {`${t('blocks.textKind')} · ${formatBytes(arriving.bytes)} ${t('media.loading')}`}
      </p>
    );
  }
  return <TextBody text={text} mimeType={mimeType} />;
}

/** Text content, pretty-printed when its MIME type says JSON and it parses (once per text: a review re-renders on every keystroke). */
function TextBody({ text, mimeType }: { text: string; mimeType?: string }) {
  const shown = useMemo(() => {
    if (!mimeType || !/json/.test(mimeType)) return text;
    try {
      return prettyJson(JSON.parse(text));
    } catch {
      return text; // not JSON after all: show as is
    }
  }, [text, mimeType]);
  return <PlainText text={shown} className="pre-text result-text" />;
}

/**
 * One resource's contents; a blob held by reference shows its size and "(loading…)", and so does a
 * long text with `textsByRef` (a call's result, see {@link CallText}). With `editing` (a request
 * under review) it can be removed: then only its URI and "removed" show.
 */
export function ResourceContentsView({ contents, textsByRef = false, editing }: { contents: ResourceContents; textsByRef?: boolean; editing?: BlockEditing }) {
  const { t } = useTranslation('common');
  const mime = contents.mimeType;
  const blob = contents.blob;
  const arriving = blob === undefined ? undefined : parseMediaRef(blob);
  const removed = editing?.removed === true;
  return (
    <div className={`resource-contents${removed ? ' is-removed' : ''}`} data-testid="resource-contents" data-removed={removed ? 'true' : undefined}>
      <div className="muted small mono break" data-testid="resource-meta">
        {contents.uri}
        {mime && ` · ${mime}`}
        {blob !== undefined && ` · ${formatBytes(arriving?.bytes ?? base64DecodedBytes(blob))} (base64)`}
        {arriving && ` ${t('media.loading')}`}
      </div>
      {editing?.onToggleRemove && (
        <span>
          {removed && <span className="badge tone-warn">{t('media.removed')}</span>} <RemoveToggle removed={removed} label={editing.label ?? contents.uri} onToggle={editing.onToggleRemove} />
        </span>
      )}
      {!removed && contents.text !== undefined && (textsByRef ? <CallText text={contents.text} mimeType={mime} /> : <TextBody text={contents.text} mimeType={mime} />)}
      {!removed && blob !== undefined && !arriving && mime?.startsWith('image/') && <img className="resource-image" alt={contents.uri} src={`data:${mime};base64,${blob}`} />}
      {!removed && blob !== undefined && !arriving && mime?.startsWith('audio/') && <audio controls src={`data:${mime};base64,${blob}`} />}
      {!removed && blob !== undefined && !arriving && !mime?.startsWith('image/') && !mime?.startsWith('audio/') && (
        <pre className="pre-text result-text muted">{`${blob.slice(0, BLOB_HEAD_CHARS)}${blob.length > BLOB_HEAD_CHARS ? '…' : ''}`}</pre>
      )}
    </div>
  );
}

/** A `resource_link` block: the URI the server points at, with its name and description. */
export function ResourceLinkView({ block }: { block: Record<string, unknown> }) {
  const { t } = useTranslation('common');
  return (
    <div className="resource-link" data-testid="resource-link">
      <span className="badge tone-info">{t('blocks.resourceLink')}</span> <span className="mono break">{String(block.uri ?? '')}</span>
      {typeof block.name === 'string' && <span className="muted small"> {block.name}</span>}
      {typeof block.description === 'string' && <div className="muted small">{block.description}</div>}
    </div>
  );
}

/** Whether `block` is an embedded resource block whose `resource` has a string `uri`. */
export function isEmbeddedResource(block: Record<string, unknown>): block is { type: 'resource'; resource: ResourceContents } {
  const r = block.resource as Record<string, unknown> | null | undefined;
  return block.type === 'resource' && typeof r === 'object' && r !== null && typeof r.uri === 'string';
}
