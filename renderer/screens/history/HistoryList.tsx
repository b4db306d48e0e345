/**
 * The history list: newest first, virtualised (@tanstack/react-virtual) over the whole result, so
 * only the rows in view exist in the DOM and only their pages are fetched. Each row has a checkbox
 * (selects its session for export / delete) and opens the entry when clicked.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { HistoryListItem } from '../../../shared/contract/history';
import { StatusBadge } from '../../components/common';
import { dateTime, shortDateTime } from '../../format';
import { formatBytes } from './format-bytes';
import { rowPreview } from './row-preview';
import { distinctPreview } from '../../distinct-preview';
import type { HistoryPages } from './useHistoryPages';
import { useSay } from '../../i18n/say';
import { ModelName } from './ModelName';

/** Height of one row in px (fixed, so scrolling needs no measuring). */
/** Four lines: time and status, preview, the call's arguments, server and call. */
const ROW_HEIGHT = 94;

/** The row's preview: the request's text, else why it failed, else "(no text)". */
function PreviewText({ entry, neighbours }: { entry: HistoryListItem; neighbours: Array<string | undefined> }) {
  const { t } = useTranslation('history');
  const say = useSay();
  const preview = rowPreview(entry);
  if (preview.kind === 'text')
    return (
      <span className="queue-preview" title={preview.text} data-testid="history-preview">
        {distinctPreview(preview.text, neighbours)}
      </span>
    );
  if (preview.kind === 'reason') {
    const failed = t('list.failedReason', { reason: say(preview.ui, preview.text) });
    return (
      <span className="queue-preview history-preview-reason" title={failed} data-testid="history-preview-reason">
        {failed}
      </span>
    );
  }
  return (
    <span className="queue-preview">
      <span className="muted">{t('list.noText')}</span>
    </span>
  );
}

/** The row's badges: round in its session, media size, provider call, auto-approved, rule, model, edited, not delivered. */
function RowMeta({ entry }: { entry: HistoryListItem }) {
  const { t } = useTranslation('history');
  return (
    <span className="history-meta">
      {entry.sessionSize > 1 && (
        <span className="badge tone-muted" title={t('list.round')}>
          {entry.sessionIndex}/{entry.sessionSize}
        </span>
      )}
      {entry.mediaCount > 0 && (
        <span className="badge tone-info" data-testid="history-media-size" title={t('list.media', { count: entry.mediaCount })}>
          {formatBytes(entry.mediaBytes)}
        </span>
      )}
      {entry.kind === 'provider_call' && (
        <span className="badge tone-info" data-testid="history-provider-call" title={t('list.providerCallTitle')}>
          {t('list.providerCall')}
        </span>
      )}
      {entry.decidedBy === 'rule' && <span className="badge tone-info">{t('list.auto')}</span>}
      {entry.decider && (
        <span className="badge tone-muted" data-testid="history-row-decider" title={t('list.decidedByTitle', { name: entry.decider.name })}>
          {t('list.decidedBy', { name: entry.decider.name })}
        </span>
      )}
      {entry.requestedBy && (
        <span className="badge tone-muted" data-testid="history-row-requested-by" title={t('list.requestedByTitle', { name: entry.requestedBy.name })}>
          {t('list.requestedBy', { name: entry.requestedBy.name })}
        </span>
      )}
      {entry.rule && (
        <span className="badge tone-muted history-rule" data-testid="history-rule" title={t('rowRule.title', { rule: entry.rule.name, version: entry.rule.version, server: entry.rule.serverId })}>
          {t('rowRule.label', { rule: entry.rule.name, version: entry.rule.version })}
        </span>
      )}
      <ModelName model={entry.model} providerId={entry.providerId} />
      {entry.edited && <span className="badge tone-warn">{t('list.edited')}</span>}
      {entry.notDelivered && (
        <span className="badge tone-warn" data-testid="history-not-delivered">
          {entry.notDelivered.draft ? t('list.notDeliveredDraft') : t('list.notDelivered')}
        </span>
      )}
    </span>
  );
}

/** One row: its checkbox, and a button with time, status, preview, arguments, server and call, and badges. */
function Row({ entry, neighbours, selected, checked, onSelect, onToggle }: { entry: HistoryListItem; neighbours: Array<string | undefined>; selected: boolean; checked: boolean; onSelect: () => void; onToggle: () => void }) {
  const { t } = useTranslation('history');
  const where = entry.callName ? `${entry.serverId} · ${entry.callName}` : entry.serverId;
  return (
    <div className={`history-row-wrap${selected ? ' is-selected' : ''}`}>
      <input
        type="checkbox"
        className="history-check"
        checked={checked}
        onChange={onToggle}
        aria-label={t('list.select', { server: entry.serverId, time: dateTime(entry.receivedAt) })}
        data-testid="history-check"
      />
      <button
        type="button"
        className="history-row"
        aria-current={selected ? 'true' : undefined}
        data-testid="history-item"
        data-history-id={entry.id}
        onClick={onSelect}
      >
        <span className="queue-row-top">
          <span className="small row-time" title={dateTime(entry.receivedAt)}>
            {shortDateTime(entry.receivedAt)}
          </span>
          <StatusBadge status={entry.status} />
        </span>
        <PreviewText entry={entry} neighbours={neighbours} />
        <span className="row-args mono" title={entry.callArgs} data-testid="history-args">
          {entry.callArgs ?? ''}
        </span>
        <span className="queue-row-bottom">
          <span className="queue-call" title={where} data-testid="history-call">
            {where}
          </span>
          <RowMeta entry={entry} />
        </span>
      </button>
    </div>
  );
}

/** The virtualised list of `pages`. */
export function HistoryList({
  pages,
  selectedId,
  checked,
  onSelect,
  onToggle,
}: {
  pages: HistoryPages;
  selectedId: string | null;
  checked: Record<string, true>;
  onSelect: (id: string) => void;
  onToggle: (id: string) => void;
}) {
  const { t } = useTranslation('history');
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = pages.total ?? 0;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is a mutable object by design
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const { ensure } = pages;
  useEffect(() => {
    if (count > 0) ensure(first, last);
  }, [ensure, first, last, count]);

  return (
    <div ref={scrollRef} className="history-scroll" data-testid="history-list" role="list" aria-label={t('list.label')}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => {
          const entry = pages.at(v.index);
          return (
            <div key={v.key} role="listitem" aria-setsize={count} aria-posinset={v.index + 1} className="history-slot" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}>
              {entry ? (
                <Row
                  entry={entry}
                  neighbours={[pages.at(v.index - 1)?.preview, pages.at(v.index + 1)?.preview]}
                  selected={entry.id === selectedId}
                  checked={!!checked[entry.id]}
                  onSelect={() => onSelect(entry.id)}
                  onToggle={() => onToggle(entry.id)}
                />
              ) : (
                <div className="history-row-placeholder muted small">{t('list.loading')}</div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
