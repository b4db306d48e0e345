/**
 * The review screen of an elicitation: which server asks and for which call, its message (as
 * sanitised Markdown), the standing warning that servers must never ask for passwords or keys
 * (red when the form looks like it does), then the form (ElicitationForm), the URL
 * (ElicitationUrl) or, once answered, the outcome and the answer sent, with Dismiss.
 */
import { useMay } from '../../viewer';
import { Trans, useTranslation } from 'react-i18next';
import type { ElicitationItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionBar, ActionError, Banner, Facts, RawJson, Section } from '../../components/common';
import { DraftTexts, NotDeliveredBanner } from '../../components/DraftTexts';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { Markdown } from '../../markdown';
import { useConsole, useItems } from '../../store';
import { ElicitationForm } from './ElicitationForm';
import { elicitationStatus } from './ElicitationModel';
import { ReviewFrame } from './ReviewFrame';
import { ElicitationUrl } from './ElicitationUrl';
import { RerunCall } from './RerunCall';
import { useElicitationShortcuts } from '../../keyboard/review-shortcuts';
import './elicitation.css';
import { useSay } from '../../i18n/say';

function SecretWarning({ item }: { item: ElicitationItemView }) {
  const { t } = useTranslation('queue');
  if (item.secretWarning) {
    return (
      <Banner tone="error" title={t('elicitation.secretTitle')} testId="elicitation-warning">
        {t('elicitation.secretBody')}
      </Banner>
    );
  }
  return (
    <Banner tone="warn" testId="elicitation-warning">
      <Trans t={t} i18nKey="elicitation.warnBody" values={{ server: item.serverId }} components={{ strong: <strong /> }} />
    </Banner>
  );
}

function AnswerView({ item }: { item: ElicitationItemView }) {
  const { t } = useTranslation('queue');
  const answer = item.answer;
  if (!answer) return <p className="muted small">{item.source === 'error' ? t('elicitation.noAnswerError') : t('elicitation.noAnswer')}</p>;
  const content = answer.content ?? {};
  const names = Object.keys(content);
  return (
    <div data-testid="elicitation-answer">
      <Facts rows={[[t('elicitation.action'), <span className="mono">{answer.action}</span>]]} />
      {names.length > 0 && (
        <table className="elicitation-answer-table">
          <tbody>
            {names.map((n) => (
              <tr key={n}>
                <th scope="row" className="mono">
                  {n}
                </th>
                <td className="mono">{Array.isArray(content[n]) ? (content[n] as string[]).join(', ') : String(content[n])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Finished({ item }: { item: ElicitationItemView }) {
  const { t } = useTranslation('queue');
  const say = useSay();
  const entries = useItems();
  const selectItem = useConsole((s) => s.selectItem);
  const look = elicitationStatus(item.status);
  const mayDismiss = useMay('decide', item.serverId);
  const dismiss = useAction(async () => {
    const index = entries.findIndex((e) => e.id === item.id);
    await getApi().dismissItem({ itemId: item.id });
    const next = entries[index + 1] ?? entries[index - 1];
    selectItem(next && next.id !== item.id ? next.id : null);
  });
  return (
    <>
      <Banner tone={look.tone === 'warn' ? 'warn' : look.tone} title={look.label} testId="elicitation-outcome">
        {item.outcome && say(item.outcome.ui, item.outcome.message)}
        {item.outcome && <span className="muted">{t('header.at', { time: clockTime(item.outcome.at) })}</span>}
      </Banner>
      {item.outcome?.stopped && <NotDeliveredBanner cause={item.outcome.stopped} at={item.outcome.at} kept={item.draft?.form !== undefined} />}
      <DraftTexts draft={item.status !== 'accepted' && item.status !== 'completed' ? item.draft : item.draft?.late && { late: item.draft.late }} />
      <Section title={t('elicitation.whatAnswered')}>
        <AnswerView item={item} />
      </Section>
      <ActionBar>
        <ActionError error={dismiss.error} />
        {mayDismiss && (
          <button type="button" data-testid="dismiss-item" disabled={dismiss.pending} onClick={() => void dismiss.run()}>
            {t('actions.dismiss')}
          </button>
        )}
      </ActionBar>
    </>
  );
}

/** The review screen of one elicitation item (`elicitation-review`). */
export function ElicitationReview({ item }: { item: ElicitationItemView }) {
  const { t } = useTranslation('queue');
  const params = item.params;
  const waiting = item.status === 'awaiting_input';
  useElicitationShortcuts(item.id, waiting);
  return (
    <ReviewFrame item={item} className="elicitation-review" testId="elicitation-review" data={{ 'data-mode': params.mode ?? 'form', 'data-status': item.status }}>
      <SecretWarning item={item} />
      <Section title={t('elicitation.message')}>
        <div className="elicitation-message" data-testid="elicitation-message">
          <Markdown text={params.message || t('list.noMessage')} />
        </div>
      </Section>
      <RawJson value={params} label={t('request.rawOriginal')} />
      {waiting && params.mode === 'url' && <ElicitationUrl item={item} params={params} />}
      {waiting && params.mode !== 'url' && <ElicitationForm item={item} params={params} />}
      {!waiting && params.mode === 'url' && (
        <Section title={t('elicitation.page')}>
          <code className="elicitation-full-url mono">{params.url}</code>
        </Section>
      )}
      {!waiting && <RerunCall item={item} />}
      {!waiting && <Finished item={item} />}
    </ReviewFrame>
  );
}
