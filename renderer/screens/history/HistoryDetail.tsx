/**
 * One history entry: its conversation timeline, the original request vs what was sent (readable
 * diff), generated vs delivered response, media sizes, timings, events, error, the raw JSON of
 * what went to the LLM and what went back to the server, and "Re-open as draft". An entry that
 * was not delivered (the server stopped waiting, the call ended, the console stopped) says so and
 * shows what the person typed, in full and copyable.
 */
import { useMay } from '../../viewer';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { en } from '../../i18n/resources';
import { MANUAL_PROVIDER_ID } from '../../../shared/contract/primitives';
import { CreateMessageParamsSchema, type CreateMessageParams } from '../../../shared/contract/sampling';
import { validateSamplingRequest } from '../../../shared/domain/validate-sampling';
import { fillMedia, mediaRefsIn } from '../../../shared/domain/media-refs';
import type { HistoryEntry } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { ParamsView } from '../../components/ParamsView';
import { ActionError, Banner, Empty, Facts, RawJson, Section, StatusBadge } from '../../components/common';
import { DraftTexts, NotDeliveredBanner } from '../../components/DraftTexts';
import { clockTime, dateTime, duration } from '../../format';
import { useConsole } from '../../store';
import { RequestDiff, ResponseDiff } from './HistoryDiffs';
import { HistoryMedia, HistoryTimeline } from './HistoryTimeline';
import { useSay } from '../../i18n/say';
import { ViaHost } from '../../components/ViaHost';
import { GatewayBadge, GatewayCaller, GatewayNotes, isTokenCall } from '../../components/GatewayCall';

/**
 * Whether "Re-open as draft" is offered: only for a request that is valid as it would be re-opened
 * (what was sent, else what was received), as main checks it; a malformed request is not offered,
 * and its errors stay shown in the error banner.
 */
export function reopenable(entry: Pick<HistoryEntry, 'sent' | 'original'>): boolean {
  return validateSamplingRequest(entry.sent ?? entry.original, { toolsDeclared: true }).ok; // the console declares sampling.tools
}

/** "Re-open as draft": a new queue item from this request, with no server waiting (to compare models). */
function ReopenButton({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('history');
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
          setError(errorText(err));
          setBusy(false);
        },
      );
  };
  return (
    <>
      <button type="button" className="btn-small" data-testid="history-reopen" disabled={busy} onClick={reopen} title={t('detail.reopenHint')}>
        {t('detail.reopen')}
      </button>
      <ActionError error={error} />
    </>
  );
}

/** An event kind in the person's language (a kind this version does not know is shown as stored). */
function eventKind(t: TFunction<'history'>, kind: string): string {
  return kind in en.history.eventKinds ? t(`eventKinds.${kind as keyof typeof en.history.eventKinds}`) : kind;
}

/**
 * The entry with this id, fetched with `getHistoryEntry`: undefined while loading, null when there
 * is none; or the error. Its big images, audio and resource blobs come by reference and are put
 * in place when `getHistoryMedia` brings them (meanwhile the media table shows the sizes the
 * references name and the raw JSON the references; when that fetch fails they stay so).
 */
