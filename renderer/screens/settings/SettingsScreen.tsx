/**
 * The Settings screen: appearance (theme), notifications (on/off, sound, do not disturb, a test,
 * the browser's permission in the web host), startup (launch at login) and where files live.
 * Every control shows main's mirrored settings and changes them through `setDesktopSettings`;
 * nothing is kept locally, so what is shown is what is saved.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { THEME_PREFERENCES, type DesktopSettingsChange, type ThemePreference } from '../../../shared/desktop';
import { getApi } from '../../api';
import { Banner, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { useConsole } from '../../store';
import { effectiveTheme, useOsPrefersDark } from '../../theme';
import { browserPermission, requestBrowserPermission, type BrowserPermission } from './attention';

const THEME_LABELS: Record<ThemePreference, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };

const PERMISSION_TEXT: Record<BrowserPermission, string> = {
  granted: 'This browser shows the console’s notifications.',
  default: 'This browser has not been asked yet.',
  denied: 'This browser blocks notifications from this page; allow them in the site settings.',
  unsupported: 'This browser has no notifications.',
};

function Toggle(props: { id: string; label: ReactNode; help?: ReactNode; checked: boolean; disabled?: boolean; onChange(checked: boolean): void }) {
  return (
    <div className="settings-row">
      <label className="toggle" htmlFor={props.id}>
        <input id={props.id} type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} data-testid={props.id} />
        {props.label}
      </label>
      {props.help && <div className="field-help">{props.help}</div>}
    </div>
  );
}

function BrowserNotifications() {
  const [permission, setPermission] = useState<BrowserPermission>(browserPermission);
  return (
    <div className="settings-row" data-testid="browser-permission">
      <div>
        <span className="field-label">Browser notifications: </span>
        <span data-testid="browser-permission-state">{PERMISSION_TEXT[permission]}</span>
      </div>
      {permission === 'default' && (
        <div>
          <button type="button" data-testid="allow-browser-notifications" onClick={() => void requestBrowserPermission().then(setPermission)}>
            Allow browser notifications
          </button>
        </div>
      )}
    </div>
  );
}

function Fact({ label, value, testId }: { label: string; value: string | undefined; testId?: string }) {
  if (!value) return null;
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd className="mono break" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The Settings screen. */
export function SettingsScreen() {
  const desktop = useConsole((s) => s.mirror?.desktop);
  const facts = useConsole((s) => s.mirror?.settings);
  const osDark = useOsPrefersDark();
  const change = useCallback((c: DesktopSettingsChange) => getApi().setDesktopSettings(c), []);
  const save = useAction(change);
  const test = useAction(useCallback(() => getApi().sendTestNotification({}), []));

  if (!desktop) {
    return (
      <div className="settings" data-testid="settings-screen">
        <h2>Settings</h2>
        <p className="muted">This console does not report desktop settings.</p>
      </div>
    );
  }
  const { settings, supports } = desktop;
  const set = (c: DesktopSettingsChange) => void save.run(c);
  const web = facts?.host === 'web';

  return (
    <div className="settings" data-testid="settings-screen">
      <div className="pane-title settings-title">
        <h2>Settings</h2>
        <span className="muted small">Saved as you change them, in {desktop.path}</span>
      </div>
      {desktop.problem && <Banner tone="warn">{desktop.problem}</Banner>}
      {save.error && (
        <Banner tone="error" testId="settings-error">
          {save.error}
        </Banner>
      )}

      <Section title="Appearance" testId="settings-appearance">
        <fieldset className="settings-choices" disabled={save.pending}>
          <legend className="field-label">Theme</legend>
          {THEME_PREFERENCES.map((t) => (
            <label key={t} className="toggle">
              <input type="radio" name="theme" value={t} checked={settings.theme === t} onChange={() => set({ theme: t })} data-testid={`theme-${t}`} />
              {THEME_LABELS[t]}
            </label>
          ))}
        </fieldset>
        <p className="field-help" data-testid="theme-effective">
          In use now: {effectiveTheme(settings.theme, osDark)}
          {settings.theme === 'system' ? ` (the system is ${osDark ? 'dark' : 'light'})` : ''}.
        </p>
      </Section>

      <Section title="Attention" testId="settings-attention">
        <Toggle
          id="setting-notifications"
          label="Notify me when a request needs review"
          help={supports.nativeNotifications ? 'A system notification per request, naming the server, the tool and the first line of the prompt; “Review” opens it.' : 'Shown by the browser, once you allow it below.'}
          checked={settings.notifications}
          disabled={save.pending}
          onChange={(v) => set({ notifications: v })}
        />
        <Toggle id="setting-sound" label="Play the notification sound" checked={settings.sound} disabled={save.pending || !settings.notifications} onChange={(v) => set({ sound: v })} />
        <Toggle
          id="setting-dnd"
          label="Do not disturb"
          help={`No notifications and no sound. The count still shows in the ${supports.badge ? 'dock or taskbar badge, the tray and the ' : ''}${web ? 'tab' : 'window'} title.`}
          checked={settings.doNotDisturb}
          disabled={save.pending}
          onChange={(v) => set({ doNotDisturb: v })}
        />
        {web && <BrowserNotifications />}
        <div className="settings-row settings-actions">
          <button type="button" data-testid="test-notification" disabled={test.pending} onClick={() => void test.run()}>
            Send a test notification
          </button>
          {test.error && <span className="action-error">{test.error}</span>}
        </div>
        {supports.tray && <p className="field-help">The tray icon shows the count; its menu opens the console, pauses auto-approval, switches do not disturb and quits.</p>}
      </Section>

      <Section title="Startup" testId="settings-startup">
        <Toggle
          id="setting-launch-at-login"
          label="Start the console when I log in"
          help={supports.launchAtLogin ? undefined : desktop.launchAtLoginNote}
          checked={settings.launchAtLogin}
          disabled={save.pending || (!supports.launchAtLogin && !settings.launchAtLogin)}
          onChange={(v) => set({ launchAtLogin: v })}
        />
        {!web && <p className="field-help">Only one console runs at a time; starting it again brings this window forward. The window’s size and position are remembered.</p>}
      </Section>

      <Section title="Files" testId="settings-files">
        <dl className="facts settings-facts">
          <Fact label="Host" value={facts?.host} />
          <Fact label="User data" value={facts?.userDataDir} testId="fact-user-data" />
          <Fact label="Servers" value={facts?.serversConfigPath} />
          <Fact label="Providers" value={facts?.providersConfigPath} />
          <Fact label="History" value={facts?.historyPath} />
          <Fact label="Desktop settings" value={desktop.path} />
          <Fact label="API keys" value={facts?.secretStore ? `${facts.secretStore.backend}${facts.secretStore.warning ? ` — ${facts.secretStore.warning}` : ''}` : undefined} />
        </dl>
      </Section>
    </div>
  );
}
