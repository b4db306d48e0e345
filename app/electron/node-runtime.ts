/**
 * Which Node runs a stdio server whose command is `node` in the desktop app.
 *
 * - Unpackaged (`npm start` from the source tree): the Electron binary itself with
 *   `ELECTRON_RUN_AS_NODE=1`, so no system Node is needed.
 * - Packaged: the release build flips the `runAsNode` fuse OFF (electron-builder.yml), so
 *   `ELECTRON_RUN_AS_NODE` is ignored and the Electron binary would start a second copy of the app
 *   instead. The console then uses the system's Node.js: the first `node` found on PATH or in the
 *   usual install folders a desktop session's PATH often lacks (Homebrew, /usr/local, Volta,
 *   the Windows installer's folder). Without one, `command: "node"` servers fail to start and the
 *   person is told why, once, at start.
 *
 * No `electron` import: pure apart from the injected `exists`, unit-tested in test/desktop.
 */
import path from 'node:path';

/** What {@link resolveNodeRuntime} looks at. */
export interface NodeRuntimeInput {
  isPackaged: boolean;
  /** `process.execPath` (the Electron binary). */
  execPath: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
  /** Whether an executable file exists at the path. */
  exists(file: string): boolean;
}

/** The runtime for `createConsole`'s `nodeRuntime` port, and a note for the person when there is none. */
export interface NodeRuntimeChoice {
  runtime: { command: string; env?: Record<string, string> };
  /** How it was chosen, for the log. */
  source: 'electron-as-node' | 'system';
  /** Set when no Node.js was found (packaged builds only). */
  problem?: string;
}

/** Folders searched after PATH, per platform (a GUI session's PATH is often minimal on macOS). */
export function extraNodeDirs(platform: NodeJS.Platform, env: Record<string, string | undefined>, home: string): string[] {
  if (platform === 'win32') {
    return [env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA && path.win32.join(env.LOCALAPPDATA, 'Programs')]
      .filter((d): d is string => !!d)
      .map((d) => path.win32.join(d, 'nodejs'));
  }
  const common = ['/usr/local/bin', path.posix.join(home, '.volta', 'bin'), path.posix.join(home, '.local', 'bin')];
  return platform === 'darwin' ? ['/opt/homebrew/bin', ...common] : [...common, '/usr/bin'];
}

/**
 * The first `node` (`node.exe` on Windows) on PATH, then in {@link extraNodeDirs}; null when none.
 * Relative PATH entries are skipped (they would depend on the working directory).
 */
export function findSystemNode(input: Pick<NodeRuntimeInput, 'env' | 'platform' | 'home' | 'exists'>): string | null {
  const p = input.platform === 'win32' ? path.win32 : path.posix;
  const exe = input.platform === 'win32' ? 'node.exe' : 'node';
  const pathVar = input.env.PATH ?? input.env.Path ?? '';
  const dirs = [...pathVar.split(input.platform === 'win32' ? ';' : ':'), ...extraNodeDirs(input.platform, input.env, input.home)];
  for (const dir of dirs) {
    if (!dir || !p.isAbsolute(dir)) continue;
    const file = p.join(dir, exe);
    if (input.exists(file)) return file;
  }
  return null;
}

/** Chooses the Node for `command: "node"` servers (see the file comment). Never throws. */
export function resolveNodeRuntime(input: NodeRuntimeInput): NodeRuntimeChoice {
  if (!input.isPackaged) return { runtime: { command: input.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } }, source: 'electron-as-node' };
  const node = findSystemNode(input);
  if (node) return { runtime: { command: node }, source: 'system' };
  return {
    runtime: { command: input.platform === 'win32' ? 'node.exe' : 'node' },
    source: 'system',
    problem:
      'No Node.js was found on this computer, so servers configured with "command": "node" (including the built-in server-everything) cannot start. Install Node.js 22 or later, or give the full path to a node binary in mcp-servers.json.',
  };
}
