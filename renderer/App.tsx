/** The app shell: the left nav (Queue with its badge, Servers, History), notices and the screen. */
import { useSyncExternalStore } from 'react';
import { getConnection } from './api';
import { useConsole, useElicitations, useItems, useNotices, isAwaitingPerson, type Screen } from './store';
import { elicitationAwaiting } from './screens/queue/ElicitationModel';
import { Banner } from './components/common';
import { QueueScreen } from './screens/queue/QueueScreen';
import { ServersScreen } from './screens/servers/ServersScreen';
import { HistoryScreen } from './screens/history/HistoryScreen';
import { ProvidersScreen } from './screens/providers/ProvidersScreen';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { DoNotDisturbIndicator } from './screens/settings/NavExtras';
import { useAttention } from './screens/settings/attention';
import { useThemePreference } from './theme';
import { useLanguagePreference } from './i18n';
import { RulesScreen } from './screens/rules/RulesScreen';
import { AutoApprovalIndicator } from './screens/rules/AutoApprovalIndicator';
import { KeyboardLayer } from './keyboard/KeyboardLayer';

function NavButton({ screen, label, badge }: { screen: Screen; label: string; badge?: number }) {
  const current = useConsole((s) => s.screen);
  const setScreen = useConsole((s) => s.setScreen);
  const active = current === screen;
  return (
    <button
      type="button"
      className={`nav-item${active ? ' is-active' : ''}`}
      aria-current={active ? 'page' : undefined}
      data-testid={`nav-${screen}`}
      onClick={() => setScreen(screen)}
    >
      <span>{label}</span>
      {badge !== undefined && badge > 0 && (
        <span className="nav-badge" data-testid="queue-badge" aria-label={`${badge} awaiting review`}>
          {badge}
        </span>
      )}
    </button>
  );
}

function ConnectionIndicator() {
  const connection = getConnection();
  const status = useSyncExternalStore(connection.onStatus, connection.status);
  if (status === 'open') return null;
  return (
    <div className="nav-conn" role="status" data-testid="connection-status">
      {status === 'closed' ? 'Disconnected' : status === 'reconnecting' ? 'Reconnecting…' : 'Connecting…'}
    </div>
  );
}

function Nav() {
  const items = useItems();
  const elicitations = useElicitations();
  const waiting = items.filter(isAwaitingPerson).length + elicitations.filter(elicitationAwaiting).length;
  const host = useConsole((s) => s.mirror?.settings.host);
  return (
    <nav className="nav" aria-label="Screens">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          ◆
        </span>
        <span>Approval Console</span>
      </div>
      <NavButton screen="queue" label="Queue" badge={waiting} />
      <NavButton screen="servers" label="Servers" />
      <NavButton screen="providers" label="Providers" />
      <NavButton screen="history" label="History" />
      <NavButton screen="rules" label="Rules" />
      <AutoApprovalIndicator />
      <NavButton screen="settings" label="Settings" />
      <DoNotDisturbIndicator />
      <ConnectionIndicator />
      <div className="nav-foot muted small">{host ? `host: ${host}` : ''}</div>
    </nav>
  );
}

function Notices() {
  const hidden = useConsole((s) => s.hiddenNotices);
  const hide = useConsole((s) => s.hideNotice);
  const notices = useNotices().filter((n) => !hidden[n.id]);
  if (notices.length === 0) return null;
  return (
    <div className="notices" data-testid="notices">
      {notices.slice(-3).map((n) => (
        <div className="notice" key={n.id}>
          <Banner tone={n.level === 'error' ? 'error' : n.level === 'warning' ? 'warn' : 'info'}>{n.message}</Banner>
          <button type="button" className="btn-small" aria-label="Hide this notice" onClick={() => hide(n.id)}>
            Hide
          </button>
        </div>
      ))}
      {notices.length > 3 && <span className="muted small">and {notices.length - 3} older</span>}
    </div>
  );
}

/** The whole UI. */
export function App() {
  useThemePreference();
  useLanguagePreference();
  useAttention();
  const status = useConsole((s) => s.status);
  const screen = useConsole((s) => s.screen);
  return (
    <div className="app">
      <Nav />
      <main className="main" id="main" tabIndex={-1}>
        <Notices />
        {status.kind === 'error' ? (
          <div className="center">
            <Banner tone="error" title="Cannot reach the console" testId="connection-error">
              {status.message}
            </Banner>
            <button type="button" onClick={() => window.location.reload()}>
              Reload
            </button>
          </div>
        ) : status.kind === 'connecting' ? (
          <div className="center muted" data-testid="connecting">
            Connecting…
          </div>
        ) : screen === 'rules' ? (
          <RulesScreen />
        ) : screen === 'settings' ? (
          <SettingsScreen />
        ) : screen === 'queue' ? (
          <QueueScreen />
        ) : screen === 'servers' ? (
          <ServersScreen />
        ) : screen === 'providers' ? (
          <ProvidersScreen />
        ) : (
          <HistoryScreen />
        )}
      </main>
      <KeyboardLayer />
    </div>
  );
}
