/**
 * The desktop app as the bridge's launcher: a host's routed entry runs `<app> bridge …` (packaged)
 * or `electron <appPath> bridge …` (from the source tree), and the app then runs the bridge
 * command (app/bridge/command.ts) instead of opening a window. When no console runs, the bridge
 * starts the desktop app itself. No `electron` import: the paths come in, so this is tested on
 * plain Node (test/desktop).
 */
import type { LaunchSpec } from '../../main/bridge/launch.js';
import type { BridgeLauncher } from '../../main/ports.js';

/** What the desktop app needs to know to be launched as the bridge, and to start itself. */
export interface ElectronBridgeLaunch {
  /** Written into a host's entry by "Route through the console" (the arguments before `bridge`). */
  launcher: BridgeLauncher;
  /** How a bridge starts the desktop console when none runs. */
  consoleLaunch: LaunchSpec;
  /** Where `bridge` stands in `process.argv` when the app was started as the bridge. */
  bridgeArgIndex: number;
}

/**
 * The launch facts of this desktop app: packaged, the app's executable alone (`argv[1]` is
 * `bridge`); from the source tree, the Electron binary with the app's folder (`argv[2]`).
 */
export function electronBridgeLaunch(input: { isPackaged: boolean; execPath: string; appPath: string }): ElectronBridgeLaunch {
  const args = input.isPackaged ? [] : [input.appPath];
  return { launcher: { command: input.execPath, args }, consoleLaunch: { command: input.execPath, args }, bridgeArgIndex: args.length + 1 };
}
