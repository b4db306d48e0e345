/**
 * Time made visible: how long an item has waited and, where known, how long its server
 * will still wait (shared/domain/wait.ts). Ticks once a second (useNow); items about to expire get the
 * `wait-soon` class, items past their server's wait `wait-expired` (the row and header use them).
 */
import { useTranslation } from 'react-i18next';
import { waitLevel, type ServerWait, type WaitLevel } from '../../../shared/domain/wait';
import { duration } from '../../format';
import { useNow } from '../../hooks';

/** The class a row or header takes for a level (`''` when there is time). */
export function waitClass(level: WaitLevel): string {
  return level === 'ok' ? '' : ` wait-${level}`;
}

/** The level of a waiting item now (re-renders every second); `ok` for finished items. */
export function useWaitLevel(wait: ServerWait | undefined, waiting: boolean): WaitLevel {
  const now = useNow();
  return waiting ? waitLevel(wait, now) : 'ok';
}

/**
 * "42 s · 18 s left" for a waiting item: waited time (ms from `receivedAt` to now, or to `endedAt`
 * for a finished item) and the server's remaining wait while it waits — stated as fact only for a
 * timeout configured in mcp-servers.json; otherwise the SDKs' 60 s default is shown as what it is,
 * a maybe ("maybe 18 s left", "past 60 s: may have given up"), since servers on Python's `mcp` and
 * `fastmcp` wait as long as it takes. The tooltip says where the limit comes from.
 */
export function WaitClock({ receivedAt, endedAt, wait, waiting, testId }: { receivedAt: number; endedAt?: number; wait?: ServerWait; waiting: boolean; testId?: string }) {
  const { t } = useTranslation('queue');
  const now = useNow();
  const waited = duration(Math.max(0, (waiting ? now : (endedAt ?? now)) - receivedAt));
  const level = waiting ? waitLevel(wait, now) : 'ok';
  const limit = wait ? duration(wait.ms) : '';
  const title = !waiting
    ? t('wait.tookTitle', { waited })
    : !wait
      ? t('wait.noTimerTitle', { waited })
      : wait.source === 'configured'
        ? t('wait.configuredTitle', { waited, limit })
        : t('wait.defaultTitle', { waited, limit });
  return (
    <span className={`wait-clock${waitClass(level)}`} title={title} data-testid={testId} data-wait-level={level}>
      {waited}
      {waiting && wait && (
        <span className="wait-left">
          {' · '}
          {/* A configured timeout is known; the SDK default is only what many servers keep. */}
          {wait.source === 'configured'
            ? level === 'expired'
              ? t('wait.expired')
              : t('wait.left', { left: duration(wait.until - now) })
            : level === 'expired'
              ? t('wait.expiredMaybe', { limit })
              : t('wait.leftMaybe', { left: duration(wait.until - now) })}
        </span>
      )}
    </span>
  );
}
