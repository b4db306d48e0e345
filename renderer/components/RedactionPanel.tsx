/**
 * Sensitive data in a request under review (shared/domain/sensitive-data.ts detectors plus the person's own
 * patterns): each finding highlighted in its context, with one-click redaction (a typed placeholder
 * such as `[REDACTED:email]`) per finding or all at once. Redacting edits the request draft, so the
 * person sees and can revert it like any edit. History keeps what was sent; the unredacted original
 * only when the person ticks "Keep the unredacted original".
 */
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { placeholderFor, redactText } from '../../shared/domain/redaction';
import { type Finding } from '../../shared/domain/sensitive-data';
import { textKey } from '../../shared/contract/drafts';
import { contentBlocks, type CreateMessageParams } from '../../shared/contract/sampling';
import type { SamplingItemView } from '../../shared/contract/state';
import { getApi } from '../api';
import { useAction } from '../hooks';
import { i18n } from '../i18n';
import { useConsole, type RequestDraft } from '../store';
import { ActionError } from './common';
import { useSensitiveFindings } from './sensitive-findings';
import '../screens/rules/rules.css';
import { sayEnglish } from '../i18n/say';

interface Place {
  /** Draft key (`system`, or `textKey`, shared/contract/drafts.ts): every text a person can edit. */
  key: string;
  label: string;
  text: string;
}

function places(params: CreateMessageParams, draft: RequestDraft): Place[] {
  const out: Place[] = [{ key: 'system', label: i18n.t('common:redaction.systemPrompt'), text: draft.systemPrompt }];
  params.messages.forEach((m, i) =>
    contentBlocks(m.content).forEach((b, j) => {
      const key = textKey(i, j);
      if (b.type === 'text') out.push({ key, label: i18n.t('common:redaction.message', { n: i + 1 }), text: draft.texts[key] ?? b.text });
      if (b.type === 'tool_result') {
        b.content.forEach((inner, k) => {
          const innerKey = textKey(i, j, k);
          if (inner.type === 'text' && typeof inner.text === 'string') out.push({ key: innerKey, label: i18n.t('common:redaction.toolResult', { n: i + 1 }), text: draft.texts[innerKey] ?? inner.text });
        });
      }
    }),
  );
  return out;
}

/** 24 characters either side of a finding, the finding marked. */
function Context({ text, f }: { text: string; f: Finding }) {
  const from = Math.max(0, f.start - 24);
  const to = Math.min(text.length, f.end + 24);
  return (
    <span className="context">
      {from > 0 && '…'}
      {text.slice(from, f.start)}
      <mark>{f.value}</mark>
      {text.slice(f.end, to)}
      {to < text.length && '…'}
    </span>
  );
}

/** A finding and the place it was found in. */
type Found = { place: Place; f: Finding };

/** The draft patch that redacts `targets`: each editable text with its findings replaced by placeholders. */
function redactionPatch(params: CreateMessageParams, draft: RequestDraft, targets: Found[]): Partial<RequestDraft> {
  const texts = { ...draft.texts };
  let systemPrompt = draft.systemPrompt;
  const byKey = new Map<string, { text: string; findings: Finding[] }>();
  const current = new Map(places(params, draft).map((p) => [p.key, p.text]));
  for (const { place, f } of targets) {
    // Findings of a text typed on since they were made wait for the next check: nothing typed is lost.
    if (current.get(place.key) !== place.text) continue;
    const entry = byKey.get(place.key) ?? { text: place.text, findings: [] };
    entry.findings.push(f);
    byKey.set(place.key, entry);
  }
  for (const [key, { text, findings }] of byKey) {
    if (key === 'system') systemPrompt = redactText(text, findings);
    else texts[key] = redactText(text, findings);
  }
  return { texts, systemPrompt };
}

/**
 * The findings in the draft (with the person's patterns and phone region), whether some text is still
 * being checked, and whether a placeholder is already in the draft.
 */
