/**
 * The main window's size, position and maximized state, remembered across starts in
 * `window-state.json` (user-data folder), and fitted to the displays present at the next start
 * (a monitor may have been unplugged). Pure except for the file helpers. Sizes in CSS pixels.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFile, type LoadedJson } from './store.js';

/** File name inside the user-data folder. */
export const WINDOW_STATE_FILE = 'window-state.json';

/** The smallest window the layout supports. */
export const MIN_WINDOW = { width: 900, height: 600 } as const;

/** The size of a first start. */
export const DEFAULT_WINDOW = { width: 1360, height: 900 } as const;

const int = z.number().int();

/** `window-state.json`. `x`/`y` absent: let the OS place the window. */
export const WindowStateSchema = z
  .object({
    x: int.min(-100_000).max(100_000).optional(),
    y: int.min(-100_000).max(100_000).optional(),
    width: int.min(100).max(100_000),
    height: int.min(100).max(100_000),
    maximized: z.boolean().default(false),
  })
  .strict();
/** See {@link WindowStateSchema}. */
export type WindowState = z.infer<typeof WindowStateSchema>;

/** A rectangle in screen coordinates (a display's work area, a window's bounds). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How much of a window must be on a display to keep its position: enough to grab the title bar. */
const MIN_VISIBLE = { width: 120, height: 40 } as const;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

/**
 * Fits a remembered state to the displays now present (their work areas):
 * - the size is at least {@link MIN_WINDOW} and at most the largest work area;
 * - the position is kept only when the window's top strip (title bar) shows on some display by at
 *   least 120×40 px; otherwise `x`/`y` are dropped and the OS centres the window.
 * With no state, the default size (shrunk to fit) and no position. With no displays, the size is
 * only clamped below.
 */
export function fitWindowState(state: WindowState | null, workAreas: readonly Rect[]): WindowState {
  const largest = workAreas.reduce<{ width: number; height: number } | null>(
    (m, a) => (m ? { width: Math.max(m.width, a.width), height: Math.max(m.height, a.height) } : { width: a.width, height: a.height }),
    null,
  );
  const clamp = (v: number, min: number, max: number | undefined) => Math.max(min, max === undefined ? v : Math.min(v, max));
  const width = clamp(state?.width ?? DEFAULT_WINDOW.width, MIN_WINDOW.width, largest?.width);
  const height = clamp(state?.height ?? DEFAULT_WINDOW.height, MIN_WINDOW.height, largest?.height);
  const fitted: WindowState = { width, height, maximized: state?.maximized ?? false };
  if (state?.x === undefined || state.y === undefined) return fitted;
  const titleBar: Rect = { x: state.x, y: state.y, width, height: MIN_VISIBLE.height };
  const visible = workAreas.some((area) => {
    const o = overlap(titleBar, area);
    return o.width >= MIN_VISIBLE.width && o.height >= MIN_VISIBLE.height;
  });
  return visible ? { ...fitted, x: state.x, y: state.y } : fitted;
}

/** Reads `dir/window-state.json`; a missing or broken file gives null (never throws). */
export function loadWindowState(dir: string): LoadedJson<WindowState | null> {
  return readJsonFile(join(dir, WINDOW_STATE_FILE), WindowStateSchema.nullable(), null);
}

/**
 * Writes `dir/window-state.json`.
 * @throws ZodError for an invalid state (e.g. non-integer bounds); Error on I/O failure
 */
export function saveWindowState(dir: string, state: WindowState): void {
  writeJsonFile(join(dir, WINDOW_STATE_FILE), WindowStateSchema, state);
}

/**
 * The state to remember for a window: its normal (un-maximized) bounds, rounded, and whether it
 * is maximized — so un-maximizing after the next start restores the size the person chose.
 */
export function windowStateFrom(normalBounds: Rect, maximized: boolean): WindowState {
  return {
    x: Math.round(normalBounds.x),
    y: Math.round(normalBounds.y),
    width: Math.max(100, Math.round(normalBounds.width)),
    height: Math.max(100, Math.round(normalBounds.height)),
    maximized,
  };
}
