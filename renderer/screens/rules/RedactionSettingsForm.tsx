/**
 * Redaction settings on the Rules screen: the person's extra patterns (id, label, regular
 * expression), the region national phone numbers are read in, and whether history keeps the
 * unredacted original of every request (by default only what was sent).
 */
import { useState } from 'react';
import { CustomPatternSchema, type CustomPattern } from '../../../shared/redaction';
import type { RulesFile } from '../../../shared/rules';
import { Section } from '../../components/common';

/** The form; `save` stores a changed copy of the rules file. */
export function RedactionSettingsForm({ file, save }: { file: RulesFile; save: (next: RulesFile) => Promise<void> }) {
  const r = file.redaction;
  const [draft, setDraft] = useState({ id: '', label: '', regex: '' });
  const [region, setRegion] = useState(r.phoneRegion ?? '');
  const checked = CustomPatternSchema.safeParse(draft);
  const put = (redaction: Partial<RulesFile['redaction']>) => save({ ...file, redaction: { ...r, ...redaction } });
  const remove = (p: CustomPattern) => void put({ patterns: r.patterns.filter((x) => x.id !== p.id) });
  return (
    <Section title="Redaction" testId="redaction-settings">
      <p className="small muted">
        Built in: API keys and tokens (OpenAI, Anthropic, GitHub, GitLab, AWS, Google, Slack, Stripe, npm, SendGrid, Hugging Face, JWT, Bearer), private keys,
        passwords in URLs and assignments, e-mail addresses, phone numbers, card numbers (Luhn).
      </p>
      {r.patterns.length > 0 && (
        <ul className="plain-list">
          {r.patterns.map((p) => (
            <li key={p.id}>
              <code>[REDACTED:{p.id}]</code> {p.label} <code>/{p.regex}/</code>{' '}
              <button type="button" className="btn-link" aria-label={`Remove pattern ${p.id}`} onClick={() => remove(p)}>
                Remove
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
        <input aria-label="Pattern id" placeholder="id, e.g. employee-id" value={draft.id} onChange={(e) => setDraft({ ...draft, id: e.target.value })} />
        <input aria-label="Pattern label" placeholder="label" value={draft.label} onChange={(e) => setDraft({ ...draft, label: e.target.value })} />
        <input aria-label="Regular expression" placeholder="regular expression, e.g. EMP-\d{6}" value={draft.regex} onChange={(e) => setDraft({ ...draft, regex: e.target.value })} />
        <button type="submit" className="btn-small" disabled={!checked.success}>
          Add pattern
        </button>
      </form>
      {!checked.success && draft.regex && <p className="small warn-text">{checked.error.issues[0]?.message}</p>}
      <div className="inline-fields">
        <label>
          Phone region{' '}
          <input aria-label="Phone region" className="narrow-input" placeholder="e.g. US" value={region} onChange={(e) => setRegion(e.target.value.toUpperCase())} />
        </label>
        <button type="button" className="btn-small" disabled={!/^([A-Z]{2})?$/.test(region)} onClick={() => void put({ phoneRegion: region || undefined })}>
          Save region
        </button>
        <label className="toggle">
          <input type="checkbox" checked={r.keepOriginals} onChange={(e) => void put({ keepOriginals: e.target.checked })} /> Keep unredacted originals in history
        </label>
      </div>
    </Section>
  );
}
