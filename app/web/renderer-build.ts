/**
 * Building the renderer when the web host starts without one: right after `npm install` (or `npm
 * ci`) nothing is built, and the first thing that starts the console may be an agent host's
 * bridge, headless. The build (`vite build --config renderer/vite.config.ts`, a few seconds) goes
 * to a fresh folder beside out/renderer that is renamed into place when complete, so a page is
 * never served half-built and two consoles building at once (two data folders) do not collide.
 */
import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** How this installation builds its renderer: the vite CLI and the config, found from the installation's folder. */
export interface RendererBuild {
  /** vite's CLI script. */
  vite: string;
  /** renderer/vite.config.ts. */
  config: string;
  root: string;
}

/**
 * How to build the renderer of the installation at `root`, or undefined when it cannot be built
 * here (no renderer sources, or vite — a dev dependency — not installed).
 */
export function rendererBuildOf(root: string): RendererBuild | undefined {
  const config = path.join(root, 'renderer/vite.config.ts');
  if (!existsSync(config)) return undefined;
  try {
    const vitePackage = createRequire(path.join(root, 'package.json')).resolve('vite/package.json');
    return { vite: path.join(path.dirname(vitePackage), 'bin/vite.js'), config, root };
  } catch {
    return undefined;
  }
}

/**
 * Builds the renderer into `staticDir` (replacing a folder there that has no index.html).
 * @throws Error with the build's last output lines when vite fails, or "stopped" when `signal` aborts it
 */
export async function buildRenderer(build: RendererBuild, staticDirPath: string, signal?: AbortSignal): Promise<void> {
  const staticDir = path.resolve(staticDirPath); // no trailing separator: the staging folder goes beside it
  const staging = `${staticDir}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    await runVite(build, staging, signal);
    if (existsSync(path.join(staticDir, 'index.html'))) return; // another console built it meanwhile
    rmSync(staticDir, { recursive: true, force: true });
    renameSync(staging, staticDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Runs `vite build` into `outDir`; resolves when it succeeded. */
function runVite(build: RendererBuild, outDir: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [build.vite, 'build', '--config', build.config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: build.root,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      ...(signal && { signal }),
    });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (err) => reject(signal?.aborted ? new Error('the renderer build was stopped') : err));
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else if (!signal?.aborted) reject(new Error(`vite build exited with ${code}: ${output.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}
