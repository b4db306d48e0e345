/** Retention settings: keep N days and/or N sessions (empty = no limit); saving prunes at once. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HistorySettings } from '../../../shared/contract/history';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { ActionError } from '../../components/common';
import { useHistoryUi } from './history-ui';

const toInput = (v: number | null) => (v === null ? '' : String(v));

/** Parses a limit input: '' → null; a whole number ≥ 1 → it; otherwise `invalid` (the message to show). */
function parseLimit(text: string, invalid: string): number | null | string {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isInteger(n) && n >= 1 ? n : invalid;
}

/**
 * The retention settings as saved and as typed, busy, the last error or status line, and `save`:
 * checks both limits, saves them, says how many requests were deleted, and reloads the list if any were.
 */
function useRetention() {
  const { t } = useTranslation('history');
  const reload = useHistoryUi((s) => s.reload);
  const [saved, setSaved] = useState<HistorySettings | null>(null);
  const [days, setDays] = useState('');
  const [sessions, setSessions] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    getApi()
      .getHistorySettings({})
      .then(
        (s) => {
          if (!live) return;
          setSaved(s);
          setDays(toInput(s.retentionDays));
          setSessions(toInput(s.retentionSessions));
        },
        (err: unknown) => live && setError(errorText(err)),
      );
    return () => {
      live = false;
    };
  }, []);

  const save = async () => {
    const retentionDays = parseLimit(days, t('retention.daysInvalid'));
    const retentionSessions = parseLimit(sessions, t('retention.sessionsInvalid'));
    const problem = [retentionDays, retentionSessions].find((v) => typeof v === 'string');
    if (problem) return setError(problem as string);
    setBusy(true);
    setError(null);
    try {
      const result = await getApi().setHistorySettings({ retentionDays: retentionDays as number | null, retentionSessions: retentionSessions as number | null });
      setSaved(result.settings);
      setStatus(result.pruned > 0 ? t('retention.pruned', { count: result.pruned }) : t('retention.nothingPruned'));
      if (result.pruned > 0) reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return { saved, days, setDays, sessions, setSessions, error, status, busy, save };
}

/** The saved limits in words for the panel's title ('' until they are loaded). */
function retentionSummary(t: TFunction<'history'>, saved: HistorySettings | null): string {
  const daysText = saved?.retentionDays != null ? t('retention.days', { count: saved.retentionDays }) : null;
  const sessionsText = saved?.retentionSessions != null ? t('retention.sessions', { count: saved.retentionSessions }) : null;
  return saved === null
    ? ''
    : daysText && sessionsText
      ? t('retention.both', { days: daysText, sessions: sessionsText })
      : (daysText ?? sessionsText ?? t('retention.keepEverything'));
}

/** The retention panel (collapsible). */
export function RetentionPanel() {
  const { t } = useTranslation('history');
  const { saved, days, setDays, sessions, setSessions, error, status, busy, save } = useRetention();
  const summary = retentionSummary(t, saved);
  return (
    <details className="history-panel" data-testid="history-retention">
      <summary>{summary ? t('retention.titleWith', { summary }) : t('retention.title')}</summary>
      <form
        className="history-panel-body history-retention-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="history-filter" htmlFor="history-retention-days">
          <span className="history-filter-label">{t('retention.keepDays')}</span>
          <input id="history-retention-days" data-testid="history-retention-days" inputMode="numeric" placeholder={t('retention.noLimit')} value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <label className="history-filter" htmlFor="history-retention-sessions">
          <span className="history-filter-label">{t('retention.keepSessions')}</span>
          <input id="history-retention-sessions" data-testid="history-retention-sessions" inputMode="numeric" placeholder={t('retention.noLimit')} value={sessions} onChange={(e) => setSessions(e.target.value)} />
        </label>
        <button type="submit" className="btn-small" disabled={busy} data-testid="history-retention-save">
          {t('retention.save')}
        </button>
        <p className="small muted history-retention-note">{t('retention.note')}</p>
        <ActionError error={error} />
        {status && (
          <p className="small" role="status" data-testid="history-retention-status">
            {status}
          </p>
        )}
      </form>
    </details>
  );
}
