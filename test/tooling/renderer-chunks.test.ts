/**
 * The renderer's build (renderer/vite.config.ts) in chunks: none above the size the build warns
 * at ("Some chunks are larger than … kB" on the first `npm start`), the Queue in the entry chunk
 * (the first paint), every other screen a chunk of its own loaded on demand, the packages in
 * vendor chunks.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, 'renderer/vite.config.ts');

/** The chunks `vite build` makes of the renderer (nothing written), and the size it warns above (kB). */
async function chunks(): Promise<{ chunks: Rolldown.OutputChunk[]; limitKb: number }> {
  const config = (await import(CONFIG)) as { default: { build: { chunkSizeWarningLimit: number } } };
  const out = (await build({ configFile: CONFIG, logLevel: 'silent', build: { write: false, sourcemap: false } })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const outputs = Array.isArray(out) ? out : [out];
  return {
    chunks: outputs.flatMap((o) => o.output.filter((f): f is Rolldown.OutputChunk => f.type === 'chunk')),
    limitKb: config.default.build.chunkSizeWarningLimit,
  };
}

const has = (chunk: Rolldown.OutputChunk, file: string) => chunk.moduleIds.some((id) => id.endsWith(file));

it('no chunk is above the warning limit; the Queue is in the entry, the other screens are lazy chunks, the packages vendor chunks', async () => {
  const { chunks: all, limitKb } = await chunks();
  const tooBig = all.filter((c) => Buffer.byteLength(c.code) / 1000 > limitKb).map((c) => `${c.fileName}: ${Math.round(Buffer.byteLength(c.code) / 1000)} kB`);
  expect(tooBig).toEqual([]);

  const entry = all.find((c) => c.isEntry)!;
  expect(has(entry, 'renderer/screens/queue/QueueScreen.tsx')).toBe(true);
  const loadedFirst = new Set([entry.fileName, ...entry.imports]);
  for (const screen of ['servers/ServersScreen.tsx', 'providers/ProvidersScreen.tsx', 'history/HistoryScreen.tsx', 'rules/RulesScreen.tsx', 'settings/SettingsScreen.tsx']) {
    const own = all.find((c) => has(c, `renderer/screens/${screen}`));
    expect(own, screen).toBeDefined();
    expect(loadedFirst.has(own!.fileName), `${screen} is loaded with the entry`).toBe(false);
    expect(own!.isDynamicEntry, screen).toBe(true);
  }
  const vendor = all.filter((c) => c.moduleIds.length > 0 && c.moduleIds.every((id) => id.includes('node_modules')));
  expect(vendor.map((c) => c.name).sort()).toEqual(['react', 'vendor']);
}, 60_000);
