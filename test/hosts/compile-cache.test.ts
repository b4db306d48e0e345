/**
 * main/compile-cache.ts: the hosts' entries turn on Node's compile cache in the user-data folder;
 * the next start reads the compiled code back; a folder that cannot be made only costs speed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { enableCompileCacheIn } from '../../main/compile-cache.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Runs `node --import tsx` on a script that turns the cache on in `dir`, loads a module and reports. */
function start(dir: string, moduleFile: string): { enabled: boolean; childEnv: string | null } {
  const script = `
    import { enableCompileCacheIn } from ${JSON.stringify(pathToFileURL(join(ROOT, 'main/compile-cache.ts')).href)};
    import { execFileSync } from 'node:child_process';
    const enabled = enableCompileCacheIn(${JSON.stringify(dir)});
    await import(${JSON.stringify(pathToFileURL(moduleFile).href)});
    const childEnv = execFileSync(process.execPath, ['-p', 'process.env.NODE_COMPILE_CACHE ?? null']).toString().trim();
    console.log(JSON.stringify({ enabled, childEnv: childEnv === 'null' ? null : childEnv }));
  `;
  const env = { ...process.env };
  delete env.NODE_COMPILE_CACHE;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env }).toString();
  return JSON.parse(out.trim().split('\n').pop()!) as { enabled: boolean; childEnv: string | null };
}

it.runIf(process.platform !== 'win32')('keeps compiled modules in <userData>/compile-cache (owner-only), not for the processes it starts', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'compile-cache-')), 'fresh user data');
  const mod = join(mkdtempSync(join(tmpdir(), 'compile-cache-mod-')), 'big.mjs');
  writeFileSync(mod, `export const f = (x) => x + 1;\n${'export const a%i = [1, 2, 3].map((x) => x * 2);\n'.repeat(200).replace(/%i/g, () => String(Math.random()).slice(2))}`);
  expect(start(dir, mod)).toEqual({ enabled: true, childEnv: null });
  const cache = join(dir, 'compile-cache');
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(cache).mode & 0o777).toBe(0o700);
  const [versionDir, ...others] = readdirSync(cache);
  expect(others).toEqual([]);
  expect(readdirSync(join(cache, versionDir!)).length).toBeGreaterThan(0); // the loaded module's code was written
});

it('returns false, without throwing, when the folder cannot be made', () => {
  const parent = mkdtempSync(join(tmpdir(), 'compile-cache-file-'));
  const file = join(parent, 'not-a-folder');
  writeFileSync(file, 'x');
  expect(enableCompileCacheIn(file)).toBe(false);
});
