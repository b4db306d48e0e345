/**
 * The head of a server's page: name and status, the actions (Restart, Retry now, Enable / Disable,
 * Edit, Duplicate, Remove, Sign in / Sign out), the connection facts (transport, target, protocol
 * era and version, server info, capabilities, pid, connected since), and banners for a failed
 * connection, automatic reconnection (attempt and next time) and OAuth.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerStatus, ServerView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Banner, Facts, Pill } from '../../components/common';
import { clockTime, duration } from '../../format';
import { useAction, useNow } from '../../hooks';
import { useSay } from '../../i18n/say';
import { useSignIn } from './sign-in';

const STATUS_TONE: Record<ServerStatus, 'ok' | 'info' | 'error' | 'muted' | 'warn'> = {
  ready: 'ok',
  connecting: 'info',
  error: 'error',
  disconnected: 'muted',
  disabled: 'muted',
  needs_auth: 'warn',
};

/** A server's connection status pill. */
export function ServerStatusPill({ status }: { status: ServerStatus }) {
  const { t } = useTranslation('servers');
  return (
    <Pill tone={STATUS_TONE[status]} testId="server-status">
      {t(`status.${status}`)}
    </Pill>
  );
}

/**
 * "tools (listChanged), resources (subscribe, listChanged), logging" from declared capabilities
 * (protocol names, not translated); `none` is the text for an empty capability object.
 */
export function describeCapabilities(caps: Record<string, unknown> | undefined, none: string): string {
  if (!caps) return '—';
  const parts = Object.entries(caps).map(([name, value]) => {
    const flags = value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>).filter(([, v]) => v === true).map(([k]) => k) : [];
    return flags.length ? `${name} (${flags.join(', ')})` : name;
  });
  return parts.length ? parts.join(', ') : none;
}