function useFindings(params: CreateMessageParams, draft: RequestDraft) {
  const settings = useConsole((s) => s.mirror?.policy?.rules.redaction);
  const options = { patterns: settings?.patterns ?? [], phoneRegion: settings?.phoneRegion };
  // Long texts are checked off the main thread (sensitive-findings.ts): `undefined` while checking.
  // The findings follow the draft in a deferred render, so a keystroke paints before the check
  // (looking up a megabyte-long text costs milliseconds); they catch up a frame later.
  const settled = useDeferredValue(draft);
  const all = places(params, settled);
  const results = useSensitiveFindings(all.map((p) => p.text), options);
  const checking = results.some((r) => r === undefined);
  const found: Found[] = all.flatMap((p, i) => (results[i] ?? []).map((f) => ({ place: p, f })));
  const redacted = [settled.systemPrompt, ...Object.values(settled.texts)].some((text) => /\[REDACTED:[^\]]+\]/.test(text));
  return { found, checking, redacted };
}

/** One finding: its kind, where, its context, and Redact. */
function FindingRow({ found: { place, f }, n, onRedact }: { found: Found; n: number; onRedact: () => void }) {
  const { t } = useTranslation('common');
  return (
    <li className="redaction-item" data-testid={`finding-${n}`}>
      <span>
        <strong>{sayEnglish(i18n, f.label)}</strong> <span className="muted small">{t('redaction.in', { place: place.label })}</span> <Context text={place.text} f={f} />
      </span>
      <button type="button" className="btn-small" data-testid={`redact-${n}`} aria-label={t('redaction.redactLabel', { what: sayEnglish(i18n, f.label), place: place.label })} onClick={onRedact}>
        {t('redaction.redact', { placeholder: placeholderFor(f) })}
      </button>
    </li>
  );
}

/**
 * Whether History keeps the unredacted original of this item, and the action telling main. Held by the
 * panel (not the checkbox) so it survives the panel rendering nothing for a while.
 */
function useKeepOriginal(itemId: string) {
  const [keep, setKeep] = useState(false);
  const action = useAction(async (value: boolean) => {
    await getApi().setKeepOriginal({ itemId, keep: value });
    setKeep(value);
  });
  return { keep, action };
}

/** The "Keep the unredacted original" checkbox and the error of its last change. */
function KeepOriginal({ keep, action }: ReturnType<typeof useKeepOriginal>) {
  const { t } = useTranslation('common');
  return (
    <>
      <label className="toggle small">
        <input type="checkbox" data-testid="keep-original" checked={keep} disabled={action.pending} onChange={(e) => void action.run(e.target.checked)} />{' '}
        {t('redaction.keepOriginal')}
      </label>
      <ActionError error={action.error} />
    </>
  );
}

/** The panel; renders nothing when the request holds no sensitive data. */
export function RedactionPanel({ item, params, draft, onChange }: { item: SamplingItemView; params: CreateMessageParams; draft: RequestDraft; onChange: (patch: Partial<RequestDraft>) => void }) {
  const { t } = useTranslation('common');
  const keep = useKeepOriginal(item.id);
  const { found, checking, redacted } = useFindings(params, draft);
  if (found.length === 0 && !redacted && !checking) return null;

  const apply = (targets: Found[]) => onChange(redactionPatch(params, draft, targets));

  return (
    <section className="section redaction" data-testid="redaction-panel" aria-label={t('redaction.label')}>
      <header className="section-head">
        <h3>{t('redaction.title', { count: found.length })}</h3>
        {found.length > 0 && (
          <button type="button" className="btn-small" data-testid="redact-all" onClick={() => apply(found)}>
            {t('redaction.redactAll')}
          </button>
        )}
      </header>
      {checking && <p className="small muted" data-testid="redaction-checking">{t('bigText.checking')}</p>}
      {found.length === 0 && !checking && <p className="small">{t('redaction.allRedacted')}</p>}
      <ul className="redaction-list">
        {found.map((x, n) => (
          <FindingRow key={`${x.place.label}-${x.place.key}-${x.f.start}`} found={x} n={n} onRedact={() => apply([x])} />
        ))}
      </ul>
      <KeepOriginal {...keep} />
    </section>
  );
}
