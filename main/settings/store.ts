/**
 * Persisted JSON files of desktop life, each read with zod and written atomically (temp file +
 * rename): `desktop-settings.json` ({@link DesktopSettingsSchema}). A broken file is reported
 * (one readable line) and left as it is; defaults apply until the person saves, which replaces it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { DEFAULT_DESKTOP_SETTINGS, DesktopSettingsSchema, type DesktopSettings } from '../../shared/desktop.js';

/** File name of the desktop settings inside the user-data folder. */
export const DESKTOP_SETTINGS_FILE = 'desktop-settings.json';

/** A JSON file read through a schema: the value, and why the file could not be used. */
export interface LoadedJson<T> {
  value: T;
  path: string;
  /** Set when the file exists but is not valid JSON or does not match the schema (defaults apply). */
  problem?: string;
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
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(valid, null, 2)}\n`);
  renameSync(tmp, path);
  return valid;
}

/** Reads `dir/desktop-settings.json` (missing fields take their defaults). Never throws. */
export function loadDesktopSettings(dir: string): LoadedJson<DesktopSettings> {
  return readJsonFile(join(dir, DESKTOP_SETTINGS_FILE), DesktopSettingsSchema, { ...DEFAULT_DESKTOP_SETTINGS });
}

/**
 * Writes the desktop settings to `dir/desktop-settings.json`.
 * @throws ZodError for invalid settings; Error on I/O failure
 */
export function saveDesktopSettings(dir: string, settings: DesktopSettings): DesktopSettings {
  return writeJsonFile(join(dir, DESKTOP_SETTINGS_FILE), DesktopSettingsSchema, settings);
}
