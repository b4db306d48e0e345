/**
 * The conversation timeline of a history entry: every request of its session (a tool loop's
 * rounds), oldest first, with status, time, model and preview; the shown one is marked, the others
 * open when clicked. Also the media payloads of the shown entry with their sizes.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryListItem } from '../../../shared/contract/history';
import { base64DecodedBytes } from '../../../shared/domain/base64';
import { parseMediaRef } from '../../../shared/domain/media-refs';
import type { HistoryEntry } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { ActionError, Section, StatusBadge } from '../../components/common';
import { clockTime, dateTime, duration } from '../../format';
import { useConsole } from '../../store';
import { formatBytes } from './format-bytes';
import { rowPreview } from './row-preview';
import { ModelName } from './ModelName';

/** Most rounds shown (a session longer than this is cut, newest kept). */
const MAX_ROUNDS = 500;

/** A round's preview: its text, else why it failed, else "(no text)". */
function RoundPreview({ round }: { round: HistoryListItem }) {
  const { t } = useTranslation('history');
  const preview = rowPreview(round);
  const text = preview.kind === 'text' ? preview.text : preview.kind === 'reason' ? t('list.failedReason', { reason: preview.text }) : t('timeline.noText');
  return <span className="history-round-preview">{text}</span>;
}

/** The session's requests, oldest first. */
export function HistoryTimeline({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('history');
  const selectHistory = useConsole((s) => s.selectHistory);
  const [rounds, setRounds] = useState<{ items: HistoryListItem[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getApi()
      .listHistory({ conversationId: entry.conversationId, limit: MAX_ROUNDS, offset: 0 })
      .then(
        (page) => live && setRounds({ items: [...page.entries].reverse(), total: page.total }),
        (err: unknown) => live && setError(errorText(err)),
      );
    return () => {
      live = false;
    };
  }, [entry.conversationId]);

  const items = rounds?.items ?? [];
  if (!error && (rounds === null || rounds.total <= 1)) return null; // a one-request session has no timeline to show
  return (
    <Section title={rounds ? t('timeline.title', { count: rounds.total }) : t('timeline.titleLoading')} testId="history-timeline">
      <ActionError error={error} />
      {rounds && rounds.total > items.length && <p className="small muted">{t('timeline.latest', { count: items.length })}</p>}
      <ol className="history-timeline">
        {items.map((r, i) => {
          const current = r.id === entry.id;
          const took = r.endedAt !== undefined ? duration(r.endedAt - r.receivedAt) : t('timeline.unfinished');
          return (
            <li key={r.id} className={current ? 'is-current' : undefined} data-testid="history-round" data-round-id={r.id}>
              <button type="button" className="history-round" aria-current={current ? 'true' : undefined} onClick={() => selectHistory(r.id)} disabled={current}>
                <span className="history-round-n">{t('timeline.round', { n: i + 1 + (rounds ? rounds.total - items.length : 0) })}</span>
                <StatusBadge status={r.status} />
                <span className="mono muted small" title={dateTime(r.receivedAt)}>
                  {clockTime(r.receivedAt)} · {took}
                </span>
                <ModelName model={r.model} providerId={r.providerId} className="small" />
                {r.edited && <span className="badge tone-warn">{t('timeline.edited')}</span>}
                <RoundPreview round={r} />
              </button>
            </li>
          );
        })}
      </ol>
    </Section>
  );
}

/** Which part of an entry a media payload is in (`message`: 1-based, for the request parts). */
export type MediaWhere = { part: 'asked' | 'sent'; message: number } | { part: 'generated' | 'delivered' };

/** One media payload found in an entry. `kind`: `image`, `audio` or `resource` (an embedded blob). */
export interface MediaFact {
  where: MediaWhere;
  kind: 'image' | 'audio' | 'resource';
  mimeType: string;
  bytes: number;
}

/** Decoded size of base64 text (or the size a media reference names, while its payload is on its way). */
function decoded(data: string): number {
  return parseMediaRef(data)?.bytes ?? base64DecodedBytes(data.replace(/\s+/g, ''));
}

/** Every image/audio block and embedded resource blob in the entry's parts, with where it is. */
export function mediaFacts(entry: HistoryEntry): MediaFact[] {
  const out: MediaFact[] = [];
  const walk = (value: unknown, where: MediaWhere) => {
    if (Array.isArray(value)) return value.forEach((v) => walk(v, where));
    if (typeof value !== 'object' || value === null) return;
    const o = value as Record<string, unknown>;
    if ((o.type === 'image' || o.type === 'audio') && typeof o.data === 'string') {
      out.push({ where, kind: o.type, mimeType: String(o.mimeType ?? ''), bytes: decoded(o.data) });
    } else if (typeof o.uri === 'string' && typeof o.blob === 'string') {
      out.push({ where, kind: 'resource', mimeType: String(o.mimeType ?? ''), bytes: decoded(o.blob) });
    } else for (const v of Object.values(o)) walk(v, where);
  };
  const messages = (params: unknown, part: 'asked' | 'sent') => {
    const list = typeof params === 'object' && params !== null ? (params as { messages?: unknown }).messages : undefined;
    if (Array.isArray(list)) list.forEach((m, i) => walk(m, { part, message: i + 1 }));
  };
  messages(entry.original, 'asked');
  if (entry.sent) messages(entry.sent, 'sent');
  if (entry.generated) walk(entry.generated.content, { part: 'generated' });
  if (entry.delivered) walk(entry.delivered.content, { part: 'delivered' });
  return out;
}

/** The entry's media payloads and their sizes (stored once each, whatever the repeats). */
export function HistoryMedia({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('history');
  const media = mediaFacts(entry);
  if (media.length === 0) return null;
  return (
    <Section title={t('media.title', { count: media.length })} testId="history-media">
      <table className="field-changes">
        <thead>
          <tr>
            <th scope="col">{t('media.where')}</th>
            <th scope="col">{t('media.kind')}</th>
            <th scope="col">{t('media.type')}</th>
            <th scope="col">{t('media.size')}</th>
          </tr>
        </thead>
        <tbody>
          {media.map((m, i) => (
            <tr key={i}>
              <td>{m.where.part === 'asked' || m.where.part === 'sent' ? t(`media.${m.where.part}`, { n: m.where.message }) : t(`media.${m.where.part}`)}</td>
              <td>{t(`media.kinds.${m.kind}`)}</td>
              <td className="mono">{m.mimeType}</td>
              <td data-testid="history-media-bytes">{formatBytes(m.bytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
