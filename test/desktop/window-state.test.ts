import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitWindowState, loadWindowState, saveWindowState, windowStateFrom, WINDOW_STATE_FILE } from '../../main/settings/window-state.js';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1400 };

describe('fitWindowState', () => {
  it('first start: the default size, shrunk to the display, no position (the OS centres it)', () => {
    expect(fitWindowState(null, [laptop])).toEqual({ width: 1360, height: 875, maximized: false });
  });

  it('keeps a remembered position and size that are on a display', () => {
    const state = { x: 1600, y: 100, width: 1800, height: 1000, maximized: true };
    expect(fitWindowState(state, [laptop, rightMonitor])).toEqual(state);
  });

  it('drops the position when its monitor is gone (the window would open off-screen)', () => {
    const state = { x: 1600, y: 100, width: 1800, height: 1000, maximized: false };
    expect(fitWindowState(state, [laptop])).toEqual({ width: 1440, height: 875, maximized: false });
  });

  it('drops the position when only a sliver of the title bar would show', () => {
    expect(fitWindowState({ x: 1400, y: 10, width: 1000, height: 700, maximized: false }, [laptop])).not.toHaveProperty('x');
    expect(fitWindowState({ x: 100, y: -30, width: 1000, height: 700, maximized: false }, [laptop])).not.toHaveProperty('x');
    expect(fitWindowState({ x: 1200, y: 10, width: 1000, height: 700, maximized: false }, [laptop])).toMatchObject({ x: 1200, y: 10 });
  });

  it('never goes below the 900×600 the layout supports', () => {
    expect(fitWindowState({ x: 10, y: 10, width: 300, height: 200, maximized: false }, [laptop])).toMatchObject({ width: 900, height: 600 });
    expect(fitWindowState({ width: 300, height: 200, maximized: false }, [])).toEqual({ width: 900, height: 600, maximized: false });
  });
});

describe('window-state.json', () => {
  it('round-trips and rounds fractional bounds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'window-state-'));
    saveWindowState(dir, windowStateFrom({ x: 10.4, y: 20.6, width: 1000.5, height: 700.2 }, true));
    expect(loadWindowState(dir)).toMatchObject({ value: { x: 10, y: 21, width: 1001, height: 700, maximized: true } });
  });

  it('a missing file gives null; a broken one gives null with the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'window-state-'));
    expect(loadWindowState(dir).value).toBeNull();
    writeFileSync(join(dir, WINDOW_STATE_FILE), '{"width": "wide"}');
    const loaded = loadWindowState(dir);
    expect(loaded.value).toBeNull();
    expect(loaded.problem).toMatch(/window-state\.json/);
  });
});
