/**
 * Actions on sessions: export the selected or the filtered ones (JSONL, Markdown, HTML; saved as a
 * download, which works in the browser and in Electron), and delete the selected ones after an
 * inline confirmation. Both work on whole sessions: a ticked row stands for its conversation.
 */
import { useMay } from '../../viewer';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EXPORT_FORMATS, type ExportFormat, type ExportedFile, type HistoryFilter } from '../../../shared/contract/history';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { ActionError } from '../../components/common';
import { useConsole } from '../../store';
import { useHistoryUi } from './history-ui';

/** Format names: product and file-format names, the same in every language. */
const FORMAT_LABELS: Record<ExportFormat, string> = { jsonl: 'JSONL', markdown: 'Markdown', html: 'HTML' };

/** Saves `file` through a Blob download. */
export function saveFile(file: ExportedFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The actions' state and steps: the export format, busy, the last error or status line, the delete
 * confirmation, the ticked sessions, and export (of ids or of a filter) and delete of the ticked ones.
 */
function useHistoryActions() {
  const { t } = useTranslation('history');
  const selected = useHistoryUi((s) => s.selected);
  const clearSelection = useHistoryUi((s) => s.clearSelection);
  const reload = useHistoryUi((s) => s.reload);
  const selectedHistoryId = useConsole((s) => s.selectedHistoryId);
  const selectHistory = useConsole((s) => s.selectHistory);
  const [format, setFormat] = useState<ExportFormat>('jsonl');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ids = Object.keys(selected);

  const run = async (what: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      setStatus(await what());
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const exportWith = (input: { ids: string[] } | { filter: HistoryFilter }) =>
    run(async () => {
      const file = await getApi().exportHistory({ ...input, format });
      saveFile(file);
      return t('actions.exported', { sessions: t('actions.sessions', { count: file.sessions }), requests: t('actions.requests', { count: file.entries }), filename: file.filename });
    });
  const remove = () =>
    run(async () => {
      const { deleted, sessions } = await getApi().deleteHistory({ ids });
      setConfirming(false);
      clearSelection();
      if (selectedHistoryId && selected[selectedHistoryId]) selectHistory(null);
      reload();
      return t('actions.deleted', { sessions: t('actions.sessions', { count: sessions }), requests: t('actions.requests', { count: deleted }) });
    });
  return { ids, format, setFormat, busy, error, status, confirming, setConfirming, clearSelection, exportWith, remove };
}

/** The actions' state, as {@link useHistoryActions} returns it. */
type Actions = ReturnType<typeof useHistoryActions>;

/** The format select, Export selected and Export shown (the `total` sessions `filter` matches). */
function ExportRow({ actions, filter, total }: { actions: Actions; filter: HistoryFilter; total: number | null }) {
  const { t } = useTranslation('history');
  const { ids, busy, format, setFormat, exportWith } = actions;
  return (
    <div className="history-actions-row">
      <label className="history-filter" htmlFor="history-export-format">
        <span className="history-filter-label">{t('actions.exportAs')}</span>
        <select id="history-export-format" data-testid="history-export-format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
          {EXPORT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="btn-small" data-testid="history-export-selected" disabled={busy || ids.length === 0} onClick={() => void exportWith({ ids })}>
        {t('actions.exportSelected', { count: ids.length })}
      </button>
      <button type="button" className="btn-small" data-testid="history-export-filtered" disabled={busy || !total} onClick={() => void exportWith({ filter })}>
        {t('actions.exportShown', { count: total ?? 0 })}
      </button>
    </div>
  );
}

/** How many rows are ticked, Clear selection, and Delete selected (which asks first). */
function SelectionRow({ actions }: { actions: Actions }) {
  const { t } = useTranslation('history');
  const { ids, busy, clearSelection } = actions;
  return (
    <div className="history-actions-row">
      <span className="small muted" data-testid="history-selection">
        {ids.length === 0 ? t('actions.tickRows') : t('actions.selected', { count: ids.length })}
      </span>
      {ids.length > 0 && (
        <button type="button" className="btn-small" onClick={clearSelection}>
          {t('actions.clearSelection')}
        </button>
      )}
      <button type="button" className="btn-small btn-danger" data-testid="history-delete" disabled={busy || ids.length === 0} onClick={() => actions.setConfirming(true)}>
        {t('actions.deleteSelected')}
      </button>
    </div>
  );
}

/** The inline confirmation before deleting the ticked sessions. */
function DeleteConfirm({ actions }: { actions: Actions }) {
  const { t } = useTranslation('history');
  return (
    <div className="banner tone-warn history-confirm" role="alertdialog" aria-label={t('actions.confirmLabel')} data-testid="history-delete-confirm">
      <span>{t('actions.confirm', { count: actions.ids.length })}</span>
      <button type="button" className="btn-small btn-danger" data-testid="history-delete-yes" disabled={actions.busy} onClick={() => void actions.remove()}>
        {t('actions.delete')}
      </button>
      <button type="button" className="btn-small" onClick={() => actions.setConfirming(false)}>
        {t('actions.cancel')}
      </button>
    </div>
  );
}

/** The export and delete controls. `filter` is what the list shows now; `total` how many rows it matches (null until known). */
export function HistoryActions({ filter, total }: { filter: HistoryFilter; total: number | null }) {
  const actions = useHistoryActions();
  const { error, status } = actions;
  const mayExport = useMay('audit');
  const mayDelete = useMay('admin');
  if (!mayExport && !mayDelete) return null;
  return (
    <div className="history-actions" data-testid="history-actions">
      {mayExport && <ExportRow actions={actions} filter={filter} total={total} />}
      {mayDelete && <SelectionRow actions={actions} />}
      {actions.confirming && <DeleteConfirm actions={actions} />}
      <ActionError error={error} />
      {status && (
        <p className="small muted" role="status" data-testid="history-action-status">
          {status}
        </p>
      )}
    </div>
  );
}
