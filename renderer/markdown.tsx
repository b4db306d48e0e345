/**
 * The one place untrusted text becomes HTML. Server-supplied and model-generated text is rendered
 * as Markdown with `marked`, then sanitised with DOMPurify before React sets it as HTML.
 *
 * Two layers, because a reviewer must see what the model will see:
 * 1. Raw HTML in the text is not interpreted at all: `marked` renders it as escaped, visible text
 *    (so a hidden `<span style="display:none">` or an `<img onerror>` shows up as characters), and
 *    link reference definitions, which Markdown normally hides, are shown as text too.
 * 2. DOMPurify then sanitises whatever `marked` produced (defence in depth): no scripts, event
 *    handlers, styles or forms survive; links open in a new window with rel="noopener noreferrer";
 *    images keep only `data:image/…` sources (no tracking pixels, matching the CSP).
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Marked, type Tokens } from 'marked';
import DOMPurify from 'dompurify';
import { formatBytes } from '../shared/domain/validate-sampling.js';
import { markdownPreview } from './components/big-text.js';
import { ShowAllNote } from './components/PlainText.js';

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      const shown = `<code class="md-raw-html">${escapeHtml(token.text)}</code>`;
      return token.block ? `<p>${shown}</p>\n` : shown;
    },
    def(token: Tokens.Def): string {
      return `<p class="md-def"><code>${escapeHtml(token.raw.trim())}</code></p>\n`;
    },
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    if (node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
      node.setAttribute('title', node.getAttribute('href') ?? '');
    }
  } else if (node.tagName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!/^data:image\/(png|jpeg|gif|webp);/i.test(src)) node.removeAttribute('src');
  }
});

const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
};

/** Sanitises an HTML string with the console's DOMPurify profile. */
export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, PURIFY_CONFIG);
}

/** Renders untrusted Markdown to sanitised HTML (raw HTML in the source is shown as text). */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false });
  return sanitizeHtml(html);
}

/** Displays untrusted Markdown text safely (a long text as a preview with "Show all"). */
export function Markdown({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation('common');
  const [all, setAll] = useState(false);
  const shown = all ? text : markdownPreview(text);
  const html = useMemo(() => renderMarkdown(shown), [shown]);
  const body = <div className="markdown" data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
  if (shown.length === text.length) return body;
  return (
    <>
      {body}
      <ShowAllNote message={t('bigText.truncated', { shown: formatBytes(shown.length), total: formatBytes(text.length) })} total={text.length} onShowAll={() => setAll(true)} />
    </>
  );
}
