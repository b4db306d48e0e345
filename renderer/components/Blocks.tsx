/**
 * Rendering of MCP content blocks (sampling messages, results, tool call results): text as
 * sanitised Markdown (or preformatted), images and audio as media with MIME type and size,
 * tool_use as name + JSON, tool_result linked to its tool_use id.
 */
import type { ReactNode } from 'react';
import type { SamplingContent } from '../../shared/sampling';
import { base64DecodedBytes, formatBytes, isBase64 } from '../../shared/validate-sampling';
import { prettyJson } from '../format';
import { Markdown } from '../markdown';

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|bmp|svg\+xml|avif)$/i;
const AUDIO_MIME = /^audio\/[a-z0-9.+-]+$/i;

const sizeOf = (data: string): string => formatBytes(isBase64(data) ? base64DecodedBytes(data) : Math.floor((data.length * 3) / 4));

/** An image or audio block: a preview (only for plain, known MIME types), its MIME and size. */
export function MediaBlock({ kind, data, mimeType }: { kind: 'image' | 'audio'; data: string; mimeType: string }) {
  const meta = (
    <span className="media-meta">
      {kind} · {mimeType} · {sizeOf(data)}
    </span>
  );
  const valid = isBase64(data);
  if (kind === 'image' && valid && IMAGE_MIME.test(mimeType)) {
    return (
      <figure className="media">
        <img src={`data:${mimeType};base64,${data}`} alt={`Image (${mimeType})`} />
        <figcaption>{meta}</figcaption>
      </figure>
    );
  }
  if (kind === 'audio' && valid && AUDIO_MIME.test(mimeType)) {
    return (
      <figure className="media">
        <audio controls src={`data:${mimeType};base64,${data}`} aria-label={`Audio (${mimeType})`} />
        <figcaption>{meta}</figcaption>
      </figure>
    );
  }
  return (
    <div className="media media-unshown">
      {meta} <span className="muted">(not previewed{valid ? '' : ': data is not valid base64'})</span>
    </div>
  );
}

type LooseBlock = { type: string } & Record<string, unknown>;

/** Any block that is not editable text: media, tool_use, tool_result, or unknown (as JSON). */
export function BlockView({ block, textAs = 'markdown' }: { block: LooseBlock; textAs?: 'markdown' | 'pre' }): ReactNode {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? (
        textAs === 'markdown' ? <Markdown text={block.text} /> : <pre className="pre-text">{block.text}</pre>
      ) : null;
    case 'image':
    case 'audio':
      return <MediaBlock kind={block.type} data={String(block.data ?? '')} mimeType={String(block.mimeType ?? '')} />;
    case 'tool_use':
      return (
        <div className="tool-block">
          <div className="tool-block-head">
            <span className="badge tone-info">tool_use</span> <strong>{String(block.name)}</strong>{' '}
            <span className="muted mono">id {String(block.id)}</span>
          </div>
          <pre className="mono-box">{prettyJson(block.input)}</pre>
        </div>
      );
    case 'tool_result': {
      const inner = Array.isArray(block.content) ? (block.content as LooseBlock[]) : [];
      return (
        <div className={`tool-block${block.isError ? ' is-error' : ''}`}>
          <div className="tool-block-head">
            <span className="badge tone-info">tool_result</span> <span className="muted">for tool_use</span>{' '}
            <span className="mono">{String(block.toolUseId)}</span>
            {block.isError === true && <span className="badge tone-error">isError</span>}
          </div>
          {inner.map((b, k) => (
            <BlockView key={k} block={b} textAs="pre" />
          ))}
        </div>
      );
    }
    default:
      return (
        <div className="tool-block">
          <div className="tool-block-head">
            <span className="badge tone-muted">{block.type}</span>
          </div>
          <pre className="mono-box">{prettyJson(block)}</pre>
        </div>
      );
  }
}

/** A text block with an Edit toggle: Markdown when viewing, a textarea when editing. */
export function EditableText({
  original,
  value,
  editing,
  onToggle,
  onChange,
  label,
  ids,
}: {
  original: string;
  /** The edited text, or undefined while unedited. */
  value: string | undefined;
  editing: boolean;
  onToggle: () => void;
  onChange: (text: string | undefined) => void;
  label: string;
  /** data-testids of the textarea, the Edit toggle and the rendered text. */
  ids: { editor: string; toggle: string; text: string };
}) {
  const text = value ?? original;
  const edited = value !== undefined && value !== original;
  return (
    <div className={`editable${edited ? ' is-edited' : ''}`}>
      <div className="editable-tools">
        {edited && <span className="badge tone-warn">edited</span>}
        {edited && (
          <button type="button" className="btn-link" onClick={() => onChange(undefined)} aria-label={`Revert ${label}`}>
            Revert
          </button>
        )}
        <button
          type="button"
          className="btn-small"
          aria-pressed={editing}
          aria-label={editing ? `Preview ${label}` : `Edit ${label}`}
          data-testid={ids.toggle}
          onClick={onToggle}
        >
          {editing ? 'Preview' : 'Edit'}
        </button>
      </div>
      {editing ? (
        <textarea
          className="editor"
          aria-label={label}
          data-testid={ids.editor}
          value={text}
          rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <Markdown text={text} testId={ids.text} />
      )}
    </div>
  );
}

/** Blocks of one message, text blocks editable through `draft` (keys `"message:block"`). */
export function MessageBlocks({
  blocks,
  message,
  texts,
  editing,
  onText,
  onToggle,
  labelPrefix,
  idPrefix = 'message',
}: {
  blocks: SamplingContent[];
  message: number;
  texts: Record<string, string>;
  editing: Record<string, boolean>;
  onText: (key: string, text: string | undefined) => void;
  onToggle: (key: string) => void;
  labelPrefix: string;
  /** data-testids become `<idPrefix>-editor-<message>-<block>` (and `-edit-`, `-text-`). */
  idPrefix?: string;
}) {
  return (
    <>
      {blocks.map((b, j) => {
        const key = `${message}:${j}`;
        if (b.type !== 'text') return <BlockView key={j} block={b as LooseBlock} />;
        return (
          <EditableText
            key={j}
            original={b.text}
            value={texts[key]}
            editing={editing[key] === true}
            onToggle={() => onToggle(key)}
            onChange={(t) => onText(key, t)}
            label={blocks.length > 1 ? `${labelPrefix}, text block ${j + 1}` : labelPrefix}
            ids={{
              editor: `${idPrefix}-editor-${message}-${j}`,
              toggle: `${idPrefix}-edit-${message}-${j}`,
              text: `${idPrefix}-text-${message}-${j}`,
            }}
          />
        );
      })}
    </>
  );
}

/** Blocks of one message, read-only. */
export function ReadOnlyBlocks({ blocks }: { blocks: SamplingContent[] }) {
  return (
    <>
      {blocks.map((b, j) => (
        <BlockView key={j} block={b as LooseBlock} />
      ))}
    </>
  );
}
