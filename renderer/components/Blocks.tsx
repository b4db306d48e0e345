/**
 * Rendering of MCP content blocks (sampling messages, results, tool call results): text as
 * sanitised Markdown (or preformatted), images and audio as media with MIME type and size,
 * tool_use as name + JSON, tool_result linked to its tool_use id.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { textKey } from '../../shared/contract/drafts';
import type { SamplingContent } from '../../shared/contract/sampling';
import { prettyJson } from '../format';
import { Markdown } from '../markdown';
import { PARTS_FROM_CHARS } from './big-text';
import { PartsEditor } from './PartsEditor';
import { PlainText } from './PlainText';
import { ResourceContentsView, ResourceLinkView, isEmbeddedResource } from './ResourceViews';
import { MediaBlock, type BlockEditing } from './media';

export type { BlockEditing } from './media';
import { ToolResultView, ToolUseView } from './ToolBlocks';

export { MediaBlock } from './media';

type LooseBlock = { type: string } & Record<string, unknown>;

/**
 * Any block that is not editable text: media, tool_use, tool_result, an embedded resource or a
 * resource link (inside tool results; ResourceViews.tsx), or unknown (as JSON).
 * `scope` keeps tool_use anchors unique per screen, so a tool_result links to its own tool_use.
 */
export function BlockView({
  block,
  textAs = 'markdown',
  scope = 'view',
  editing,
}: {
  block: LooseBlock;
  textAs?: 'markdown' | 'pre';
  scope?: string;
  editing?: BlockEditing;
}): ReactNode {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? (
        textAs === 'markdown' ? <Markdown text={block.text} /> : <PlainText text={block.text} />
      ) : null;
    case 'image':
    case 'audio':
      return (
        <MediaBlock
          kind={block.type}
          data={String(block.data ?? '')}
          mimeType={String(block.mimeType ?? '')}
          removed={editing?.removed}
          onToggleRemove={editing?.onToggleRemove}
          label={editing?.label}
        />
      );
    case 'tool_use':
      return <ToolUseView block={block} scope={scope} />;
    case 'tool_result':
      return <ToolResultView block={block} scope={scope} renderInner={(b, k) => <BlockView key={k} block={b} textAs="pre" scope={scope} />} />;
    case 'resource_link':
      return <ResourceLinkView block={block} />;
    default:
      if (isEmbeddedResource(block)) return <ResourceContentsView contents={block.resource} editing={editing} />;
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

/** Textarea height in lines: the text's lines + 1, from 4 to 16 (stops counting at 16: texts may be megabytes). */
export function editorRows(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines < 16; at = text.indexOf('\n', at + 1)) lines++;
  return Math.min(16, Math.max(4, lines + 1));
}

/** The Edit/Preview toggle of an editable text, with "edited" and Revert once it differs. */
function EditTools({ edited, editing, label, toggleId, onToggle, onRevert }: { edited: boolean; editing: boolean; label: string; toggleId: string; onToggle: () => void; onRevert: () => void }) {
  const { t } = useTranslation('common');
  return (
    <div className="editable-tools">
      {edited && <span className="badge tone-warn">{t('blocks.edited')}</span>}
      {edited && (
        <button type="button" className="btn-link" onClick={onRevert} aria-label={t('blocks.revertLabel', { label })}>
          {t('blocks.revert')}
        </button>
      )}
      <button
        type="button"
        className="btn-small"
        aria-pressed={editing}
        aria-label={editing ? t('blocks.previewLabel', { label }) : t('blocks.editLabel', { label })}
        data-testid={toggleId}
        onClick={onToggle}
      >
        {editing ? t('blocks.preview') : t('blocks.edit')}
      </button>
    </div>
  );
}

