/**
 * Packaging cannot run here (no Electron binary), so electron-builder.yml is checked instead:
 * electron-builder's own loader and schema validation accept it, and it says what releases need
 * (targets, fuses, icons, the app's files, the unpacked built-in server).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dependencyClosure, replaceBlock, unpackBlock, UNPACKED_SERVER } from '../../scripts/packaging/unpack-list.js';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);

interface BuilderConfig {
  /** Normalised by getConfig to file sets. */
  files: Array<{ filter: string[] }>;
  asar: boolean;
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  directories: { output: string; buildResources: string };
  linux: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  [key: string]: unknown;
}
interface ConfigModule {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: unknown): Promise<BuilderConfig>;
  validateConfiguration(config: unknown, debugLogger: unknown): Promise<void>;
}
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as ConfigModule;
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const load = () => getConfig(root, null, null);

describe('electron-builder.yml', () => {
  it('is found and accepted by electron-builder\'s own schema validation', async () => {
    const config = await load();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the validation really runs: a misspelt option is refused', async () => {
    const config = await load();
    await expect(validateConfiguration({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } }, new DebugLogger(false))).rejects.toThrow(/configuration\.electronFuses/);
    await expect(validateConfiguration({ ...config, linux: { ...config.linux, targets: ['AppImage'] } }, new DebugLogger(false))).rejects.toThrow(/configuration\.linux/);
  });

  it('builds Linux AppImage + deb, macOS dmg + zip, Windows NSIS', async () => {
    const config = await load();
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg', 'zip']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('sets the fuses: runAsNode off, cookie encryption on, NODE_OPTIONS and --inspect off, asar only with integrity', async () => {
    const config = await load();
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('points at icons that exist: a 1024 px PNG for macOS/Windows, a folder of sizes for Linux', async () => {
    const config = await load();
    const png = readFileSync(path.join(root, config.mac.icon));
    expect(png.readUInt32BE(16)).toBe(1024);
    expect(config.win.icon).toBe(config.mac.icon);
    for (const size of [1024, 512, 256]) expect(existsSync(path.join(root, config.linux.icon, `${size}x${size}.png`)), `${size}x${size}.png`).toBe(true);
    expect(config.directories.buildResources).toBe('build');
  });

  it('packages the electron-vite output that package.json "main" names', async () => {
    const config = await load();
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string> };
    expect(pkg.main).toBe('out/main/index.js');
    expect(config.files.flatMap((f) => f.filter)).toEqual(expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'package.json']));
    expect(pkg.scripts.dist).toMatch(/electron-vite build && electron-builder/);
  });

  it('keeps the built-in server and everything it loads out of app.asar (a system Node runs it); the list is up to date', async () => {
    const config = await load();
    const closure = dependencyClosure(root, UNPACKED_SERVER);
    expect(closure).toContain('node_modules/@modelcontextprotocol/server-everything');
    expect(closure).toContain('node_modules/express');
    expect(config.asarUnpack).toEqual(closure.map((d) => `${d}/**`));
    const yaml = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
    expect(replaceBlock(yaml, unpackBlock(closure)), 'run `npm run dist:unpack-list`').toBe(yaml);
  });
});
