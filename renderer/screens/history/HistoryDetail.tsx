/**
 * One history entry: the original request vs what was sent (readable diff), generated vs
 * delivered response, timings, events, error, and the raw JSON of every part.
 */
import { useEffect, useState } from 'react';
import { contentBlocks, contentText, CreateMessageParamsSchema, type CreateMessageParams, type CreateMessageResult } from '../../../shared/sampling';
import type { HistoryEntry } from '../../../shared/state';
import { getApi } from '../../api';
import { ReadOnlyBlocks } from '../../components/Blocks';
import { ParamsView } from '../../components/ParamsView';
import { Banner, Empty, Facts, RawJson, Section, StatusBadge } from '../../components/common';
import { clockTime, dateTime, duration } from '../../format';
import { FieldChanges, TextDiff, type FieldChange } from './DiffView';

const show = (v: unknown): string => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

function RequestDiff({ original, sent, entry }: { original: CreateMessageParams; sent: CreateMessageParams; entry: HistoryEntry }) {
  const count = Math.max(original.messages.length, sent.messages.length);
  const model = entry.modelChoice;
  const rows: FieldChange[] = [
    { field: 'maxTokens', before: show(original.maxTokens), after: show(sent.maxTokens), changed: original.maxTokens !== sent.maxTokens },
    { field: 'temperature', before: show(original.temperature), after: show(sent.temperature), changed: original.temperature !== sent.temperature },
  ];
  if (model) {
    rows.push({
      field: 'model',
      before: <span className="small">{model.overridden ? 'console suggested another model' : model.reason}</span>,
      after: <span className="mono">{`${model.providerId} — ${model.modelId}`}</span>,
      changed: model.overridden === true,
    });
  }
  return (
    <>
      <FieldChanges rows={rows} testId="history-field-changes" />
      <h4>System prompt</h4>
      <TextDiff before={original.systemPrompt ?? ''} after={sent.systemPrompt ?? ''} testId="history-system-diff" />
      {Array.from({ length: count }, (_, i) => {
        const a = original.messages[i];
        const b = sent.messages[i];
        const nonText = [...(a ? contentBlocks(a.content) : []), ...(b ? contentBlocks(b.content) : [])].some((x) => x.type !== 'text');
        return (
          <div key={i} className="diff-message" data-testid={`history-message-diff-${i}`}>
            <h4>
              Message {i + 1} <span className="muted">({(b ?? a)?.role})</span>
              {nonText && <span className="muted small"> · non-text blocks: see Raw JSON</span>}
            </h4>
            <TextDiff before={a ? contentText(a.content) : ''} after={b ? contentText(b.content) : ''} />
          </div>
        );
      })}
    </>
  );
}

function ResponseDiff({ generated, delivered }: { generated?: CreateMessageResult; delivered?: CreateMessageResult }) {
  if (!generated && !delivered) return <p className="muted small">No response was produced.</p>;
  if (!generated && delivered) {
    return (
      <>
        <p className="small muted">Written by hand (no model generated it).</p>
        <ReadOnlyBlocks blocks={contentBlocks(delivered.content)} />
      </>
    );
  }
  const before = generated ? contentText(generated.content) : '';
  const after = delivered ? contentText(delivered.content) : '';
  return (
    <>
      {!delivered && <p className="small muted">Generated, but nothing was delivered.</p>}
      <TextDiff before={before} after={delivered ? after : before} testId="history-response-diff" />
      <Facts
        rows={[
          ['Model', show(delivered?.model ?? generated?.model)],
          ['Stop reason', show(delivered?.stopReason ?? generated?.stopReason)],
        ]}
      />
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
      <Section title={entry.sent ? 'Request: as asked → as sent' : 'Request (not sent to a model)'}>
        {original && entry.sent ? (
          <RequestDiff original={original} sent={entry.sent} entry={entry} />
        ) : original ? (
          <ParamsView params={original} />
        ) : (
          <p className="small">The params did not parse as a sampling request; see Raw JSON.</p>
        )}
        <div className="raw-row">
          <RawJson value={entry.original} label="Raw JSON: original" />
          {entry.sent && <RawJson value={entry.sent} label="Raw JSON: sent" />}
        </div>
      </Section>
      <Section title="Response: generated → delivered">
        <ResponseDiff generated={entry.generated} delivered={entry.delivered} />
        <div className="raw-row">
          {entry.generated && <RawJson value={entry.generated} label="Raw JSON: generated" />}
          {entry.delivered && <RawJson value={entry.delivered} label="Raw JSON: delivered" />}
        </div>
      </Section>
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
