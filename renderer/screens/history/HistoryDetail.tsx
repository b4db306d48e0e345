/**
 * One history entry: its conversation timeline, the original request vs what was sent (readable
 * diff), generated vs delivered response, media sizes, timings, events, error, the raw JSON of
 * what went to the LLM and what went back to the server, and "Re-open as draft".
 */
import { useEffect, useState } from 'react';
import { CreateMessageParamsSchema } from '../../../shared/sampling';
import type { HistoryEntry } from '../../../shared/state';
import { getApi } from '../../api';
import { ParamsView } from '../../components/ParamsView';
import { ActionError, Banner, Empty, Facts, RawJson, Section, StatusBadge } from '../../components/common';
import { clockTime, dateTime, duration } from '../../format';
import { useConsole } from '../../store';
import { RequestDiff, ResponseDiff } from './HistoryDiffs';
import { HistoryMedia, HistoryTimeline } from './HistoryTimeline';

/** "Re-open as draft": a new queue item from this request, with no server waiting (to compare models). */
function ReopenButton({ entry }: { entry: HistoryEntry }) {
  const openItem = useConsole((s) => s.openItem);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reopen = () => {
    setBusy(true);
    setError(null);
    getApi()
      .reopenHistoryEntry({ id: entry.id })
      .then(
        ({ itemId }) => openItem(itemId),
        (err: unknown) => {
          setError(err instanceof Error ? err.message : String(err));
          setBusy(false);
        },
      );
  };
  return (
    <>
      <button type="button" className="btn-small" data-testid="history-reopen" disabled={busy} onClick={reopen} title="Creates a draft in the Queue from this request; nothing is sent to any server">
        Re-open as draft
      </button>
      <ActionError error={error} />
    </>
  );
}

/** The detail pane of one history entry (fetched with `getHistoryEntry`). */
export function HistoryDetail({ id }: { id: string }) {
  const [entry, setEntry] = useState<HistoryEntry | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getApi()
      .getHistoryEntry({ id })
      .then(
        (e) => live && setEntry(e),
        (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
      );
    return () => {
      live = false;
    };
  }, [id]);
  if (error) return <Banner tone="error" title="Could not load this entry">{error}</Banner>;
  if (entry === undefined) return <Empty>Loading…</Empty>;
  if (entry === null) return <Empty>This entry is not in the history.</Empty>;

  const parsed = CreateMessageParamsSchema.safeParse(entry.original);
  const original = parsed.success ? parsed.data : undefined;
  const t = entry.timings;
  return (
    <div className="review" data-testid="history-detail">
      <header className="item-header">
        <div className="item-header-top">
          <h2>{entry.callName ?? 'Sampling request'}</h2>
          <StatusBadge status={entry.status} />
          {entry.edited && <span className="badge tone-warn">edited</span>}
          {entry.kind === 'elicitation' && <span className="badge tone-info">elicitation</span>}
          <span className="spacer" />
          {original && entry.kind !== 'elicitation' && <ReopenButton entry={entry} />}
        </div>
        <Facts
          rows={[
            ['Server', entry.serverId],
            ['Received', dateTime(entry.receivedAt)],
            entry.endedAt !== undefined && ['Ended', dateTime(entry.endedAt)],
            entry.decidedBy && ['Decided by', entry.rule ? `rule "${entry.rule.name}" (v${entry.rule.version})` : entry.decidedBy],
            entry.model ? ['Model', `${entry.providerId ? `${entry.providerId} — ` : ''}${entry.model}`] : null,
            entry.usage && ['Tokens', `${entry.usage.inputTokens ?? '?'} in · ${entry.usage.outputTokens ?? '?'} out`],
          ]}
        />
      </header>
      {(entry.errorDetail ?? entry.error) && (
        <Banner tone="error" title="Error" testId="history-error">
          {entry.errorDetail?.message ?? entry.error}
          {entry.errorDetail?.code !== undefined && <span className="mono"> (code {entry.errorDetail.code})</span>}
          {entry.errorDetail?.rule && <span className="mono"> [{entry.errorDetail.rule}]</span>}
        </Banner>
      )}
      <HistoryTimeline entry={entry} />
      <Section title={entry.sent ? 'Request: as asked → as sent' : 'Request (not sent to a model)'}>
        {original && entry.sent ? (
          <RequestDiff original={original} sent={entry.sent} entry={entry} />
        ) : original ? (
          <ParamsView params={original} />
        ) : (
          <p className="small">The params did not parse as a sampling request; see Raw JSON.</p>
        )}
        <div className="raw-row">
          <RawJson value={entry.original} label="Raw JSON: original (as the server asked)" testId="history-raw-original" />
          {entry.sent && (
            <RawJson value={entry.sent} label="Raw JSON: sent to the LLM" testId="history-raw-sent" />
          )}
        </div>
      </Section>
      <Section title="Response: generated → delivered">
        <ResponseDiff generated={entry.generated} delivered={entry.delivered} />
        <div className="raw-row">
          {entry.generated && <RawJson value={entry.generated} label="Raw JSON: generated by the LLM" testId="history-raw-generated" />}
          {entry.delivered && <RawJson value={entry.delivered} label="Raw JSON: delivered to the server" testId="history-raw-delivered" />}
        </div>
      </Section>
      <HistoryMedia entry={entry} />
      <Section title="Timings">
        <Facts
          rows={[
            ['Queued', t.queuedMs !== undefined ? duration(t.queuedMs) : '—'],
            ['Review', t.reviewMs !== undefined ? duration(t.reviewMs) : '—'],
            ['Generation', t.generationMs !== undefined ? duration(t.generationMs) : '—'],
            ['Total', t.totalMs !== undefined ? duration(t.totalMs) : '—'],
          ]}
        />
      </Section>
      <Section title={`Events (${entry.events.length})`}>
        <ol className="events" data-testid="history-events">
          {entry.events.map((e, i) => (
            <li key={i}>
              <span className="mono muted">{clockTime(e.at)}</span> <strong>{e.kind}</strong>
              {e.detail && <span> — {e.detail}</span>}
            </li>
          ))}
        </ol>
      </Section>
      <RawJson value={entry} label="Raw JSON: whole entry" />
    </div>
  );
}
