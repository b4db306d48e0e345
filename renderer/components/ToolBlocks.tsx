/**
 * Tool blocks of sampling messages: `tool_use` (the model asks the server to run a tool: name, id,
 * input as formatted JSON) and `tool_result` (the server's output, linked to the tool_use it
 * answers: clicking the link scrolls to that tool_use and highlights it; `isError` shown).
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { prettyJson } from '../format';
import { PlainText } from './PlainText';
import './review.css';

type LooseBlock = { type: string } & Record<string, unknown>;

/**
 * DOM id of a tool_use block within a scope (one review screen), so a tool_result can link to it.
 * Characters outside `[A-Za-z0-9_-]` are replaced, so any id the server sends makes a valid anchor.
 */
export function toolUseAnchor(scope: string, toolUseId: string): string {
  return `tool-use-${scope}-${toolUseId}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Scrolls to a tool_use anchor and flashes it; false when it is not on the page. */
export function revealToolUse(anchor: string): boolean {
  const el = document.getElementById(anchor);
  if (!el) return false;
  el.scrollIntoView({ block: 'center', behavior: 'smooth' });
  el.classList.remove('is-flashing');
  void el.offsetWidth; // restart the animation
  el.classList.add('is-flashing');
  el.focus({ preventScroll: true });
  return true;
}

/** A tool_use block: name, id and input; `children` replaces the read-only input (an editor). */
export function ToolUseView({ block, scope, children }: { block: LooseBlock; scope: string; children?: ReactNode }) {
  const { t } = useTranslation('common');
  const id = String(block.id ?? '');
  return (
    <div className="tool-block tool-use" id={toolUseAnchor(scope, id)} tabIndex={-1} data-testid="tool-use" data-tool-use-id={id}>
      <div className="tool-block-head">
        {/* eslint-disable-next-line i18next/no-literal-string -- the protocol's block type */}
        <span className="badge tone-info">tool_use</span> <strong className="mono" data-testid="tool-use-name">{String(block.name)}</strong>
        <span className="muted mono small">{t('blocks.toolUseId', { id })}</span>
      </div>
      {children ?? (
        <pre className="mono-box" data-testid="tool-use-input" aria-label={t('blocks.inputOf', { name: String(block.name) })}>
          {prettyJson(block.input)}
        </pre>
      )}
    </div>
  );
}

/** A tool_result's `structuredContent` as JSON (made once per value: a review re-renders on every keystroke), and whether the model gets it. */
function StructuredContent({ value, sent }: { value: unknown; sent: boolean }) {
  const { t } = useTranslation('common');
  const json = useMemo(() => prettyJson(value), [value]);
  return (
    <div data-testid="tool-result-structured">
      <span className="muted small">{sent ? t('blocks.structuredSent') : t('blocks.structuredNotSent')}</span>
      <PlainText text={json} className="mono-box" />
    </div>
  );
}

/**
 * A tool_result block, linked to its tool_use. `renderInner` renders the result's content blocks.
 * Its `structuredContent` shows too, saying whether the model gets it: it does when the content is
 * empty (sent as JSON, main/llm/convert.ts), not otherwise.
 */
export function ToolResultView({ block, scope, renderInner }: { block: LooseBlock; scope: string; renderInner: (b: LooseBlock, key: number) => ReactNode }) {
  const { t } = useTranslation('common');
  const toolUseId = String(block.toolUseId ?? '');
  const inner = Array.isArray(block.content) ? (block.content as LooseBlock[]) : [];
  const isError = block.isError === true;
  const anchor = toolUseAnchor(scope, toolUseId);
  return (
    <div className={`tool-block tool-result${isError ? ' is-error' : ''}`} data-testid="tool-result" data-tool-use-id={toolUseId}>
      <div className="tool-block-head">
        {/* eslint-disable-next-line i18next/no-literal-string -- the protocol's block type */}
        <span className="badge tone-info">tool_result</span>
        <span className="muted">{t('blocks.answers')}</span>
        <a
          href={`#${anchor}`}
          className="mono tool-link"
          data-testid="tool-result-link"
          title={t('blocks.showToolUse')}
          onClick={(e) => {
            e.preventDefault();
            revealToolUse(anchor);
          }}
        >
          {`tool_use ${toolUseId}`}
        </a>
        {isError && (
          <span className="badge tone-error" data-testid="tool-result-error">
            {t('blocks.isError')}
          </span>
        )}
      </div>
      {inner.length === 0 && block.structuredContent === undefined && <span className="muted small">{t('blocks.emptyResult')}</span>}
      {inner.map((b, k) => renderInner(b, k))}
      {block.structuredContent !== undefined && <StructuredContent value={block.structuredContent} sent={inner.length === 0} />}
    </div>
  );
}
