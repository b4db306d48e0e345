/**
 * The head of a server's page: name and status, the actions (Restart, Retry now, Enable / Disable,
 * Edit, Duplicate, Remove, Sign in / Sign out), the connection facts (transport, target, protocol
 * era and version, server info, capabilities, pid, connected since), and banners for a failed
 * connection, automatic reconnection (attempt and next time) and OAuth.
 */
import { useState } from 'react';
import type { ServerStatus, ServerView } from '../../../shared/state';
import { getApi } from '../../api';
import { ActionError, Banner, Facts, Pill } from '../../components/common';
import { clockTime, duration } from '../../format';
import { useAction, useNow } from '../../hooks';
import { useConsole } from '../../store';

const STATUS_TONE: Record<ServerStatus, 'ok' | 'info' | 'error' | 'muted' | 'warn'> = {
  ready: 'ok',
  connecting: 'info',
  error: 'error',
  disconnected: 'muted',
  disabled: 'muted',
  needs_auth: 'warn',
};
const STATUS_LABEL: Partial<Record<ServerStatus, string>> = { needs_auth: 'sign-in needed' };

/** A server's connection status pill. */
export function ServerStatusPill({ status }: { status: ServerStatus }) {
  return (
    <Pill tone={STATUS_TONE[status]} testId="server-status">
      {STATUS_LABEL[status] ?? status}
    </Pill>
  );
}

/** "tools (listChanged), resources (subscribe, listChanged), logging" from declared capabilities. */
export function describeCapabilities(caps: Record<string, unknown> | undefined): string {
  if (!caps) return '—';
  const parts = Object.entries(caps).map(([name, value]) => {
    const flags = value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>).filter(([, v]) => v === true).map(([k]) => k) : [];
    return flags.length ? `${name} (${flags.join(', ')})` : name;
  });
  return parts.length ? parts.join(', ') : 'none';
}

function ReconnectBanner({ server }: { server: ServerView }) {
  const now = useNow();
  const retry = useAction(() => getApi().restartServer({ serverId: server.id }));
  const r = server.reconnect;
  if (!r) return null;
  const when = r.nextAt !== undefined ? Math.max(0, r.nextAt - now) : undefined;
  return (
    <Banner tone={r.gaveUp ? 'error' : 'warn'} title={r.gaveUp ? `Gave up reconnecting after ${r.maxAttempts} attempts` : 'Reconnecting'} testId="reconnect-banner">
      <span data-testid="reconnect-attempt">
        {r.gaveUp ? 'The console will not try again on its own.' : `Attempt ${r.attempt} of ${r.maxAttempts}${when !== undefined ? ` in ${duration(when)} (at ${clockTime(r.nextAt!)})` : ''}.`}
      </span>{' '}
      <button type="button" className="btn-small" onClick={() => void retry.run()} disabled={retry.pending} data-testid="retry-now">
        Retry now
      </button>
      <ActionError error={retry.error} />
    </Banner>
  );
}

function AuthBanner({ server }: { server: ServerView }) {
  const host = useConsole((s) => s.mirror?.settings.host);
  const [link, setLink] = useState<string | null>(null);
  const signIn = useAction(async () => {
    // In a browser, open the tab now (a click may open windows; after an await it may be blocked).
    const tab = host === 'web' ? window.open('about:blank', '_blank') : null;
    if (tab) tab.opener = null;
    try {
      const res = await getApi().signIn({ serverId: server.id });
      if (res.authorizationUrl && !res.opened) {
        setLink(res.authorizationUrl);
        if (tab) tab.location.href = res.authorizationUrl;
      } else tab?.close();
    } catch (err) {
      tab?.close();
      throw err;
    }
  });
  const signOut = useAction(() => getApi().signOut({ serverId: server.id }));
  const auth = server.auth;
  if (server.status !== 'needs_auth' && !auth) return null;
  const pending = auth?.status === 'pending';
  return (
    <Banner tone={auth?.status === 'signed_in' && !auth.error ? 'info' : 'warn'} title={auth?.status === 'signed_in' ? 'Signed in (OAuth)' : pending ? 'Waiting for you to sign in' : 'This server needs you to sign in'} testId="auth-banner">
      {auth?.error && <div className="error-text">{auth.error}</div>}
      {auth?.status === 'signed_in' && auth.expiresAt !== undefined && <div className="muted small">Access token valid until {clockTime(auth.expiresAt)}; it is refreshed when needed.</div>}
      {pending && (
        <div className="small">
          Finish in your browser. {link && <a href={link} target="_blank" rel="noopener noreferrer" data-testid="auth-link">Open the sign-in page again</a>}
        </div>
      )}
      <div className="banner-actions">
        {auth?.status !== 'signed_in' && (
          <button type="button" className="btn-primary btn-small" onClick={() => void signIn.run()} disabled={signIn.pending} data-testid="sign-in">
            {pending ? 'Start again' : 'Sign in'}
          </button>
        )}
        {auth?.status === 'signed_in' && (
          <button type="button" className="btn-small" onClick={() => void signOut.run()} disabled={signOut.pending} data-testid="sign-out">
            Sign out
          </button>
        )}
        <ActionError error={signIn.error ?? signOut.error} />
      </div>
    </Banner>
  );
}

