/**
 * The audit trail in History (collapsible): its newest records — who acted, what happened, about
 * what — paged back on request, and Verify, which walks the whole chain against the configured
 * anchors as `mcp-approval-console audit verify` does and says whether it is intact or where it
 * was changed. Loaded only when opened.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AuditActor, AuditRecordView, AuditVerifyReport } from '../../../shared/contract/audit';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { ActionError } from '../../components/common';
import { compactJson, dateTime, formatNumber } from '../../format';
import { sayWith } from '../../i18n/say';

const PAGE = 50;

/** Who acted, in words. */
function actorText(t: TFunction<'history'>, actor: AuditActor): string {
  if (actor.kind === 'rule') return t('audit.actorRule', { name: actor.name ?? actor.id ?? '' });
  if (actor.kind === 'console') return t('audit.actorConsole');
  return actor.name ?? actor.id ?? t('audit.actorPerson');
}

/** The records loaded so far, newest first; `more` loads the next older page. */
function useAuditPages() {
  const [records, setRecords] = useState<AuditRecordView[]>([]);
  const [headSeq, setHeadSeq] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async (before?: number) => {
    try {
      const page = await getApi().listAudit({ limit: PAGE, ...(before !== undefined && { before }) });
      setHeadSeq(page.head.seq);
      setRecords((old) => (before === undefined ? page.records : [...old, ...page.records]));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  const oldest = records.at(-1)?.seq;
  return { records, headSeq, error, reload: () => load(), more: oldest !== undefined && oldest > 1 ? () => load(oldest) : undefined };
}

/** The verification's outcome in one line. */
function VerifyResult({ report }: { report: AuditVerifyReport }) {
  const { t, i18n } = useTranslation('history');
  const first = report.findings[0];
  if (first) return <p className="small audit-broken" role="alert" data-testid="audit-verify-result">{t('audit.broken', { finding: sayWith(i18n, first.ui, first.message) })}</p>;
  const base = t('audit.intact', { records: formatNumber(report.records), anchors: report.anchors.checked });
  return (
    <p className="small audit-intact" role="status" data-testid="audit-verify-result">
      {report.anchors.newest ? `${base} ${t('audit.newestAnchor', { seq: report.anchors.newest.seq, time: dateTime(report.anchors.newest.at) })}` : `${base} ${t('audit.noAnchors')}`}
    </p>
  );
}

/** The audit panel. */
export function AuditPanel() {
  const { t } = useTranslation('history');
  const pages = useAuditPages();
  const [report, setReport] = useState<AuditVerifyReport | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    setVerifyError(null);
    try {
      setReport(await getApi().verifyAudit({}));
      await pages.reload();
    } catch (err) {
      setVerifyError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="history-panel" data-testid="history-audit" onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && void pages.reload()}>
      <summary>{pages.headSeq === null ? t('audit.title') : t('audit.titleWith', { count: pages.headSeq })}</summary>
      <div className="history-panel-body audit-body">
        <div className="audit-actions">
          <button type="button" className="btn-small" disabled={busy} onClick={() => void verify()} data-testid="audit-verify">
            {busy ? t('audit.verifying') : t('audit.verify')}
          </button>
          <span className="small muted">{t('audit.note')}</span>
        </div>
        {report && <VerifyResult report={report} />}
        <ActionError error={verifyError ?? pages.error} />
        {pages.headSeq === 0 ? (
          <p className="small muted">{t('audit.empty')}</p>
        ) : (
          <AuditTable records={pages.records} t={t} />
        )}
        {pages.more && (
          <button type="button" className="btn-small" onClick={() => void pages.more?.()} data-testid="audit-older">
            {t('audit.older')}
          </button>
        )}
      </div>
    </details>
  );
}

/** The records, one row each; details as compact JSON (hashes and ids, never payloads). */
function AuditTable({ records, t }: { records: readonly AuditRecordView[]; t: TFunction<'history'> }) {
  return (
    <table className="audit-table" data-testid="audit-records">
      <thead>
        <tr>
          <th>#</th>
          <th>{t('audit.when')}</th>
          <th>{t('audit.who')}</th>
          <th>{t('audit.what')}</th>
          <th>{t('audit.about')}</th>
          <th>{t('audit.details')}</th>
        </tr>
      </thead>
      <tbody>
        {records.map((r) => (
          <tr key={r.seq} data-testid="audit-record">
            <td className="num">{r.seq}</td>
            <td>{dateTime(r.at)}</td>
            <td>{actorText(t, r.actor)}</td>
            <td><code>{r.kind}</code></td>
            <td>{r.subject}</td>
            <td className="audit-details" title={compactJson(r.details, 4000)}>{compactJson(r.details, 120)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