/** Automatic reconnection: the attempt and when the next one is (or that it gave up), and Retry now. */
function ReconnectBanner({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const now = useNow();
  const retry = useAction(() => getApi().restartServer({ serverId: server.id }));
  const r = server.reconnect;
  if (!r) return null;
  const when = r.nextAt !== undefined ? Math.max(0, r.nextAt - now) : undefined;
  return (
    <Banner tone={r.gaveUp ? 'error' : 'warn'} title={r.gaveUp ? t('reconnect.gaveUp', { max: r.maxAttempts }) : t('reconnect.reconnecting')} testId="reconnect-banner">
      <span data-testid="reconnect-attempt">
        {r.gaveUp
          ? t('reconnect.noMore')
          : when !== undefined
            ? t('reconnect.attemptAt', { attempt: r.attempt, max: r.maxAttempts, wait: duration(when), time: clockTime(r.nextAt!) })
            : t('reconnect.attempt', { attempt: r.attempt, max: r.maxAttempts })}
      </span>{' '}
      <button type="button" className="btn-small" onClick={() => void retry.run()} disabled={retry.pending} data-testid="retry-now">
        {t('reconnect.retryNow')}
      </button>
      <ActionError error={retry.error} />
    </Banner>
  );
}

/** OAuth: needed, pending (finish in the browser, open the link again) or signed in (until when), with Sign in or Sign out. */
function AuthBanner({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const signIn = useSignIn(server.id);
  const link = signIn.link;
  const signOut = useAction(() => getApi().signOut({ serverId: server.id }));
  const auth = server.auth;
  if (server.status !== 'needs_auth' && !auth) return null;
  const pending = auth?.status === 'pending';
  return (
    <Banner tone={auth?.status === 'signed_in' && !auth.error ? 'info' : 'warn'} title={auth?.status === 'signed_in' ? t('auth.signedIn') : pending ? t('auth.pending') : t('auth.needed')} testId="auth-banner">
      {auth?.error && <div className="error-text">{auth.error}</div>}
      {auth?.status === 'signed_in' && auth.expiresAt !== undefined && <div className="muted small">{t('auth.tokenValid', { time: clockTime(auth.expiresAt) })}</div>}
      {pending && (
        <div className="small">
          {t('auth.finishInBrowser')}{' '}
          {link && (
            <a href={link} target="_blank" rel="noopener noreferrer" data-testid="auth-link">
              {t('auth.openAgain')}
            </a>
          )}
        </div>
      )}
      <div className="banner-actions">
        {auth?.status !== 'signed_in' && (
          <button type="button" className="btn-primary btn-small" onClick={() => void signIn.run()} disabled={signIn.pending} data-testid="sign-in">
            {pending ? t('auth.startAgain') : t('auth.signIn')}
          </button>
        )}
        {auth?.status === 'signed_in' && (
          <button type="button" className="btn-small" onClick={() => void signOut.run()} disabled={signOut.pending} data-testid="sign-out">
            {t('auth.signOut')}
          </button>
        )}
        <ActionError error={signIn.error ?? signOut.error} />
      </div>
    </Banner>
  );
}

/** The header's actions on the server: restart, enable / disable, duplicate (then select the copy), remove (then select none). */
function useServerActions(server: ServerView, onSelect: (id: string | null) => void) {
  const restart = useAction(() => getApi().restartServer({ serverId: server.id }));
  const enabled = server.status !== 'disabled';
  const toggle = useAction(() => getApi().setServerEnabled({ serverId: server.id, enabled: !enabled }));
  const duplicate = useAction(async () => onSelect((await getApi().duplicateServer({ serverId: server.id })).id));
  const remove = useAction(async () => {
    await getApi().removeServer({ serverId: server.id });
    onSelect(null);
  });
  return { enabled, restart, toggle, duplicate, remove, error: restart.error ?? toggle.error ?? duplicate.error ?? remove.error };
}

/** The header's buttons: Restart (when enabled), Enable / Disable, Edit, Duplicate, and Remove (which asks first). */
function ServerActionButtons({ server, actions, onEdit }: { server: ServerView; actions: ReturnType<typeof useServerActions>; onEdit(): void }) {
  const { t } = useTranslation('servers');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const { enabled, restart, toggle, duplicate, remove } = actions;
  return (
    <>
      {enabled && (
        <button type="button" onClick={() => void restart.run()} disabled={restart.pending} data-testid="restart-server">
          {t('header.restart')}
        </button>
      )}
      <button type="button" onClick={() => void toggle.run()} disabled={toggle.pending} data-testid="toggle-enabled">
        {enabled ? t('header.disable') : t('header.enable')}
      </button>
      <button type="button" onClick={onEdit} data-testid="edit-server">
        {t('header.edit')}
      </button>
      <button type="button" onClick={() => void duplicate.run()} disabled={duplicate.pending} data-testid="duplicate-server">
        {t('header.duplicate')}
      </button>
      {confirmRemove ? (
        <>
          <button type="button" className="btn-danger" onClick={() => void remove.run()} disabled={remove.pending} data-testid="confirm-remove">
            {t('header.removeConfirm', { server: server.id })}
          </button>
          <button type="button" onClick={() => setConfirmRemove(false)}>
            {t('header.keep')}
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirmRemove(true)} data-testid="remove-server">
          {t('header.remove')}
        </button>
      )}
    </>
  );
}

/** The connection facts: transport, target, protocol version and era, server info, capabilities, pid, connected since, in flight. */
function ServerFacts({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const now = useNow();
  return (
    <Facts
      rows={[
        [t('header.factTransport'), t(`transport.${server.transport}`)],
        [t('header.factTarget'), <span key="t" className="mono break">{server.target}</span>],
        [
          t('header.factProtocol'),
          server.protocolVersion
            ? server.era
              ? t('header.protocolEra', { version: server.protocolVersion, era: server.era === 'modern' ? t('header.eraModern') : t('header.eraLegacy') })
              : server.protocolVersion
            : '—',
        ],
        server.serverInfo && [t('header.factServer'), <span key="s" translate="no">{`${server.serverInfo.title ?? server.serverInfo.name} ${server.serverInfo.version}`}</span>],
        server.status === 'ready' && [
          t('header.factCapabilities'),
          // The protocol's capability names, as the server declared them ("none" is worded).
          <span key="c" data-testid="server-capabilities" translate={Object.keys(server.capabilities ?? {}).length ? 'no' : undefined}>
            {describeCapabilities(server.capabilities, t('header.capabilitiesNone'))}
          </span>,
        ],
        server.pid !== undefined && [t('header.factProcess'), t('header.pid', { pid: server.pid })],
        server.connectedAt !== undefined && [t('header.factConnected'), t('header.connectedAgo', { time: clockTime(server.connectedAt), ago: duration(Math.max(0, now - server.connectedAt)) })],
        [t('header.factInFlight'), String(server.inFlight)],
      ]}
    />
  );
}

/** The head of the server page. `onEdit` opens the editor; `onSelect` moves the selection (after duplicate / remove). */
export function ServerHeader({ server, onEdit, onSelect }: { server: ServerView; onEdit(): void; onSelect(id: string | null): void }) {
  const { t } = useTranslation('servers');
  const say = useSay();
  const actions = useServerActions(server, onSelect);
  const { enabled } = actions;
  return (
    <header className="item-header">
      <div className="item-header-top">
        <h2 className="mono">{server.id}</h2>
        <ServerStatusPill status={server.status} />
        <span className="spacer" />
        <ActionError error={actions.error} />
        <ServerActionButtons server={server} actions={actions} onEdit={onEdit} />
      </div>
      <ServerFacts server={server} />
      {server.warning && (
        <Banner tone="warn" testId="server-warning">
          {say(server.warningUi, server.warning)}
        </Banner>
      )}
      {!enabled && <Banner tone="muted">{t('header.disabledNote')}</Banner>}
      {(server.status === 'error' || server.status === 'disconnected') && server.error && (
        <Banner tone={server.status === 'error' ? 'error' : 'muted'} title={server.status === 'error' ? t('header.connectionFailed') : t('header.disconnected')} testId="server-error">
          <span translate="no">{server.error}</span>
        </Banner>
      )}
      <ReconnectBanner server={server} />
      <AuthBanner server={server} />
      {server.instructions && (
        <details className="raw-json">
          <summary>{t('header.instructions')}</summary>
          <pre className="pre-text">{server.instructions}</pre>
        </details>
      )}
    </header>
  );
}
