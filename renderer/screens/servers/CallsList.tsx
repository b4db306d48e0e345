/**
 * The client requests the person started on a server, newest first, with their results (big result
 * media fetched when a call's card shows, `getCallMedia`).
 */
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_ELISION, fillMedia, mediaRefsIn } from '../../../shared/domain/media-refs';
import { getApi } from '../../api';
import type { CallView } from '../../../shared/contract/state';
import { Pill } from '../../components/common';
import { clockTime, compactJson, duration } from '../../format';
import { useNow } from '../../hooks';
import { useConsole, useItems } from '../../store';
import { CallResult } from './ResultViews';
import { EraNeedNotice } from './ToolEra';
import { bringIntoView, useServersUi } from './servers-ui';

function CallStatus({ call }: { call: CallView }) {
  const { t } = useTranslation('servers');
  const now = useNow();
  if (call.status === 'running') {
    return (
      <Pill tone="info" testId="call-status">
        {t('calls.running', { duration: duration(now - call.startedAt) })}
      </Pill>
    );
  }
  const took = call.endedAt !== undefined ? ` · ${duration(call.endedAt - call.startedAt)}` : '';
  const failed = call.status === 'failed' || call.result?.isError === true;
  return (
    <Pill tone={failed ? 'error' : call.status === 'declined' ? 'warn' : 'ok'} testId="call-status">
      {call.status === 'failed' ? t('calls.failed') : call.status === 'declined' ? t('calls.declined') : call.result?.isError ? t('calls.toolError') : t('calls.succeeded')}
      {took}
    </Pill>
  );
}

/**
 * Links to the items that arrived during a call (the newest ones the call keeps; earlier ones are
 * counted, in History): open ones open in the queue, others in History.
 */
function SamplingLinks({ call }: { call: CallView }) {
  const { t } = useTranslation('servers');
  const items = useItems();
  const openItem = useConsole((s) => s.openItem);
  const setScreen = useConsole((s) => s.setScreen);
  const selectHistory = useConsole((s) => s.selectHistory);
  const ids = call.samplingItemIds;
  if (ids.length === 0) return null;
  const earlier = (call.samplingItemCount ?? ids.length) - ids.length;
  const sampling = new Map(items.flatMap((i) => (i.kind === 'sampling' && ids.includes(i.id) ? [[i.id, i] as const] : [])));
  return (
    <div className="call-links">
      <span className="muted small">{t('calls.samplingRequests')}</span>
      {earlier > 0 && (
        <span className="muted small" data-testid="call-sampling-earlier">
          {t('calls.samplingEarlier', { last: earlier })}
        </span>
      )}
      {ids.map((id, i) => {
        const item = sampling.get(id);
        const n = earlier + i + 1;
        return (
          <button
            key={id}
            type="button"
            className="btn-link"
            data-testid="call-sampling-link"
            onClick={() => {
              if (item) openItem(id);
              else {
                selectHistory(id);
                setScreen('history');
              }
            }}
          >
            {item ? t('calls.samplingLink', { n, status: t(`calls.itemStatus.${item.status}`) }) : t('calls.samplingLinkHistory', { n })}
          </button>
        );
      })}
    </div>
  );
}

const NO_PAYLOADS: ReadonlyMap<string, string> = new Map();

/**
 * `call` with the big result media and long texts the `calls` slice holds by reference put back
 * once fetched (`getCallMedia`); until then, or when the fetch failed, as the state has it (those
 * blocks show their size, "loading…").
 */
function useCallMedia(call: CallView): CallView {
  const refs = useMemo(() => mediaRefsIn(call, CALL_ELISION), [call]);
  const [payloads, setPayloads] = useState(NO_PAYLOADS);
  const wanted = refs.join('\n');
  useEffect(() => {
    if (!wanted) return undefined;
    let live = true;
    getApi()
      .getCallMedia({ callId: call.id, refs: wanted.split('\n') })
      .then(
        ({ media }) => live && setPayloads(new Map(media.map((p) => [p.ref, p.data]))),
        () => undefined, // the call is gone meanwhile: the blocks stay as they are
      );
    return () => {
      live = false;
    };
  }, [call.id, wanted]);
  return useMemo(() => fillMedia(call, payloads, CALL_ELISION), [call, payloads]);
}

/**
 * Brings a call's card into view once the call the person started from a tool form has ended
 * (then, or when the card next shows: the person may have been reviewing its sampling request).
 */
function useRevealWhenDone(call: CallView): RefObject<HTMLLIElement | null> {
  const ref = useRef<HTMLLIElement>(null);
  const wanted = useServersUi((s) => s.toReveal[call.id] === true);
  const ended = call.status !== 'running';
  useEffect(() => {
    if (!wanted || !ended || !ref.current) return;
    bringIntoView(ref.current);
    useServersUi.getState().revealed(call.id);
  }, [wanted, ended, call.id]);
  return ref;
}

/** One call with its arguments, status, result and sampling items. */
export function CallCard({ call: inState }: { call: CallView }) {
  const { t } = useTranslation('servers');
  const call = useCallMedia(inState);
  const ref = useRevealWhenDone(call);
  return (
    <li ref={ref} className={`call${call.result?.isError ? ' is-error' : ''}`} data-testid="call-result" data-call-id={call.id} data-status={call.status}>
      <div className="call-head">
        <span className="mono strong">{call.name}</span>
        <span className="muted small">{call.kind}</span>
        <CallStatus call={call} />
        <span className="muted small call-time">{clockTime(call.startedAt)}</span>
      </div>
      <div className="call-args mono small" translate="no" title={compactJson(call.arguments, 2000)}>
        {compactJson(call.arguments)}
      </div>
      <SamplingLinks call={call} />
      <EraNeedNotice call={call} />
      {call.error && (
        <p className="error-text" data-testid="call-error">
          {/* The server's (or the SDK's) words, as they came. */}
          <span translate="no">{call.error.message}</span>
          {call.error.code !== undefined && t('calls.codeSuffix', { code: call.error.code })}
        </p>
      )}
      <CallResult call={call} />
    </li>
  );
}

/** Calls of one server, newest first. */
export function CallsList({ calls }: { calls: CallView[] }) {
  const { t } = useTranslation('servers');
  if (calls.length === 0) return <p className="muted small">{t('calls.empty')}</p>;
  return (
    <ul className="calls" data-testid="calls-list">
      {[...calls].reverse().map((c) => (
        <CallCard key={c.id} call={c} />
      ))}
    </ul>
  );
}
