/**
 * Persisted JSON files of desktop life, each read with zod and written atomically (temp file +
 * rename). `desktop-settings.json` ({@link DesktopSettingsSchema}) is the person's: it follows
 * main/user-file.ts — unknown fields are kept and ignored, a broken file is reported (one readable
 * line), defaults apply, and no change from the UI is written over it until it is fixed. Machine
 * files (window-state.json) use {@link readJsonFile} / {@link writeJsonFile}: a broken one is
 * simply replaced.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { DEFAULT_DESKTOP_SETTINGS, DesktopSettingsSchema, type DesktopSettings } from '../../shared/contract/desktop.js';
import { describeIgnored, readUserFile, writeFileAtomic, writeUserFile, type UserFileSpec } from '../user-file.js';

/** File name of the desktop settings inside the user-data folder. */
export const DESKTOP_SETTINGS_FILE = 'desktop-settings.json';

/** A JSON file read through a schema: the value, and why the file could not be used. */
export interface LoadedJson<T> {
  value: T;
  path: string;
  /** Set when the file exists but is not valid JSON or does not match the schema (defaults apply). */
  problem?: string;
  /** Fields the console does not know, kept in the file and ignored (user files only). */
  note?: string;
}

/**
 * Reads `path` and parses it with `schema`; a missing file gives `fallback` with no problem.
 * Never throws: unreadable, non-JSON or invalid content gives `fallback` and a `problem` naming
 * the file and the first failing field.
 */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S, fallback: z.output<S>): LoadedJson<z.output<S>> {
  if (!existsSync(path)) return { value: fallback, path };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return { value: fallback, path, problem: `${path}: not valid JSON (${(err as Error).message}); using defaults until settings are saved` };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || '(top level)';
    return { value: fallback, path, problem: `${path}: ${where}: ${issue?.message ?? 'invalid'}; using defaults until settings are saved` };
  }
  return { value: parsed.data, path };
}

/**
 * Validates `value` with `schema`, then writes it as pretty JSON atomically (the folder is
 * created when missing).
 * @throws ZodError for an invalid value (nothing is written); Error on I/O failure (the old file stays)
 */
export function writeJsonFile<S extends z.ZodType>(path: string, schema: S, value: z.input<S>): z.output<S> {
  const valid = schema.parse(value);
  writeFileAtomic(path, `${JSON.stringify(valid, null, 2)}\n`);
  return valid;
}

const desktopSpec: UserFileSpec<typeof DesktopSettingsSchema> = { label: DESKTOP_SETTINGS_FILE, schema: DesktopSettingsSchema };

/** Reads `dir/desktop-settings.json` (missing fields take their defaults). Never throws. */
export function loadDesktopSettings(dir: string): LoadedJson<DesktopSettings> {
  const path = join(dir, DESKTOP_SETTINGS_FILE);
  const read = readUserFile(path, desktopSpec);
  if (read.state === 'missing') return { value: { ...DEFAULT_DESKTOP_SETTINGS }, path };
  if (read.state === 'broken') return { value: { ...DEFAULT_DESKTOP_SETTINGS }, path, problem: `${read.problems.join('; ')}; using defaults, and no change is saved over the file until it is fixed` };
  const note = describeIgnored(DESKTOP_SETTINGS_FILE, read.ignored);
  return { value: read.value, path, ...(note ? { note } : {}) };
}

/**
 * Writes the desktop settings to `dir/desktop-settings.json` (main/user-file.ts: key order and
 * unknown fields kept, previous file as `.bak`).
 * @throws ApiError invalid_state when the file on disk is broken (nothing written), invalid_input
 *   for invalid settings; Error on I/O failure
 */
export function saveDesktopSettings(dir: string, settings: DesktopSettings): DesktopSettings {
  return writeUserFile(join(dir, DESKTOP_SETTINGS_FILE), desktopSpec, settings);
}