/** A text block with an Edit toggle: Markdown (or the text as it is) when viewing, a textarea when editing. */
export function EditableText({
  original,
  value,
  editing,
  onToggle,
  onChange,
  label,
  ids,
  textAs = 'markdown',
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
  /** How the text shows when not being edited: Markdown (a message) or as it is (a tool's output). */
  textAs?: 'markdown' | 'pre';
}) {
  const text = value ?? original;
  const edited = value !== undefined && value !== original;
  return (
    <div className={`editable${edited ? ' is-edited' : ''}`}>
      <EditTools edited={edited} editing={editing} label={label} toggleId={ids.toggle} onToggle={onToggle} onRevert={() => onChange(undefined)} />
      {editing && text.length > PARTS_FROM_CHARS ? (
        <PartsEditor text={text} onChange={onChange} label={label} testId={ids.editor} />
      ) : editing ? (
        <textarea
          className="editor fits-text"
          aria-label={label}
          data-testid={ids.editor}
          value={text}
          rows={editorRows(text)}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : textAs === 'pre' ? (
        <PlainText text={text} testId={ids.text} />
      ) : (
        <Markdown text={text} testId={ids.text} />
      )}
    </div>
  );
}

/** Props of {@link MessageBlocks}. */
interface MessageBlocksProps {
  blocks: SamplingContent[];
  message: number;
  texts: Record<string, string>;
  editing: Record<string, boolean>;
  onText: (key: string, text: string | undefined) => void;
  onToggle: (key: string) => void;
  labelPrefix: string;
  /** data-testids become `<idPrefix>-editor-<message>-<block>` (and `-edit-`, `-text-`; a tool_result's text adds `-<inner>`). */
  idPrefix?: string;
  /** Anchor scope of tool_use blocks (unique per screen). */
  scope?: string;
  /** Media blocks marked for removal, by `textKey` (one inside a tool_result too). */
  removed?: Record<string, boolean>;
  /** When given, image and audio blocks get a Remove/Restore toggle. */
  onToggleRemove?: (key: string) => void;
}

/**
 * Blocks of one message, text blocks editable through `draft` (keys `textKey`,
 * shared/contract/drafts.ts), the texts inside a tool_result too (a tool's output is part of the
 * prompt: a secret a tool read can be redacted before it is sent).
 */
export function MessageBlocks(props: MessageBlocksProps) {
  const { blocks, message, texts, editing, onText, onToggle, labelPrefix, idPrefix = 'message', scope = 'view', removed, onToggleRemove } = props;
  const { t } = useTranslation('common');
  const editable = (key: string, ids: string, original: string, label: string, asIs = false) => (
    <EditableText
      key={key}
      original={original}
      value={texts[key]}
      editing={editing[key] === true}
      onToggle={() => onToggle(key)}
      onChange={(text) => onText(key, text)}
      label={label}
      textAs={asIs ? 'pre' : 'markdown'}
      ids={{ editor: `${idPrefix}-editor-${ids}`, toggle: `${idPrefix}-edit-${ids}`, text: `${idPrefix}-text-${ids}` }}
    />
  );
  /** The Remove/Restore toggle of an image, audio or embedded resource block (none without `onToggleRemove`). */
  const removable = (b: { type: string }, key: string): BlockEditing | undefined =>
    (b.type === 'image' || b.type === 'audio' || b.type === 'resource') && onToggleRemove
      ? { removed: removed?.[key] === true, onToggleRemove: () => onToggleRemove(key), label: t('blocks.mediaIn', { kind: t(`blocks.kinds.${b.type as 'image' | 'audio' | 'resource'}`), label: labelPrefix }) }
      : undefined;
  return (
    <>
      {blocks.map((b, j) => {
        const key = textKey(message, j);
        if (b.type === 'text') return editable(key, `${message}-${j}`, b.text, blocks.length > 1 ? t('blocks.textBlock', { label: labelPrefix, n: j + 1 }) : labelPrefix);
        if (b.type === 'tool_result') {
          const inner = (c: LooseBlock, k: number) =>
            c.type === 'text' && typeof c.text === 'string'
              ? editable(textKey(message, j, k), `${message}-${j}-${k}`, c.text, t('blocks.toolResultText', { label: labelPrefix, n: k + 1 }), true)
              : <BlockView key={k} block={c} textAs="pre" scope={scope} editing={removable(c, textKey(message, j, k))} />;
          return <ToolResultView key={j} block={b as LooseBlock} scope={scope} renderInner={inner} />;
        }
        return <BlockView key={j} block={b as LooseBlock} scope={scope} editing={removable(b, key)} />;
      })}
    </>
  );
}

/** Blocks of one message, read-only (`scope`: tool_use anchor scope, see {@link BlockView}). */
export function ReadOnlyBlocks({ blocks, scope }: { blocks: SamplingContent[]; scope?: string }) {
  return (
    <>
      {blocks.map((b, j) => (
        <BlockView key={j} block={b as LooseBlock} scope={scope} />
      ))}
    </>
  );
}
