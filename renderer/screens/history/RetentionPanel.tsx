/** Retention settings: keep N days and/or N sessions (empty = no limit); saving prunes at once. */
import { useEffect, useState } from 'react';
import type { HistorySettings } from '../../../shared/history';
import { getApi } from '../../api';
import { ActionError } from '../../components/common';
import { useHistoryUi } from './history-ui';

const toInput = (v: number | null) => (v === null ? '' : String(v));

/** Parses a limit input: '' → null; a whole number ≥ 1 → it; otherwise an error message. */
function parseLimit(text: string, what: string): number | null | string {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 1 ? n : `${what} must be a whole number of at least 1, or empty for no limit.`;
}

/** The retention panel (collapsible). */
export function RetentionPanel() {
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
        (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
      );
    return () => {
      live = false;
    };
  }, []);

  const save = async () => {
    const retentionDays = parseLimit(days, 'Days');
    const retentionSessions = parseLimit(sessions, 'Sessions');
    const problem = [retentionDays, retentionSessions].find((v) => typeof v === 'string');
    if (problem) return setError(problem as string);
    setBusy(true);
    setError(null);
    try {
      const result = await getApi().setHistorySettings({ retentionDays: retentionDays as number | null, retentionSessions: retentionSessions as number | null });
      setSaved(result.settings);
      setStatus(result.pruned > 0 ? `Saved. ${result.pruned} older requests were deleted.` : 'Saved. Nothing needed deleting.');
      if (result.pruned > 0) reload();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const summary =
    saved === null
      ? ''
      : saved.retentionDays === null && saved.retentionSessions === null
        ? 'keep everything'
        : [saved.retentionDays !== null && `${saved.retentionDays} days`, saved.retentionSessions !== null && `${saved.retentionSessions} sessions`].filter(Boolean).join(', ');
  return (
    <details className="history-panel" data-testid="history-retention">
      <summary>Retention{summary ? `: ${summary}` : ''}</summary>
      <form
        className="history-panel-body history-retention-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="history-filter" htmlFor="history-retention-days">
          <span className="history-filter-label">Keep days</span>
          <input id="history-retention-days" data-testid="history-retention-days" inputMode="numeric" placeholder="no limit" value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <label className="history-filter" htmlFor="history-retention-sessions">
          <span className="history-filter-label">Keep sessions</span>
          <input id="history-retention-sessions" data-testid="history-retention-sessions" inputMode="numeric" placeholder="no limit" value={sessions} onChange={(e) => setSessions(e.target.value)} />
        </label>
        <button type="submit" className="btn-small" disabled={busy} data-testid="history-retention-save">
          Save
        </button>
        <p className="small muted history-retention-note">Older sessions are deleted in the background (now, then every hour). Sessions still under review are kept.</p>
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
