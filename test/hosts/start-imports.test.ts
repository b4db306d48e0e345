/**
 * What the web host's bundle (`npm run build:web`, what `npm start` runs) loads before its first
 * server can start: the provider SDKs and the MCP server SDK wait for their first use
 * (main/llm/create-provider.ts, main/bridge/server-sdk.ts), and app/bundled-packages.ts's
 * libraries are built in rather than loaded file by file, and `node:http` is taken through `require`
 * (app/builtins-through-require.ts: as an ES module its namespace loads undici) — the bench's
 * `p5.start_overhead_ms`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUNDLED_PACKAGES } from '../../app/bundled-packages.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = path.join(ROOT, '.tmp', `start-imports-${process.pid}`);

/** The quoted module names of a line `import … from "x";`, `import "x";` or `await import("x")`. */
function specifiers(line: string, dynamic: boolean): string[] {
  const t = line.trim();
  if (!dynamic && t.startsWith('import ') && t.endsWith('";')) return [t.slice(t.lastIndexOf('"', t.length - 3) + 1, -2)];
  if (dynamic && t.startsWith('await import("') && t.endsWith('");')) return [t.slice('await import("'.length, -3)];
  return [];
}

/** Every package a bundle file loads before its code runs, following its own chunks; `dynamicFrom`: also the entry's top-level `await import()`. */
function loadedAtStart(file: string, seen = new Set<string>(), dynamicFrom = true): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    for (const spec of [...specifiers(line, false), ...(dynamicFrom ? specifiers(line, true) : [])]) {
      if (spec.startsWith('./')) loadedAtStart(path.join(path.dirname(file), spec), seen, false).forEach((p) => packages.add(p));
      else packages.add(spec);
    }
  }
  return packages;
}

beforeAll(() => {
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', 'app/web/vite.config.ts', '--outDir', OUT, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT });
}, 120_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

it('starts without the provider SDKs or the MCP server SDK, and with the bundled libraries built in', () => {
  const entry = path.join(OUT, 'cli.js');
  expect(existsSync(entry)).toBe(true);
  const packages = [...loadedAtStart(entry)];
  expect(packages).toContain('@modelcontextprotocol/client'); // the walk found the console's own chunk
  expect(packages.filter((p) => p === 'ai' || p.startsWith('@ai-sdk/') || p.startsWith('@modelcontextprotocol/server'))).toEqual([]);
  expect(packages.filter((p) => BUNDLED_PACKAGES.some((b) => p === b || p.startsWith(`${b}/`)))).toEqual([]);
});

it('takes node:http through require: nothing loaded at start imports it as an ES module, and loading it leaves undici unloaded', () => {
  const packages = [...loadedAtStart(path.join(OUT, 'cli.js'))];
  expect(packages).toContain('node:fs'); // the walk sees built-ins
  expect(packages.filter((p) => p === 'node:http' || p === 'http')).toEqual([]);
  const chunk = readdirSync(OUT).find((f) => f.includes('builtin-through-require'));
  expect(chunk).toBeDefined();
  const probe = `const m = await import(${JSON.stringify(path.join(OUT, chunk!))}); const http = Object.values(m).find((v) => typeof v?.createServer === 'function');
    console.log(JSON.stringify({ http: http !== undefined, undici: process.moduleLoadList.some((l) => l.includes('undici')) }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' })) as { http: boolean; undici: boolean };
  expect(out).toEqual({ http: true, undici: false });
});
