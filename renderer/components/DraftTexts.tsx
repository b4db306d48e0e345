/**
 * What a person typed on an item that was never delivered (docs/history.md, "Drafts"): the banner saying
 * why nothing was delivered ("the server stopped waiting at 14:03:27"), and every typed text in
 * full, each with Copy. Used by the queue's outcome screens and the history detail.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { typedTexts, type DraftInput, type StopCause, type TypedText } from '../../shared/contract/drafts';
import { clockTime } from '../format';
import { Banner, Section } from './common';
import { CopyButton } from './CopyButton';
import './review.css';

/** "Not delivered: the server stopped waiting at 14:03:27" (`at`: epoch ms), plus what happened to the typed text. */
export function NotDeliveredBanner({ cause, at, kept, children }: { cause: StopCause; at: number; kept: boolean; children?: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <Banner tone="warn" title={t(`drafts.notDelivered.${cause}`, { time: clockTime(at) })} testId="not-delivered">
      {kept ? t('drafts.kept') : t('drafts.nothingTyped')}
      {children}
    </Banner>
  );
}

function labelOf(t: ReturnType<typeof useTranslation<'common'>>['t'], typed: TypedText): string {
  const [m = 0, b = 0, inner] = typed.ref.split(':').map(Number);
  switch (typed.kind) {
    case 'message':
      return inner === undefined ? t('drafts.kind.message', { n: m + 1, block: b + 1 }) : t('drafts.kind.toolResultText', { n: m + 1, block: b + 1, inner: inner + 1 });
    case 'systemPrompt':
      return t('drafts.kind.systemPrompt');
    case 'response':
      return b === 0 ? t('drafts.kind.response') : t('drafts.kind.responseBlock', { block: b + 1 });
    case 'toolInput':
      return t('drafts.kind.toolInput', { id: typed.ref });
    case 'addedToolCall':
      return t('drafts.kind.addedToolCall', { name: typed.name ?? '', id: typed.ref });
    case 'field':
      return typed.ref;
  }
}

/**
 * Every text in `draft` the person typed, in full and copyable (nothing when there is none).
 * @param baseSystemPrompt the system prompt the review started from (an unchanged one is not listed)
 */
export function DraftTexts({ draft, baseSystemPrompt, actions }: { draft: (DraftInput & { late?: DraftInput }) | undefined; baseSystemPrompt?: string; actions?: ReactNode }) {
  const { t } = useTranslation('common');
  const texts = typedTexts(draft, baseSystemPrompt);
  if (texts.length === 0) return null;
  return (
    <Section title={t('drafts.title')} actions={actions} testId="draft-texts">
      <ul className="plain-list draft-texts">
        {texts.map((typed) => {
          const label = typed.late ? `${labelOf(t, typed)} — ${t('drafts.late')}` : labelOf(t, typed);
          return (
            <li key={`${typed.late ? 'late:' : ''}${typed.kind}:${typed.ref}`} className="draft-text-item" data-late={typed.late ? 'true' : undefined}>
              <div className="draft-text-head">
                <strong className="small">{label}</strong>
                <CopyButton text={typed.text} label={label} testId="copy-draft" />
              </div>
              <pre className="mono-box draft-text" data-testid="draft-text">
                {typed.text}
              </pre>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