function useHistoryEntry(id: string) {
  const [entry, setEntry] = useState<HistoryEntry | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const api = getApi();
    const withMedia = async (e: HistoryEntry) => {
      const refs = mediaRefsIn(e);
      if (refs.length === 0) return;
      const { media } = await api.getHistoryMedia({ id, refs });
      if (live) setEntry(fillMedia(e, new Map(media.map((p) => [p.ref, p.data]))));
    };
    api.getHistoryEntry({ id, media: 'by-ref' }).then(
      (e) => {
        if (!live) return;
        setEntry(e);
        if (e) withMedia(e).catch(() => undefined);
      },
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return { entry, error };
}

/** The entry's header: name, status and badges, "Re-open as draft", and who, when, decided by, model and tokens. */
function EntryHeader({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('history');
  const mayReopen = useMay('decide');
  return (
    <header className="item-header">
      <div className="item-header-top">
        <h2>{entry.callName ?? (entry.gateway ? t('detail.providerCall') : t('detail.samplingRequest'))}</h2>
        <StatusBadge status={entry.status} />
        {entry.edited && <span className="badge tone-warn">{t('detail.edited')}</span>}
        {entry.kind === 'elicitation' && <span className="badge tone-info">{t('detail.elicitation')}</span>}
        <GatewayBadge gateway={entry.gateway} />
        <span className="spacer" />
        {entry.kind !== 'elicitation' && reopenable(entry) && mayReopen && <ReopenButton entry={entry} />}
      </div>
      <Facts
        rows={[
          isTokenCall(entry.gateway)
            ? [t('detail.caller'), <GatewayCaller key="caller" gateway={entry.gateway} serverId={entry.serverId} />]
            : [t('detail.server'), entry.via ? <>{entry.serverId} <ViaHost via={entry.via} /></> : entry.serverId],
          entry.gateway && [
            t('detail.providerCall'),
            <span key="gateway" className="gateway-notes" data-testid="history-gateway">
              <GatewayNotes gateway={entry.gateway} />
            </span>,
          ],
          [t('detail.received'), dateTime(entry.receivedAt)],
          entry.endedAt !== undefined && [t('detail.ended'), dateTime(entry.endedAt)],
          entry.decidedBy && [
            t('detail.decidedBy'),
            entry.rule ? (
              t('detail.byRule', { name: entry.rule.name, version: entry.rule.version })
            ) : entry.decider ? (
              <span key="decider" data-testid="history-decider">
                {entry.decider.name}
              </span>
            ) : (
              t(`deciders.${entry.decidedBy}`)
            ),
          ],
          entry.requestedBy && [t('detail.requestedBy'), <span key="requested-by" data-testid="history-requested-by">{entry.requestedBy.name}</span>],
          entry.model ? [t('detail.model'), entry.providerId === MANUAL_PROVIDER_ID ? t('detail.writtenByPerson') : `${entry.providerId ? `${entry.providerId} — ` : ''}${entry.model}`] : null,
          entry.usage && [t('detail.tokens'), t('detail.tokenCounts', { input: entry.usage.inputTokens ?? '?', output: entry.usage.outputTokens ?? '?' })],
        ]}
      />
    </header>
  );
}

/** The entry's error (in the person's language when it has a code), with its code and rule; nothing without one. */
function EntryError({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('history');
  const say = useSay();
  if (!(entry.errorDetail ?? entry.error)) return null;
  return (
    <Banner tone="error" title={t('detail.error')} testId="history-error">
      {say(entry.errorDetail?.ui ?? entry.errorUi, entry.errorDetail?.message ?? entry.error)}
      {entry.errorDetail?.code !== undefined && <span className="mono"> {t('detail.errorCode', { code: entry.errorDetail.code })}</span>}
      {entry.errorDetail?.rule && <span className="mono"> [{entry.errorDetail.rule}]</span>}
    </Banner>
  );
}

/**
 * Whether the request went to a model: one approved for "Write the response myself" never did; an
 * entry recorded before generation events existed still names the provider that answered.
 */
function sentToModel(entry: HistoryEntry): boolean {
  return entry.events.some((e) => e.kind === 'generation_started') || (entry.providerId !== undefined && entry.providerId !== MANUAL_PROVIDER_ID);
}

/** The request: original vs sent as a diff (or the original alone, or that it did not parse), and both as raw JSON. */
function RequestSection({ entry, original }: { entry: HistoryEntry; original: CreateMessageParams | undefined }) {
  const { t } = useTranslation('history');
  const toModel = sentToModel(entry);
  return (
    <Section title={entry.sent ? (toModel ? t('detail.requestSent') : t('detail.requestApproved')) : t('detail.requestNotSent')}>
      {original && entry.sent ? (
        <RequestDiff original={original} sent={entry.sent} entry={entry} />
      ) : original ? (
        <ParamsView params={original} />
      ) : (
        <p className="small">{t('detail.notParsed')}</p>
      )}
      <div className="raw-row">
        <RawJson value={entry.original} label={entry.gateway ? t('detail.rawOriginalProviderCall') : t('detail.rawOriginal')} testId="history-raw-original" />
        {entry.sent && (
          <RawJson value={entry.sent} label={toModel ? t('detail.rawSent') : t('detail.rawApproved')} testId="history-raw-sent" />
        )}
      </div>
    </Section>
  );
}

/** The response: generated vs delivered, and both as raw JSON. */
function ResponseSection({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('history');
  return (
    <Section title={t('detail.response')}>
      <ResponseDiff generated={entry.generated} delivered={entry.delivered} />
      <div className="raw-row">
        {entry.generated && <RawJson value={entry.generated} label={t('detail.rawGenerated')} testId="history-raw-generated" />}
        {entry.delivered && <RawJson value={entry.delivered} label={entry.gateway ? t('detail.rawReturned') : t('detail.rawDelivered')} testId="history-raw-delivered" />}
      </div>
    </Section>
  );
}

/** Queued, review, generation and total time ('—' where unknown, and for generation when no model was called). */
function TimingsSection({ timings, generated }: { timings: HistoryEntry['timings']; generated: boolean }) {
  const { t } = useTranslation('history');
  return (
    <Section title={t('detail.timings')}>
      <Facts
        rows={[
          [t('detail.queued'), timings.queuedMs !== undefined ? duration(timings.queuedMs) : '—'],
          [t('detail.review'), timings.reviewMs !== undefined ? duration(timings.reviewMs) : '—'],
          [t('detail.generation'), timings.generationMs !== undefined && generated ? duration(timings.generationMs) : '—'],
          [t('detail.total'), timings.totalMs !== undefined ? duration(timings.totalMs) : '—'],
        ]}
      />
    </Section>
  );
}

/** A decision's version or digest, shortened (the whole in its tooltip and the raw JSON). */
function Digest({ text, full, testId }: { text: string; full: string; testId: string }) {
  return (
    <span className="muted small" title={full} data-testid={testId} data-full={full}>
      {' · '}
      <span className="mono">{text}…</span>
    </span>
  );
}

/** The entry's events in order: time, kind and detail; a person's decision with the version they saw and the digest of what it let out. */
function EventsSection({ events }: { events: HistoryEntry['events'] }) {
  const { t } = useTranslation('history');
  const say = useSay();
  return (
    <Section title={t('detail.events', { count: events.length })}>
      <ol className="events" data-testid="history-events">
        {events.map((e, i) => (
          <li key={i}>
            <span className="mono muted">{clockTime(e.at)}</span> <strong>{eventKind(t, e.kind)}</strong>
            {e.detailUi ? <span> — {say(e.detailUi)}</span> : e.detail && <span translate="no"> — {e.detail}</span>}
            {e.version && <Digest text={t('detail.eventVersion', { version: e.version.slice(0, 12) })} full={e.version} testId="event-version" />}
            {e.sha256 && <Digest text={t('detail.eventDigest', { sha: e.sha256.slice(0, 12) })} full={e.sha256} testId="event-sha256" />}
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** The detail pane of one history entry (fetched with `getHistoryEntry`). */
export function HistoryDetail({ id }: { id: string }) {
  const { t } = useTranslation('history');
  const { entry, error } = useHistoryEntry(id);
  if (error)
    return (
      <Banner tone="error" title={t('detail.loadFailed')}>
        {error}
      </Banner>
    );
  if (entry === undefined) return <Empty>{t('detail.loading')}</Empty>;
  if (entry === null) return <Empty>{t('detail.notFound')}</Empty>;

  const parsed = CreateMessageParamsSchema.safeParse(entry.original);
  const original = parsed.success ? parsed.data : undefined;
  // Delivered: only what was typed after the review it was typed in had ended (e.g. in another window) is left.
  const undelivered = entry.status !== 'delivered' ? entry.draft : entry.draft?.late && { late: entry.draft.late };
  return (
    <div className="review" data-testid="history-detail">
      <EntryHeader entry={entry} />
      <EntryError entry={entry} />
      {entry.notDelivered && <NotDeliveredBanner cause={entry.notDelivered.cause} at={entry.notDelivered.at} kept={undelivered !== undefined} />}
      <DraftTexts draft={undelivered} baseSystemPrompt={(entry.sent ?? original)?.systemPrompt ?? ''} />
      <HistoryTimeline entry={entry} />
      <RequestSection entry={entry} original={original} />
      <ResponseSection entry={entry} />
      <HistoryMedia entry={entry} />
      <TimingsSection timings={entry.timings} generated={sentToModel(entry)} />
      <EventsSection events={entry.events} />
      <RawJson value={entry} label={t('detail.rawEntry')} />
    </div>
  );
}
