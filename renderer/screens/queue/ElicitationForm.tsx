/**
 * Form mode of an elicitation: the form generated from the flat requestedSchema (defaults
 * applied), checked with `validateElicitationContent` before anything is sent (errors per field),
 * and the three answers the spec defines: Accept (with the content), Decline, Cancel.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ElicitFormParams } from '../../../shared/contract/elicitation';
import type { ElicitationItemView } from '../../../shared/contract/state';
import type { UiText } from '../../../shared/contract/ui-text';
import { useSay } from '../../i18n/say';
import { getApi } from '../../api';
import { ActionBar, ActionError, Section } from '../../components/common';
import { useViewer, viewerMay } from '../../viewer';
import { WatchOnly } from './ReviewActionBar';
import { useAction, type ActionState } from '../../hooks';
import { useShortcutHint, withKeys } from '../../keyboard/registry';
import { ElicitationField } from './ElicitationFields';
import { buildAnswer, initialRawValues, type RawValue, type RawValues } from './ElicitationModel';
import { flushDraft } from './autosave';
import { useConsole } from '../../store';
import { decideHere, useDecisionsOff } from './review-hold';

/**
 * The form's values (what the person typed, else what main kept, else the schema's defaults), the
 * errors per field from the last Accept, changing a value (which clears its error), and the answer:
 * Accept checks the values first (focusing the first field in error), Decline and Cancel send at once.
 */
function useElicitationAnswer(item: ElicitationItemView, schema: ElicitFormParams['requestedSchema']) {
  // What the person typed (the one per-item draft store; main keeps it too, e.g. across a reload), else the schema's defaults.
  const edited = useConsole((s) => s.drafts[item.id]?.form);
  const setFormDraft = useConsole((s) => s.setFormDraft);
  const [initial] = useState<RawValues>(() => item.draft?.form ?? initialRawValues(schema));
  const raw: RawValues = edited ?? initial;
  const [errors, setErrors] = useState<Record<string, UiText>>({});
  const names = Object.keys(schema.properties);

  // An answer names the version of the question shown here; main refuses it about any other.
  const version = item.contentVersion;
  const off = useDecisionsOff() || !version;
  const respond = useAction(async (action: 'accept' | 'decline' | 'cancel') => {
    if (!version || off) return;
    flushDraft(item.id);
    if (action !== 'accept') {
      await decideHere(item, () => getApi().respondElicitation({ itemId: item.id, version, action }));
      return;
    }
    const built = buildAnswer(schema, raw);
    if (!built.ok) {
      setErrors(built.errors);
      const first = names.find((n) => built.errors[n]);
      if (first) document.getElementById(`elicit-${first}`)?.focus();
      return;
    }
    setErrors({});
    await decideHere(item, () => getApi().respondElicitation({ itemId: item.id, version, action: 'accept', content: built.content }));
  });

  const change = (name: string, value: RawValue) => {
    setFormDraft(item.id, { ...raw, [name]: value }); // saved to main (and history) within a second, should the server stop waiting
    if (errors[name]) {
      setErrors((e) => {
        const next = { ...e };
        delete next[name];
        return next;
      });
    }
  };
  return { names, raw, errors, respond, change, off };
}

/** Cancel, Decline and Accept (the form's submit button), with their shortcuts; the error or how many fields need fixing. */
function ElicitationActionBar({ respond, problem, off, serverId }: { respond: ActionState<['accept' | 'decline' | 'cancel']>; problem: string | null; off: boolean; serverId: string }) {
  const { t } = useTranslation('queue');
  const acceptHint = useShortcutHint('elicitation.accept');
  const declineHint = useShortcutHint('elicitation.decline');
  const cancelHint = useShortcutHint('elicitation.cancel');
  const viewer = useViewer();
  if (!viewerMay(viewer, 'decide', serverId)) return <WatchOnly role={viewer!.role} serverId={serverId} />;
  return (
    <ActionBar>
      <ActionError error={problem ?? respond.error} />
      <button type="button" data-testid="elicitation-cancel" disabled={respond.pending || off} onClick={() => void respond.run('cancel')} {...withKeys(t('elicitation.cancelTitle'), cancelHint)}>
        {t('elicitation.cancel')}
      </button>
      <button type="button" className="btn-danger" data-testid="elicitation-decline" disabled={respond.pending || off} onClick={() => void respond.run('decline')} {...withKeys(t('elicitation.declineTitle'), declineHint)}>
        {t('elicitation.decline')}
      </button>
      <button type="submit" className="btn-primary" data-testid="elicitation-accept" disabled={respond.pending || off} {...acceptHint}>
        {t('elicitation.accept')}
      </button>
    </ActionBar>
  );
}

/** The generated form and its Accept / Decline / Cancel bar. */
export function ElicitationForm({ item, params }: { item: ElicitationItemView; params: ElicitFormParams }) {
  const { t } = useTranslation('queue');
  const schema = params.requestedSchema;
  const { names, raw, errors, respond, change, off } = useElicitationAnswer(item, schema);
  const say = useSay();
  const required = new Set(schema.required ?? []);
  const open = Object.keys(errors).length;
  const problem = open ? t('elicitation.problem', { count: open }) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void respond.run('accept');
  };

  return (
    <form className="elicitation-form" noValidate onSubmit={submit} aria-label={t('elicitation.formLabel', { server: item.serverId })}>
      <Section title={t('elicitation.asksFor', { count: names.length })} testId="elicitation-form">
        {names.length === 0 ? (
          <p className="muted small">{t('elicitation.noFields')}</p>
        ) : (
          <div className="elicitation-fields">
            {names.map((name) => (
              <ElicitationField
                key={name}
                name={name}
                field={schema.properties[name]!}
                required={required.has(name)}
                value={raw[name]}
                error={errors[name] && say(errors[name])}
                onChange={(v) => change(name, v)}
              />
            ))}
          </div>
        )}
        {required.size > 0 && (
          <p className="muted small">
            <span className="required">*</span> {t('elicitation.required')}
          </p>
        )}
      </Section>
      <ElicitationActionBar respond={respond} problem={problem} off={off} serverId={item.serverId} />
    </form>
  );
}
