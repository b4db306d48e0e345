/** A small button that copies a text to the clipboard and says whether it did. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Copies `text`; reads "Copied", or "Copy failed: select the text instead" when the clipboard
 * refused. `label` names what is copied, for screen readers ("Copy the response").
 */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { t } = useTranslation('common');
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setDone('copied'),
      () => setDone('failed'),
    );
  };
  return (
    <button type="button" className="btn-small" data-testid={testId} aria-label={t('drafts.copyLabel', { label })} onClick={copy}>
      {done === 'copied' ? t('drafts.copied') : done === 'failed' ? t('drafts.copyFailed') : t('drafts.copy')}
    </button>
  );
}
