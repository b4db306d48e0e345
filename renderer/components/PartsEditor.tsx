/**
 * Editing a very long text (a megabyte of log lines) in parts: one textarea per part of at most
 * {@link PART_CHARS} characters, cut at line ends. A single textarea holding a megabyte costs
 * Chromium 130–170 ms of layout per keystroke (measured on its own, `npm run bench` machine), so
 * typing lagged whatever React did; a part re-lays out only its own text.
 *
 * The parts are fixed when editing starts (typing in one part does not move the others); the text
 * is always exactly the parts joined, so nothing is hidden from the reviewer and nothing is lost.
 * When the text changes from outside (Revert, a redaction), the parts are cut again.
 */
import { memo, useState, type ChangeEvent } from 'react';
import { splitParts } from './big-text';
import './review.css';
import { useTranslation } from 'react-i18next';

/** The parts' own change handler: the container handles the (bubbling) change event. */
const handledAbove = () => {};

/** One part's textarea; re-rendered only when its own text changes (reading back 32 KB per part per keystroke adds up). */
const Part = memo(function Part({ i, value, label, testId }: { i: number; value: string; label: string; testId: string }) {
  return <textarea className="editor" spellCheck={false} aria-label={label} data-testid={testId} data-part={i} value={value} rows={8} onChange={handledAbove} />;
});

/** Props of {@link PartsEditor}. */
export interface PartsEditorProps {
  text: string;
  onChange(text: string): void;
  /** Accessible name of the whole text (each part adds "part i of n"). */
  label: string;
  /** data-testid of the container; part i's textarea gets `<testId>-part-<i>`. */
  testId: string;
}

/** The editor: the parts, each in its own textarea, with its place in the text. */
export function PartsEditor({ text, onChange, label, testId }: PartsEditorProps) {
  const { t } = useTranslation('common');
  // The parts as last cut or typed, and the text they join to (the same string object we emitted).
  const [cut, setCut] = useState(() => ({ parts: splitParts(text), joined: text }));
  let current = cut;
  if (cut.joined !== text) {
    // Changed from outside: cut again (React's "adjust state while rendering" pattern).
    current = { parts: splitParts(text), joined: text };
    setCut(current);
  }
  const { parts } = current;
  const change = (e: ChangeEvent<HTMLDivElement>) => {
    const area = e.target as unknown as HTMLTextAreaElement;
    const i = Number(area.dataset.part);
    if (!Number.isInteger(i) || i < 0 || i >= parts.length) return;
    const next = [...parts];
    next[i] = area.value;
    const joined = next.join('');
    setCut({ parts: next, joined });
    onChange(joined);
  };
  return (
    <div className="parts-editor" data-testid={testId} onChange={change}>
      <p className="small muted">{t('bigText.parts', { n: parts.length })}</p>
      {parts.map((part, i) => (
        <Part key={i} i={i} value={part} label={t('bigText.partLabel', { label, i: i + 1, n: parts.length })} testId={`${testId}-part-${i}`} />
      ))}
    </div>
  );
}
