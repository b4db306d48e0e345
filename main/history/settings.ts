/**
 * Retention settings of the history, persisted as `history-settings.json` in the user-data
 * folder: `{"retentionDays": number | null, "retentionSessions": number | null}` (null = no
 * limit). Read with zod; a broken file is reported and left as it is (defaults apply until the
 * person saves new settings, which replaces it).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_HISTORY_SETTINGS, HistorySettingsSchema, type HistorySettings } from '../../shared/history.js';

/** File name inside the user-data folder. */
export const HISTORY_SETTINGS_FILE = 'history-settings.json';

/** The settings read from disk and, when the file was unusable, why. */
export interface LoadedHistorySettings {
  settings: HistorySettings;
  path: string;
  /** One readable line when the file exists but could not be used (defaults apply). */
  problem?: string;
}

/** Reads `dir/history-settings.json`; a missing file gives the defaults. Never throws. */
export function loadHistorySettings(dir: string): LoadedHistorySettings {
  const path = join(dir, HISTORY_SETTINGS_FILE);
  if (!existsSync(path)) return { settings: { ...DEFAULT_HISTORY_SETTINGS }, path };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return { settings: { ...DEFAULT_HISTORY_SETTINGS }, path, problem: `${path}: not valid JSON (${(err as Error).message}); keeping all history until settings are saved` };
  }
  const parsed = HistorySettingsSchema.partial().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || '(top level)';
    return { settings: { ...DEFAULT_HISTORY_SETTINGS }, path, problem: `${path}: ${where}: ${issue?.message ?? 'invalid'}; keeping all history until settings are saved` };
  }
  return { settings: { ...DEFAULT_HISTORY_SETTINGS, ...parsed.data }, path };
}

/**
 * Writes the settings (validated again) atomically: a temp file renamed over the old one.
 * @throws ZodError for invalid settings; Error on I/O failure (the old file stays).
 */
export function saveHistorySettings(path: string, settings: HistorySettings): void {
  const valid = HistorySettingsSchema.parse(settings);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(valid, null, 2)}\n`);
  renameSync(tmp, path);
}
