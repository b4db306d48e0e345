/**
 * The way out of a -32042 "URL elicitation required" error: once the person has opened the page
 * (the item from the error is answered), "Call <tool> again" re-runs the failed call with the same
 * arguments (`rerunCall`), and the newest re-run's status is shown (state `calls`, `rerunOf`).
 * Renders nothing for other items.
 */
import { useTranslation } from 'react-i18next';
import type { ElicitationItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { useCalls, useConsole } from '../../store';

/** The "Call <tool> again" section of an opened -32042 item (`elicitation-rerun`). */
export function RerunCall({ item }: { item: ElicitationItemView }) {
  const { t } = useTranslation('queue');
  const calls = useCalls();
  const selectServer = useConsole((s) => s.selectServer);
  const setScreen = useConsole((s) => s.setScreen);
  const original = item.association.calls[0];
  const rerun = useAction(async () => {
    if (original) await getApi().rerunCall({ callId: original.callId });
  });
  const opened = item.status === 'accepted' || item.status === 'completed';
  if (item.source !== 'error' || !opened || !original) return null;
  const latest = calls.filter((c) => c.rerunOf === original.callId).at(-1);
  const status = latest && (() => {
    const time = clockTime(latest.startedAt);
    if (latest.status === 'running') return t('rerun.running', { time });
    if (latest.status === 'succeeded') return latest.result?.isError ? t('rerun.toolError', { time }) : t('rerun.succeeded', { time });
    if (latest.status === 'declined') return t('rerun.declined', { time });
    return t('rerun.failed', { time, error: latest.error?.message ?? '' });
  })();
  const button = (
    <button type="button" className="btn-primary" data-testid="elicitation-rerun-button" disabled={rerun.pending || latest?.status === 'running'} onClick={() => void rerun.run()}>
      {t('rerun.button', { name: original.name })}
    </button>
  );
  return (
    <Section title={t('rerun.title')} actions={button} testId="elicitation-rerun">
      <p className="muted small">{t('rerun.note', { name: original.name })}</p>
      <ActionError error={rerun.error} />
      {status && (
        <p data-testid="elicitation-rerun-status" data-status={latest.status}>
          {status}{' '}
          <button
            type="button"
            className="btn-link"
            onClick={() => {
              selectServer(item.serverId);
              setScreen('servers');
            }}
          >
            {t('rerun.openServer')}
          </button>
        </p>
      )}
    </Section>
  );
}
