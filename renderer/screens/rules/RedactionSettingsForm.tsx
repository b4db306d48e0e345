/**
 * Redaction settings on the Rules screen: the person's extra patterns (id, label, regular
 * expression), the region national phone numbers are read in, and whether history keeps the
 * unredacted original of every request (by default only what was sent).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomPatternSchema, type CustomPattern } from '../../../shared/domain/sensitive-data';
import type { RulesFile } from '../../../shared/contract/rules';
import { Section } from '../../components/common';
import { PatternProblem, usePatternProblem } from './PatternProblem';

/** The form; `save` stores a changed copy of the rules file. */
export function RedactionSettingsForm({ file, save }: { file: RulesFile; save: (next: RulesFile) => Promise<void> }) {
  const { t } = useTranslation('rules');
  const r = file.redaction;
  const [draft, setDraft] = useState({ id: '', label: '', regex: '' });
  const [region, setRegion] = useState(r.phoneRegion ?? '');
  const checked = CustomPatternSchema.safeParse(draft);
  const regexProblem = usePatternProblem(draft.regex);
  const put = (redaction: Partial<RulesFile['redaction']>) => save({ ...file, redaction: { ...r, ...redaction } });
  const remove = (p: CustomPattern) => void put({ patterns: r.patterns.filter((x) => x.id !== p.id) });
  return (
    <Section title={t('redaction.title')} testId="redaction-settings">
      <p className="small muted">{t('redaction.builtIn')}</p>
      {r.patterns.length > 0 && (
        <ul className="plain-list">
          {r.patterns.map((p) => (
            <li key={p.id}>
              <code>{`[REDACTED:${p.id}]`}</code> {p.label} <code>{`/${p.regex}/`}</code>{' '}
              <button type="button" className="btn-link" aria-label={t('redaction.removeAria', { id: p.id })} onClick={() => remove(p)}>
                {t('redaction.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="inline-fields"
        onSubmit={(e) => {
          e.preventDefault();
          if (!checked.success) return;
          void put({ patterns: [...r.patterns.filter((x) => x.id !== checked.data.id), checked.data] }).then(() => setDraft({ id: '', label: '', regex: '' }));
        }}
      >
        <input aria-label={t('redaction.idAria')} placeholder={t('redaction.idPlaceholder')} value={draft.id} onChange={(e) => setDraft({ ...draft, id: e.target.value })} />
        <input aria-label={t('redaction.labelAria')} placeholder={t('redaction.labelPlaceholder')} value={draft.label} onChange={(e) => setDraft({ ...draft, label: e.target.value })} />
        <input aria-label={t('redaction.regexAria')} aria-invalid={!!regexProblem} placeholder={t('redaction.regexPlaceholder')} value={draft.regex} onChange={(e) => setDraft({ ...draft, regex: e.target.value })} />
        <button type="submit" className="btn-small" disabled={!checked.success}>
          {t('redaction.add')}
        </button>
      </form>
      <PatternProblem message={regexProblem} testId="redaction-regex-error" />
      {!checked.success && draft.regex && !regexProblem && <p className="small warn-text">{checked.error.issues[0]?.message}</p>}
      <div className="inline-fields">
        <label>
          {t('redaction.phoneRegion')}{' '}
          <input aria-label={t('redaction.phoneRegion')} className="narrow-input" placeholder={t('redaction.phoneRegionPlaceholder')} value={region} onChange={(e) => setRegion(e.target.value.toUpperCase())} />
        </label>
        <button type="button" className="btn-small" disabled={!/^([A-Z]{2})?$/.test(region)} onClick={() => void put({ phoneRegion: region || undefined })}>
          {t('redaction.saveRegion')}
        </button>
        <label className="toggle">
          <input type="checkbox" checked={r.keepOriginals} onChange={(e) => void put({ keepOriginals: e.target.checked })} /> {t('redaction.keepOriginals')}
        </label>
      </div>
    </Section>
  );
}
