/**
 * The Settings screen: appearance (theme, language), notifications (on/off, sound, do not disturb, a test,
 * the browser's permission in the web host), startup (launch at login), the provider gateway
 * (./GatewaySection) and where files live.
 * Every control shows main's mirrored settings and changes them through `setDesktopSettings`;
 * nothing is kept locally, so what is shown is what is saved.
 */
import { useMay, useViewer } from '../../viewer';
import { PersonalTokens } from './PersonalTokens';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_PREFERENCES, THEME_PREFERENCES, resolveLanguage, type DesktopSettingsChange, type DesktopView, type LanguagePreference } from '../../../shared/contract/desktop';
import type { SettingsView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { Banner, Section } from '../../components/common';
import { useAction, type ActionState } from '../../hooks';
import { useConsole } from '../../store';
import { effectiveTheme, useOsPrefersDark } from '../../theme';
import { browserPermission, requestBrowserPermission, type BrowserPermission } from './attention';
import { GatewaySection } from './GatewaySection';
import { PeopleSection } from './PeopleSection';
import { useSay } from '../../i18n/say';

/** The OS locales as the renderer sees them (BCP 47, most preferred first). */
function osLocales(): readonly string[] {
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/**
 * The Language fieldset: follow the system, or one of the shipped languages (each named in its own
 * language), saved with `setDesktopSettings({ language })` like the theme; says which language is
 * in use and, when following the system, which OS locale chose it.
 */
function LanguageChoice({ preference, disabled, onChange }: { preference: LanguagePreference; disabled: boolean; onChange(language: LanguagePreference): void }) {
  const { t } = useTranslation('settings');
  const locales = osLocales();
  const active = resolveLanguage(preference, locales);
  const language = t(`languageNames.${active}`);
  const locale = locales.find((tag) => /^(en|zh)\b/i.test(tag));
  return (
    <>
      <fieldset className="settings-choices" disabled={disabled} data-testid="settings-language">
        <legend className="field-label">{t('language')}</legend>
        {LANGUAGE_PREFERENCES.map((pref) => (
          <label key={pref} className="toggle" lang={pref === 'system' ? undefined : pref}>
            <input type="radio" name="language" value={pref} checked={preference === pref} onChange={() => onChange(pref)} data-testid={`language-${pref}`} />
            {pref === 'system' ? t('languageSystem') : t(`languageNames.${pref}`)}
          </label>
        ))}
      </fieldset>
      <p className="field-help" data-testid="language-effective">
        {preference !== 'system'
          ? t('languageInUse', { language })
          : locale
            ? t('languageInUseSystem', { language, locale })
            : t('languageInUseNoLocale', { language })}
      </p>
    </>
  );
}

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
  const { t } = useTranslation('settings');
  const [permission, setPermission] = useState<BrowserPermission>(browserPermission);
  return (
    <div className="settings-row" data-testid="browser-permission">
      <div>
        <span className="field-label">{t('browserNotifications')} </span>
        <span data-testid="browser-permission-state">{t(`permission.${permission}`)}</span>
      </div>
      {permission === 'default' && (
        <div>
          <button type="button" data-testid="allow-browser-notifications" onClick={() => void requestBrowserPermission().then(setPermission)}>
            {t('allowBrowser')}
          </button>
        </div>
      )}
    </div>
  );
}

function Fact({ label, value, testId, copy }: { label: string; value: string | undefined; testId?: string; copy?: boolean }) {
  if (!value) return null;
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd className="mono break">
        <span data-testid={testId}>{value}</span>
        {copy && (
          <>
            {' '}
            <CopyButton text={value} label={label} testId={testId && `copy-${testId}`} />
          </>
        )}
      </dd>
    </div>
  );
}

/** What each section of the screen gets: main's desktop settings, whether a change is being saved, how to save one, and whether the host is the web. */
interface SectionProps {
  desktop: DesktopView;
  pending: boolean;
  set(change: DesktopSettingsChange): void;
  web: boolean;
}

/** The Settings screen. */
export function SettingsScreen() {
  const { t } = useTranslation('settings');
  const desktop = useConsole((s) => s.mirror?.desktop);
  const facts = useConsole((s) => s.mirror?.settings);
  const change = useCallback((c: DesktopSettingsChange) => getApi().setDesktopSettings(c), []);
  const save = useAction(change);
  const test = useAction(useCallback(() => getApi().sendTestNotification({}), []));
  const mayAdmin = useMay('admin');
  const viewer = useViewer();

  if (!desktop) {
    return (
      <div className="settings" data-testid="settings-screen">
        <h2>{t('title')}</h2>
        <p className="muted">{t('noDesktop')}</p>
      </div>
    );
  }
  const section: SectionProps = { desktop, pending: save.pending, set: (c) => void save.run(c), web: facts?.host === 'web' };

  return (
    <div className="settings" data-testid="settings-screen">
      <div className="pane-title settings-title">
        <h2>{t('title')}</h2>
        <span className="muted small settings-saved-in" data-testid="settings-saved-in">
          {t('savedIn', { path: desktop.path })}
        </span>
      </div>
      {desktop.problem && <Banner tone="warn">{desktop.problem}</Banner>}
      {save.error && (
        <Banner tone="error" testId="settings-error">
          {save.error}
        </Banner>
      )}

      <AppearanceSection {...section} />

      <AttentionSection {...section} test={test} />

      <StartupSection {...section} />

      {mayAdmin && <PeopleSection />}

      {mayAdmin && <GatewaySection />}

      {viewer && <PersonalTokens />}

      <FilesSection desktop={desktop} facts={facts} />
    </div>
  );
}

