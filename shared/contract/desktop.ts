/**
 * Desktop life: the person's desktop settings (theme, notifications, sound, do not
 * disturb, launch at login), what the host supports, and the "attention" view — which items wait
 * on a person, and the notifications main decided to show.
 *
 * Main owns all of it (main/settings, main/attention); the renderer mirrors the `desktop` and
 * `attention` slices of the state. No Node, DOM or Electron imports.
 */
import { z } from 'zod';
import type { UiText } from './ui-text.js';

/** The app's name as windows, tabs and the tray show it. */
export const APP_TITLE = 'MCP Approval Console';

/** `system` follows the OS (light or dark); the others force one. */
export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
/** See {@link THEME_PREFERENCES}. */
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

/**
 * The UI languages the console ships (BCP 47 tags), English first (the fallback). `system` picks
 * one from the OS locale (the renderer's `navigator.languages`, which Electron sets from the OS).
 */
export const UI_LANGUAGES = ['en', 'zh-CN'] as const;
/** See {@link UI_LANGUAGES}. */
export type UiLanguage = (typeof UI_LANGUAGES)[number];
/** `system` follows the OS locale; the others force one language. */
export const LANGUAGE_PREFERENCES = ['system', ...UI_LANGUAGES] as const;
/** See {@link LANGUAGE_PREFERENCES}. */
export type LanguagePreference = (typeof LANGUAGE_PREFERENCES)[number];

/**
 * The language to show for a preference. `system` takes the first of `locales` (BCP 47 tags, most
 * preferred first) that the console ships: any `zh*` tag → `zh-CN`, any `en*` tag → `en`;
 * English when none matches.
 */
export function resolveLanguage(preference: LanguagePreference | undefined, locales: readonly string[]): UiLanguage {
  if (preference && preference !== 'system') return preference;
  for (const tag of locales) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
    const exact = UI_LANGUAGES.find((l) => l.toLowerCase() === lower);
    if (exact) return exact;
  }
  return 'en';
}

/**
 * The settings file (`desktop-settings.json` in the user-data folder). Missing fields take their
 * defaults; unknown keys are refused.
 */
export const DesktopSettingsSchema = z
  .object({
    /** Light, dark, or follow the OS. */
    theme: z.enum(THEME_PREFERENCES).default('system'),
    /** The UI language, or follow the OS locale. */
    language: z.enum(LANGUAGE_PREFERENCES).default('system'),
    /** Show a notification for every request that needs a person. */
    notifications: z.boolean().default(true),
    /** Play the system notification sound with each notification. */
    sound: z.boolean().default(false),
    /** Do not disturb: no notifications and no sound; the badge and the title still count. */
    doNotDisturb: z.boolean().default(false),
    /** Start the console when the person logs in (packaged desktop app only). */
    launchAtLogin: z.boolean().default(false),
  })
  .strict();
/** See {@link DesktopSettingsSchema} (parsed: every field present). */
export type DesktopSettings = z.infer<typeof DesktopSettingsSchema>;

/**
 * The input of `setDesktopSettings`: only the fields to change (no defaults are filled in, so a
 * change of one field leaves the others as they are).
 */
export const DesktopSettingsChangeSchema = z
  .object({
    theme: z.enum(THEME_PREFERENCES).optional(),
    language: z.enum(LANGUAGE_PREFERENCES).optional(),
    notifications: z.boolean().optional(),
    sound: z.boolean().optional(),
    doNotDisturb: z.boolean().optional(),
    launchAtLogin: z.boolean().optional(),
  })
  .strict();
/** See {@link DesktopSettingsChangeSchema}. */
export type DesktopSettingsChange = z.infer<typeof DesktopSettingsChangeSchema>;

/** The settings a fresh install starts with. */
export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = DesktopSettingsSchema.parse({});

/** What the running host can do; the Settings screen disables what it cannot. */
export interface DesktopSupports {
  /** Native OS notifications from main (Electron). The web host uses the browser's instead. */
  nativeNotifications: boolean;
  /** A tray / menu-bar icon with a menu. */
  tray: boolean;
  /** A dock / taskbar badge count. */
  badge: boolean;
  /** Registering the app to start at login (packaged desktop builds only). */
  launchAtLogin: boolean;
}

/** The `desktop` slice of the state. */
export interface DesktopView {
  settings: DesktopSettings;
  /** The settings file. */
  path: string;
  /** Why the file on disk could not be used (defaults apply until the person saves). */
  problem?: string;
  supports: DesktopSupports;
  /** Why "launch at login" is unavailable or failed, in English. */
  launchAtLoginNote?: string;
  /** `launchAtLoginNote` as a message code, for the person's language. */
  launchAtLoginNoteUi?: UiText;
}

/** Which review a waiting item is in. */
export type AttentionPhase = 'request' | 'response' | 'input';

/** One item that waits on a person, as notifications, the tray and the title count it. */
export interface AttentionEntry {
  itemId: string;
  kind: 'sampling' | 'elicitation';
  phase: AttentionPhase;
  serverId: string;
  /** The tool (or prompt / resource) call it belongs to, when known. */
  tool?: string;
  /** The first non-empty line of the prompt (or of the elicitation's message), at most 140 characters. */
  firstLine: string;
  receivedAt: number;
}

/** A notification main decided to show (once per item; never while "do not disturb" is on). */
export interface AttentionNotification {
  /** Grows by one with every notification; the web renderer shows those newer than it has seen. */
  seq: number;
  /** The item to open on "Review"; absent for the test notification. */
  itemId?: string;
  title: string;
  body: string;
  /** True when no sound should play. */
  silent: boolean;
  at: number;
}

/** The `attention` slice of the state (the waiting items themselves are the state's item summaries). */
export interface AttentionView {
  /** How many items wait on a person (the badge, the tray and the title show it). */
  count: number;
  /** The latest notifications, oldest first (at most {@link NOTIFICATIONS_KEPT}). */
  notifications: AttentionNotification[];
  /**
   * Set when the person chose "Review" on a native notification: the renderer opens that item
   * (once per `seq`, and only while fresh: `at` is when it was chosen).
   */
  focus?: { itemId: string; seq: number; at: number };
  /** Mirrors "do not disturb", for the nav indicator. */
  doNotDisturb: boolean;
}

/** How many notifications the attention slice keeps. */
export const NOTIFICATIONS_KEPT = 10;

/** The window / tab title for `count` waiting items: "(3) MCP Approval Console", or the bare name at 0. */
export function attentionTitle(count: number): string {
  return count > 0 ? `(${count}) ${APP_TITLE}` : APP_TITLE;
}
