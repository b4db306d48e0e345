/** Readable diffs (the `diff` package): word diffs of texts and a table of changed fields. */
import type { ReactNode } from 'react';
import { diffLines, diffWords, type Change } from 'diff';
import { useTranslation } from 'react-i18next';

const LONG_TEXT = 20_000;

/** Inline diff of two texts: removed words struck through in red, added words in green. */
export function TextDiff({ before, after, testId }: { before: string; after: string; testId?: string }) {
  const { t } = useTranslation('history');
  if (before === after) {
    return (
      <div className="diff unchanged" data-testid={testId}>
        <pre className="pre-text">{after || <span className="muted">{t('diff.empty')}</span>}</pre>
      </div>
    );
  }
  const changes: Change[] = before.length + after.length > LONG_TEXT ? diffLines(before, after) : diffWords(before, after);
  return (
    <div className="diff" data-testid={testId}>
      <pre className="pre-text">
        {changes.map((c, i) =>
          c.added ? (
            <ins key={i}>{c.value}</ins>
          ) : c.removed ? (
            <del key={i}>{c.value}</del>
          ) : (
            <span key={i}>{c.value}</span>
          ),
        )}
      </pre>
    </div>
  );
}

/** One row of a field comparison. */
export interface FieldChange {
  field: string;
  before: ReactNode;
  after: ReactNode;
  changed: boolean;
}

/** A compact table of fields before → after; changed rows are highlighted. `providerCall`: the caller of a provider call asked, not a server. */
export function FieldChanges({ rows, testId, providerCall }: { rows: FieldChange[]; testId?: string; providerCall?: boolean }) {
  const { t } = useTranslation('history');
  return (
    <table className="field-changes" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t('diff.field')}</th>
          <th scope="col">{providerCall ? t('diff.callerAsked') : t('diff.serverAsked')}</th>
          <th scope="col">{t('diff.sent')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.field} className={r.changed ? 'is-changed' : undefined}>
            <th scope="row">{r.field}</th>
            <td>{r.before}</td>
            <td>
              {r.after}
              {r.changed && <span className="badge tone-warn">{t('diff.changed')}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
