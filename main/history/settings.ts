/**
 * Retention settings of the history, persisted as `history-settings.json` in the user-data
 * folder: `{"retentionDays": number | null, "retentionSessions": number | null}` (null = no
 * limit). The person's file (main/user-file.ts): unknown fields are kept and ignored; a broken
 * file is reported and left as it is — defaults apply (keep everything) and no change from the UI
 * is written over it until it is fixed; writes are atomic and keep `history-settings.json.bak`.
 */
import { join } from 'node:path';
import { DEFAULT_HISTORY_SETTINGS, HistorySettingsSchema, type HistorySettings } from '../../shared/contract/history.js';
import { describeIgnored, readUserFile, writeUserFile, type UserFileSpec } from '../user-file.js';

/** File name inside the user-data folder. */
export const HISTORY_SETTINGS_FILE = 'history-settings.json';

const spec: UserFileSpec<ReturnType<typeof HistorySettingsSchema.partial>> = { label: HISTORY_SETTINGS_FILE, schema: HistorySettingsSchema.partial() };

/** The settings read from disk and, when the file was unusable, why. */
export interface LoadedHistorySettings {
  settings: HistorySettings;
  path: string;
  /** One readable line when the file exists but could not be used (defaults apply). */
  problem?: string;
  /** Fields the console does not know, kept in the file and ignored. */
  note?: string;
}

/** Reads `dir/history-settings.json`; a missing file gives the defaults. Never throws. */
export function loadHistorySettings(dir: string): LoadedHistorySettings {
  const path = join(dir, HISTORY_SETTINGS_FILE);
  const read = readUserFile(path, spec);
  if (read.state === 'missing') return { settings: { ...DEFAULT_HISTORY_SETTINGS }, path };
  if (read.state === 'broken') return { settings: { ...DEFAULT_HISTORY_SETTINGS }, path, problem: `${read.problems.join('; ')}; keeping all history, and no change is saved over the file until it is fixed` };
  const note = describeIgnored(HISTORY_SETTINGS_FILE, read.ignored);
  return { settings: { ...DEFAULT_HISTORY_SETTINGS, ...read.value }, path, ...(note ? { note } : {}) };
}

/**
 * Writes the settings (validated again) atomically, shaped like the file (main/user-file.ts).
 * @throws ApiError invalid_state when the file on disk is broken (nothing written), invalid_input
 *   for invalid settings; Error on I/O failure (the old file stays)
 */
export function saveHistorySettings(path: string, settings: HistorySettings): void {
  writeUserFile(path, spec, HistorySettingsSchema.parse(settings));
}
