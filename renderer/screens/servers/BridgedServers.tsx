/**
 * "Through the bridge" on the Servers screen: the servers agent hosts run through the console's
 * bridge, each with its host ("via <host>"), since when, and how many of its requests are in hand.
 * Their requests are in the Queue and History under the same name; rules and limits apply to it
 * as to any server. A bridged HTTP server that uses the console's OAuth shows its sign-in state,
 * "Sign in" and, once signed in, "Sign out" (its bridges drop the token they hold); one whose bridge is gone but that still needs sign-in stays listed, muted, until
 * signed in. A connected row's "Roots" part edits the roots the console offers that server; its
 * host's recent calls and the server's log come from the bridge's activity reports.
 */
import { useTranslation } from 'react-i18next';
import type { BridgedServerView, ServerAuthView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Pill } from '../../components/common';
import { ViaHost } from '../../components/ViaHost';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { useConsole } from '../../store';
import { LogPanel } from './LogPanel';
import { RootsEditor } from './RootsPanel';
import { useSignIn } from './sign-in';

/** A bridged server's sign-in: its state, the last failure, "Sign in" and "Sign out" (as on a server's page). */
function BridgedSignIn({ serverId, auth }: { serverId: string; auth: ServerAuthView }) {
  const { t } = useTranslation('servers');
  const signIn = useSignIn(serverId);
  const signOut = useAction(() => getApi().signOut({ serverId }));
  const pending = auth.status === 'pending';
  const signedIn = auth.status === 'signed_in';
  return (
    <div className="bridged-auth" role="group" aria-label={t('bridged.authAria', { server: serverId })} data-testid="bridged-auth" data-status={auth.status}>
      <Pill tone={signedIn && !auth.error ? 'ok' : 'warn'} testId="bridged-auth-status">
        {signedIn ? t('auth.signedIn') : pending ? t('auth.pending') : t('bridged.signedOut')}
      </Pill>
      {auth.error && (
        <span className="error-text small" translate="no" data-testid="bridged-auth-error">
          {auth.error}
        </span>
      )}
      {pending && (
        <span className="small">
          {t('auth.finishInBrowser')}{' '}
          {signIn.link && (
            <a href={signIn.link} target="_blank" rel="noopener noreferrer" data-testid="bridged-auth-link">
              {t('auth.openAgain')}
            </a>
          )}
        </span>
      )}
      {(!signedIn || auth.error) && (
        <button type="button" className="btn-primary btn-small" onClick={() => void signIn.run()} disabled={signIn.pending} data-testid="bridged-sign-in">
          {pending ? t('auth.startAgain') : t('auth.signIn')}
        </button>
      )}
      {signedIn && (
        <button type="button" className="btn-small" onClick={() => void signOut.run()} disabled={signOut.pending} data-testid="bridged-sign-out">
          {t('auth.signOut')}
        </button>
      )}
      <ActionError error={signIn.error ?? signOut.error} />
    </div>
  );
}

/** The expandable "Roots" part of a connected bridged row. */
function BridgedRoots({ row }: { row: BridgedServerView }) {
  const { t } = useTranslation('servers');
  const roots = row.roots ?? [];
  return (
    <details className="bridged-roots" data-testid="bridged-roots">
      <summary>{t('bridged.roots', { n: roots.length })}</summary>
      <p className="muted small">{row.via ? t('bridged.rootsIntro', { host: row.via.host }) : t('bridged.rootsIntroAnyHost')}</p>
      <RootsEditor serverId={row.serverId} roots={roots} compact />
    </details>
  );
}

/** The host's recent calls through a bridged server, newest first, and the server's log. */
function BridgedActivity({ row }: { row: BridgedServerView }) {
  const { t } = useTranslation('servers');
  const calls = row.calls ?? [];
  const refreshKey = calls.map((c) => `${c.callId}:${c.endedAt ?? ''}`).join(',');
  return (
    <>
      {calls.length > 0 && (
        <details className="bridged-calls" data-testid="bridged-calls">
          <summary>{t('bridged.calls', { n: calls.length })}</summary>
          <ul className="plain-list small">
            {calls.map((c) => (
              <li key={c.callId} data-testid="bridged-call" data-running={c.endedAt === undefined ? 'true' : undefined}>
                <span className="mono">
                  {c.kind} {c.name}
                </span>
                {c.args && <span className="muted mono"> {c.args}</span>}{' '}
                <span className="muted">{c.endedAt === undefined ? t('bridged.callRunning', { time: clockTime(c.startedAt) }) : t('bridged.callEnded', { time: clockTime(c.startedAt) })}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <details className="bridged-log" data-testid="bridged-log">
        <summary>{t('detail.tabLog')}</summary>
        <LogPanel server={{ id: row.serverId }} refreshKey={refreshKey} />
      </details>
    </>
  );
}

/** One bridged server's row. */
function BridgedRow({ row }: { row: BridgedServerView }) {
  const { t } = useTranslation('servers');
  return (
    <li className={`server-row is-static bridged-row${row.disconnected ? ' is-disconnected' : ''}`} data-testid="bridged-server" data-server-id={row.serverId} data-disconnected={row.disconnected ? 'true' : undefined}>
      <span className="server-row-top">
        <span className="mono strong">{row.serverId}</span>
        {row.disconnected ? (
          <span className="badge tone-muted" title={t('bridged.notRunningTitle')} data-testid="bridged-not-running">
            {t('bridged.notRunning')}
          </span>
        ) : (
          <ViaHost via={row.via} />
        )}
      </span>
      {row.disconnected ? (
        <span className="muted small" data-testid="bridged-waiting">
          {row.auth?.status === 'signed_in'
            ? row.via
              ? t('bridged.signedInRestart', { host: row.via.host })
              : t('bridged.signedInRestartAnyHost')
            : row.via
              ? t('bridged.waiting', { host: row.via.host })
              : t('bridged.waitingAnyHost')}
        </span>
      ) : (
        <span className="muted small">
          {[t('screen.bridgedSince', { time: clockTime(row.since) }), row.pending > 0 && t('screen.rowInFlight', { n: row.pending })].filter(Boolean).join(' · ')}
        </span>
      )}
      {row.auth && <BridgedSignIn serverId={row.serverId} auth={row.auth} />}
      {!row.disconnected && <BridgedRoots row={row} />}
      {!row.disconnected && <BridgedActivity row={row} />}
    </li>
  );
}

/** The "Through the bridge" list, or nothing when no server runs through the bridge. */
export function BridgedServers() {
  const { t } = useTranslation('servers');
  const bridged = useConsole((s) => s.mirror?.bridged) ?? [];
  if (bridged.length === 0) return null;
  return (
    <section className="bridged-servers" data-testid="bridged-servers">
      <h3 className="small muted" title={t('screen.bridgedTitle')}>
        {t('screen.bridged')}
      </h3>
      <ul className="server-list">
        {bridged.map((b) => (
          <BridgedRow key={`${b.serverId}@${b.since}`} row={b} />
        ))}
      </ul>
    </section>
  );
}