/** The head of the server page. `onEdit` opens the editor; `onSelect` moves the selection (after duplicate / remove). */
export function ServerHeader({ server, onEdit, onSelect }: { server: ServerView; onEdit(): void; onSelect(id: string | null): void }) {
  const [confirmRemove, setConfirmRemove] = useState(false);
  const restart = useAction(() => getApi().restartServer({ serverId: server.id }));
  const enabled = server.status !== 'disabled';
  const toggle = useAction(() => getApi().setServerEnabled({ serverId: server.id, enabled: !enabled }));
  const duplicate = useAction(async () => onSelect((await getApi().duplicateServer({ serverId: server.id })).id));
  const remove = useAction(async () => {
    await getApi().removeServer({ serverId: server.id });
    onSelect(null);
  });
  const now = useNow();
  const error = restart.error ?? toggle.error ?? duplicate.error ?? remove.error;
  return (
    <header className="item-header">
      <div className="item-header-top">
        <h2 className="mono">{server.id}</h2>
        <ServerStatusPill status={server.status} />
        <span className="spacer" />
        <ActionError error={error} />
        {enabled && (
          <button type="button" onClick={() => void restart.run()} disabled={restart.pending} data-testid="restart-server">
            Restart
          </button>
        )}
        <button type="button" onClick={() => void toggle.run()} disabled={toggle.pending} data-testid="toggle-enabled">
          {enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" onClick={onEdit} data-testid="edit-server">
          Edit
        </button>
        <button type="button" onClick={() => void duplicate.run()} disabled={duplicate.pending} data-testid="duplicate-server">
          Duplicate
        </button>
        {confirmRemove ? (
          <>
            <button type="button" className="btn-danger" onClick={() => void remove.run()} disabled={remove.pending} data-testid="confirm-remove">
              Remove {server.id}
            </button>
            <button type="button" onClick={() => setConfirmRemove(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirmRemove(true)} data-testid="remove-server">
            Remove
          </button>
        )}
      </div>
      <Facts
        rows={[
          ['Transport', server.transport === 'sse' ? 'HTTP+SSE (deprecated)' : server.transport === 'http' ? 'Streamable HTTP' : 'stdio'],
          ['Target', <span key="t" className="mono break">{server.target}</span>],
          ['Protocol', server.protocolVersion ? `${server.protocolVersion}${server.era ? ` (${server.era === 'modern' ? 'MRTR era' : 'push era'})` : ''}` : '—'],
          server.serverInfo && ['Server', `${server.serverInfo.title ?? server.serverInfo.name} ${server.serverInfo.version}`],
          server.status === 'ready' && ['Capabilities', <span key="c" data-testid="server-capabilities">{describeCapabilities(server.capabilities)}</span>],
          server.pid !== undefined && ['Process', `pid ${server.pid}`],
          server.connectedAt !== undefined && ['Connected', `${clockTime(server.connectedAt)} (${duration(Math.max(0, now - server.connectedAt))} ago)`],
          ['In flight', String(server.inFlight)],
        ]}
      />
      {server.warning && (
        <Banner tone="warn" testId="server-warning">
          {server.warning}
        </Banner>
      )}
      {!enabled && <Banner tone="muted">Disabled: listed, not connected. Enable it to connect.</Banner>}
      {(server.status === 'error' || server.status === 'disconnected') && server.error && (
        <Banner tone={server.status === 'error' ? 'error' : 'muted'} title={server.status === 'error' ? 'Connection failed' : 'Disconnected'} testId="server-error">
          {server.error}
        </Banner>
      )}
      <ReconnectBanner server={server} />
      <AuthBanner server={server} />
      {server.instructions && (
        <details className="raw-json">
          <summary>Server instructions</summary>
          <pre className="pre-text">{server.instructions}</pre>
        </details>
      )}
    </header>
  );
}
