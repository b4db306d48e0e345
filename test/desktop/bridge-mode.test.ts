/**
 * The desktop app as the bridge's launcher: what "Route through the console" writes into a host's
 * entry, how a bridge started from it starts the desktop console, and how the app tells that it
 * was started as a bridge (`argv`).
 */
import { describe, expect, it } from 'vitest';
import { bridgeArgvOf } from '../../app/bridge/command.js';
import { electronBridgeLaunch } from '../../app/electron/bridge-mode.js';
import { routedEntry } from '../../main/host-config/route.js';

describe('the desktop app as the bridge launcher', () => {
  it('packaged: the app executable alone launches the bridge and starts the console; `bridge` is argv[1]', () => {
    const launch = electronBridgeLaunch({ isPackaged: true, execPath: '/Applications/MCP Approval Console.app/Contents/MacOS/MCP Approval Console', appPath: '/x/app.asar' });
    expect(launch.launcher).toEqual({ command: '/Applications/MCP Approval Console.app/Contents/MacOS/MCP Approval Console', args: [] });
    expect(launch.consoleLaunch).toEqual(launch.launcher);
    expect(routedEntry({ command: 'npx', args: ['-y', 'server-x'] }, launch.launcher)).toEqual({
      command: '/Applications/MCP Approval Console.app/Contents/MacOS/MCP Approval Console',
      args: ['bridge', '--', 'npx', '-y', 'server-x'],
    });
    const argv = ['/Applications/MCP Approval Console.app/Contents/MacOS/MCP Approval Console', 'bridge', '--', 'npx', '-y', 'server-x'];
    expect(bridgeArgvOf(argv, launch.bridgeArgIndex)).toEqual(['--', 'npx', '-y', 'server-x']);
  });

  it('from the source tree: the Electron binary with the app folder; `bridge` is argv[2]', () => {
    const launch = electronBridgeLaunch({ isPackaged: false, execPath: '/repo/node_modules/electron/dist/electron', appPath: '/repo' });
    expect(launch.launcher).toEqual({ command: '/repo/node_modules/electron/dist/electron', args: ['/repo'] });
    expect(bridgeArgvOf(['/repo/node_modules/electron/dist/electron', '/repo', 'bridge', 'everything'], launch.bridgeArgIndex)).toEqual(['everything']);
  });

  it('an ordinary start (no `bridge`, or `bridge` somewhere else) is not a bridge', () => {
    expect(bridgeArgvOf(['/app/exe'], 1)).toBeUndefined();
    expect(bridgeArgvOf(['/app/exe', '--inspect', 'bridge'], 1)).toBeUndefined();
    expect(bridgeArgvOf(['/electron', '/repo'], 2)).toBeUndefined();
  });
});
