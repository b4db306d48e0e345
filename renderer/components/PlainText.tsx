/**
 * Text shown as it is, not as Markdown (a tool_result's text, a call's result, a resource's
 * contents): a long one as its first `MARKDOWN_PREVIEW_CHARS` (big-text.ts) with "Show all", so a tool
 * that read a 2 MB log does not make its review lay out 25,000 lines before anything else shows
 * (or push the rest of the review that far down).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../shared/domain/validate-sampling.js';
import { markdownPreview } from './big-text.js';

/** The note under a preview: `message`, then a "Show all (size)" button calling `onShowAll`. */
export function ShowAllNote({ message, total, onShowAll }: { message: string; total: number; onShowAll: () => void }) {
  const { t } = useTranslation('common');
  return (
    <p className="small muted" data-testid="markdown-truncated">
      {message}{' '}
      <button type="button" className="btn-link" data-testid="markdown-show-all" onClick={onShowAll}>
        {t('bigText.showAll', { total: formatBytes(total) })}
      </button>
    </p>
  );
}

/** `text` in a `<pre>` (`className`), a preview of it when it is longer than `MARKDOWN_PREVIEW_CHARS` (big-text.ts). */
export function PlainText({ text, className = 'pre-text', testId }: { text: string; className?: string; testId?: string }) {
  const { t } = useTranslation('common');
  const [all, setAll] = useState(false);
  const shown = all ? text : markdownPreview(text);
  const body = (
    <pre className={className} data-testid={testId}>
      {shown}
    </pre>
  );
  if (shown.length === text.length) return body;
  return (
    <>
      {body}
      <ShowAllNote message={t('bigText.preview', { shown: formatBytes(shown.length), total: formatBytes(text.length) })} total={text.length} onShowAll={() => setAll(true)} />
    </>
  );
}