/** Appearance: the theme (saying which one is in use) and the language. */
function AppearanceSection({ desktop: { settings }, pending, set }: SectionProps) {
  const { t } = useTranslation('settings');
  const osDark = useOsPrefersDark();
  return (
    <Section title={t('appearance')} testId="settings-appearance">
      <fieldset className="settings-choices" disabled={pending}>
        <legend className="field-label">{t('theme')}</legend>
        {THEME_PREFERENCES.map((pref) => (
          <label key={pref} className="toggle">
            <input type="radio" name="theme" value={pref} checked={settings.theme === pref} onChange={() => set({ theme: pref })} data-testid={`theme-${pref}`} />
            {t(`themes.${pref}`)}
          </label>
        ))}
      </fieldset>
      <p className="field-help" data-testid="theme-effective">
        {settings.theme === 'system'
          ? t('themeInUseSystem', { theme: t(`themeNames.${effectiveTheme(settings.theme, osDark)}`), system: t(osDark ? 'themeNames.dark' : 'themeNames.light') })
          : t('themeInUse', { theme: t(`themeNames.${effectiveTheme(settings.theme, osDark)}`) })}
      </p>
      <LanguageChoice preference={settings.language ?? 'system'} disabled={pending} onChange={(language) => set({ language })} />
    </Section>
  );
}

/** Attention: notifications, sound, do not disturb, the browser's permission (web host) and a test notification. */
function AttentionSection({ desktop: { settings, supports }, pending, set, web, test }: SectionProps & { test: ActionState<[]> }) {
  const { t } = useTranslation('settings');
  return (
    <Section title={t('attention')} testId="settings-attention">
      <Toggle
        id="setting-notifications"
        label={t('notify')}
        help={supports.nativeNotifications ? t('notifyHelpNative') : t('notifyHelpWeb')}
        checked={settings.notifications}
        disabled={pending}
        onChange={(v) => set({ notifications: v })}
      />
      <Toggle id="setting-sound" label={t('sound')} checked={settings.sound} disabled={pending || !settings.notifications} onChange={(v) => set({ sound: v })} />
      <Toggle
        id="setting-dnd"
        label={t('dnd')}
        help={supports.badge ? (web ? t('dndHelpBadgeTab') : t('dndHelpBadgeWindow')) : web ? t('dndHelpTab') : t('dndHelpWindow')}
        checked={settings.doNotDisturb}
        disabled={pending}
        onChange={(v) => set({ doNotDisturb: v })}
      />
      {web && <BrowserNotifications />}
      <div className="settings-row settings-actions">
        <button type="button" data-testid="test-notification" disabled={test.pending} onClick={() => void test.run()}>
          {t('testNotification')}
        </button>
        {test.error && <span className="action-error">{test.error}</span>}
      </div>
      {supports.tray && <p className="field-help">{t('trayHelp')}</p>}
    </Section>
  );
}

/** Startup: launch at login (with why it is unavailable) and, on the desktop, the single-instance note. */
function StartupSection({ desktop, pending, set, web }: SectionProps) {
  const { t } = useTranslation('settings');
  const say = useSay();
  const { settings, supports } = desktop;
  return (
    <Section title={t('startup')} testId="settings-startup">
      <Toggle
        id="setting-launch-at-login"
        label={t('launchAtLogin')}
        help={supports.launchAtLogin ? undefined : say(desktop.launchAtLoginNoteUi, desktop.launchAtLoginNote)}
        checked={settings.launchAtLogin}
        disabled={pending || (!supports.launchAtLogin && !settings.launchAtLogin)}
        onChange={(v) => set({ launchAtLogin: v })}
      />
      {!web && <p className="field-help">{t('singleInstance')}</p>}
    </Section>
  );
}

/** Where files live: the host, the data directory, the config and history files, and the API-key store. */
function FilesSection({ desktop, facts }: { desktop: DesktopView; facts: SettingsView | undefined }) {
  const { t } = useTranslation('settings');
  const say = useSay();
  const keys = facts?.secretStore;
  return (
    <Section title={t('files')} testId="settings-files">
      <dl className="facts settings-facts">
        <Fact label={t('facts.host')} value={facts?.host} />
        <Fact label={t('facts.userData')} value={facts?.userDataDir} testId="fact-user-data" copy />
        <Fact label={t('facts.servers')} value={facts?.serversConfigPath} testId="fact-servers" copy />
        <Fact label={t('facts.providers')} value={facts?.providersConfigPath} testId="fact-providers" copy />
        <Fact label={t('facts.history')} value={facts?.historyPath} testId="fact-history" copy />
        <Fact label={t('facts.desktop')} value={desktop.path} testId="fact-desktop" copy />
        <Fact label={t('facts.apiKeys')} value={keys && [say(keys.backendUi, keys.backend), keys.warning && say(keys.warningUi, keys.warning)].filter(Boolean).join(' — ')} />
      </dl>
    </Section>
  );
}
