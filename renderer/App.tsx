/** The app shell: the left nav (Queue with its badge, Servers, History), notices and the screen. */
import { Suspense, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi, getConnection } from './api';
import { useConsole, useItems, useNotices, needsPerson, type Screen } from './store';
import { Banner } from './components/common';
import { QueueScreen } from './screens/queue/QueueScreen';
import { HistoryScreen, ProvidersScreen, RulesScreen, ServersScreen, SettingsScreen } from './screens/lazy-screens';
import { DoNotDisturbIndicator } from './screens/settings/NavExtras';
import { useAttention } from './screens/settings/attention';
import { useThemePreference } from './theme';
import { useLanguagePreference } from './i18n';
import { AutoApprovalIndicator } from './screens/rules/AutoApprovalIndicator';
import { KeyboardLayer, useNavHint } from './keyboard/KeyboardLayer';
import { useSay } from './i18n/say';
import { useMay } from './viewer';
import { SignOutButton } from './screens/sign-in/SignOut';

function NavButton({ screen, label, badge }: { screen: Screen; label: string; badge?: number }) {
  const { t } = useTranslation('app');
  const current = useConsole((s) => s.screen);
  const setScreen = useConsole((s) => s.setScreen);
  const active = current === screen;
  const keys = useNavHint(screen);
  return (
    <button
      type="button"
      {...keys}
      className={`nav-item${active ? ' is-active' : ''}`}
      aria-current={active ? 'page' : undefined}
      data-testid={`nav-${screen}`}
      onClick={() => setScreen(screen)}
    >
      <span>{label}</span>
      {badge !== undefined && badge > 0 && (
        <span className="nav-badge" data-testid="queue-badge" aria-label={t('nav.awaiting', { count: badge })}>
          {badge}
        </span>
      )}
    </button>
  );
}

function ConnectionIndicator() {
  const connection = getConnection();
  const status = useSyncExternalStore(connection.onStatus, connection.status);
  const { t } = useTranslation('app');
  if (status === 'open') return null;
  return (
    <div className="nav-conn" role="status" data-testid="connection-status">
      {status === 'closed' ? t('connection.disconnected') : status === 'reconnecting' ? t('connection.reconnecting') : t('connection.connecting')}
    </div>
  );
}

function Nav() {
  const { t } = useTranslation('app');
  const items = useItems();
  const waiting = items.filter(needsPerson).length;
  const host = useConsole((s) => s.mirror?.settings.host);
  // A team server's reviewers and auditors do not set servers, providers or rules up: main refuses it anyway.
  const admin = useMay('admin');
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      <div className="brand">
        {/* eslint-disable-next-line i18next/no-literal-string -- a decorative symbol, not language */}
        <span className="brand-mark" aria-hidden="true">
          ◆
        </span>
        <span>{t('brand')}</span>
      </div>
      <NavButton screen="queue" label={t('nav.queue')} badge={waiting} />
      {admin && <NavButton screen="servers" label={t('nav.servers')} />}
      {admin && <NavButton screen="providers" label={t('nav.providers')} />}
      <NavButton screen="history" label={t('nav.history')} />
      {admin && <NavButton screen="rules" label={t('nav.rules')} />}
      {admin && <AutoApprovalIndicator />}
      <NavButton screen="settings" label={t('nav.settings')} />
      <DoNotDisturbIndicator />
      <ConnectionIndicator />
      <OnlinePeople />
      <div className="nav-foot muted small">{host ? t('nav.host', { host }) : ''}</div>
      <SignOutButton />
    </nav>
  );
}

/** Who has the console open now, on any instance of a team server (nothing on the desktop). */
function OnlinePeople() {
  const { t } = useTranslation('app');
  const online = useConsole((s) => s.mirror?.team?.online);
  if (!online) return null;
  return (
    <div className="online-people" data-testid="online-people" title={t('online.title')}>
      <span className="muted">{t('online.label')}</span>
      {online.map((p) => (
        <span key={p.subject} className="online-person" data-testid="online-person">
          {p.name}
        </span>
      ))}
    </div>
  );
}

function Notices() {
  const { t } = useTranslation('app');
  const hidden = useConsole((s) => s.hiddenNotices);
  const hide = useConsole((s) => s.hideNotice);
  const notices = useNotices().filter((n) => !hidden[n.id]);
  const say = useSay();
  if (notices.length === 0) return null;
  return (
    <div className="notices" data-testid="notices">
      {notices.slice(-3).map((n) => (
        <div className="notice" key={n.id}>
          <Banner tone={n.level === 'error' ? 'error' : n.level === 'warning' ? 'warn' : 'info'}>
            {/* Without a message code the words are data (a parser's, a server's, the OS's). */}
            {n.ui ? say(n.ui) : <span translate="no">{n.message}</span>}
          </Banner>
          <button
            type="button"
            className="btn-small"
            aria-label={t('notices.hideLabel')}
            onClick={() => {
              hide(n.id); // at once here; main then drops it for every window
              getApi().dismissNotice({ id: n.id }).catch(() => undefined);
            }}
          >
            {t('notices.hide')}
          </button>
        </div>
      ))}
      {notices.length > 3 && <span className="muted small">{t('notices.older', { count: notices.length - 3 })}</span>}
    </div>
  );
}

/** The whole UI. */
export function App() {
  useThemePreference();
  useLanguagePreference();
  useAttention();
  const { t } = useTranslation('app');
  const status = useConsole((s) => s.status);
  const screen = useConsole((s) => s.screen);
  return (
    <div className="app">
      <Nav />
      <main className="main" id="main" tabIndex={-1}>
        <Notices />
        {status.kind === 'error' ? (
          <div className="center">
            <Banner tone="error" title={t('connection.cannotReach')} testId="connection-error">
              {status.message}
            </Banner>
            <button type="button" onClick={() => window.location.reload()}>
              {t('connection.reload')}
            </button>
          </div>
        ) : status.kind === 'connecting' ? (
          <div className="center muted" data-testid="connecting">
            {t('connection.connecting')}
          </div>
        ) : screen === 'queue' ? (
          <QueueScreen />
        ) : (
          <Suspense
            fallback={
              <div className="center muted" data-testid="screen-loading">
                {t('connection.loadingScreen')}
              </div>
            }
          >
            {screen === 'rules' ? <RulesScreen /> : screen === 'settings' ? <SettingsScreen /> : screen === 'servers' ? <ServersScreen /> : screen === 'providers' ? <ProvidersScreen /> : <HistoryScreen />}
          </Suspense>
        )}
      </main>
      <KeyboardLayer />
    </div>
  );
}
