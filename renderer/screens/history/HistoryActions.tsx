/**
 * Actions on sessions: export the selected or the filtered ones (JSONL, Markdown, HTML; saved as a
 * download, which works in the browser and in Electron), and delete the selected ones after an
 * inline confirmation. Both work on whole sessions: a ticked row stands for its conversation.
 */
import { useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat, type ExportedFile, type HistoryFilter } from '../../../shared/history';
import { getApi } from '../../api';
import { ActionError } from '../../components/common';
import { useConsole } from '../../store';
import { useHistoryUi } from './history-ui';

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

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The export and delete controls. `filter` is what the list shows now. */
export function HistoryActions({ filter, total }: { filter: HistoryFilter; total: number | null }) {
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
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  const exportWith = (input: { ids: string[] } | { filter: HistoryFilter }) =>
    run(async () => {
      const file = await getApi().exportHistory({ ...input, format });
      saveFile(file);
      return `Exported ${file.sessions} session${file.sessions === 1 ? '' : 's'} (${file.entries} request${file.entries === 1 ? '' : 's'}) to ${file.filename}`;
    });
  const remove = () =>
    run(async () => {
      const { deleted, sessions } = await getApi().deleteHistory({ ids });
      setConfirming(false);
      clearSelection();
      if (selectedHistoryId && selected[selectedHistoryId]) selectHistory(null);
      reload();
      return `Deleted ${sessions} session${sessions === 1 ? '' : 's'} (${deleted} request${deleted === 1 ? '' : 's'}).`;
    });

  return (
    <div className="history-actions" data-testid="history-actions">
      <div className="history-actions-row">
        <label className="history-filter" htmlFor="history-export-format">
          <span className="history-filter-label">Export as</span>
          <select id="history-export-format" data-testid="history-export-format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
            {EXPORT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn-small" data-testid="history-export-selected" disabled={busy || ids.length === 0} onClick={() => void exportWith({ ids })}>
          Export selected ({ids.length})
        </button>
        <button type="button" className="btn-small" data-testid="history-export-filtered" disabled={busy || !total} onClick={() => void exportWith({ filter })}>
          Export all shown ({total ?? 0})
        </button>
      </div>
      <div className="history-actions-row">
        <span className="small muted" data-testid="history-selection">
          {ids.length === 0 ? 'Tick rows to select their sessions.' : `${ids.length} selected · whole sessions`}
        </span>
        {ids.length > 0 && (
          <button type="button" className="btn-small" onClick={clearSelection}>
            Clear selection
          </button>
        )}
        <button type="button" className="btn-small btn-danger" data-testid="history-delete" disabled={busy || ids.length === 0} onClick={() => setConfirming(true)}>
          Delete selected…
        </button>
      </div>
      {confirming && (
        <div className="banner tone-warn history-confirm" role="alertdialog" aria-label="Confirm delete" data-testid="history-delete-confirm">
          <span>
            Delete the sessions of {ids.length} selected request{ids.length === 1 ? '' : 's'} — every request in them — for good?
          </span>
          <button type="button" className="btn-small btn-danger" data-testid="history-delete-yes" disabled={busy} onClick={() => void remove()}>
            Delete
          </button>
          <button type="button" className="btn-small" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      <ActionError error={error} />
      {status && (
        <p className="small muted" role="status" data-testid="history-action-status">
          {status}
        </p>
      )}
    </div>
  );
}
