/**
 * Prebuilt Node bundles for the bench, the way `npm start` runs the web host (out/web/cli.js,
 * `npm run build:web`): `vite build --ssr ENTRY` — the project's TypeScript in one ES module,
 * every package in node_modules left external but app/bundled-packages.ts's, as in the hosts'
 * builds — so a timed process start pays no tsx loader.
 * Bundles go to `.tmp/bench-bundles/` inside the checkout (git-ignored), so their imports of
 * packages resolve from the project's node_modules.
 */
import path from 'node:path';
import { build } from 'vite';
import { BUNDLED_PACKAGES } from '../app/bundled-packages.js';
import { builtinsThroughRequire } from '../app/builtins-through-require.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Bundles `entry` (a path from the project root, e.g. `bench/footprint-probe.ts`) and returns the
 * bundle's absolute path (`.tmp/bench-bundles/<name>/<entry base name>.js`).
 * @throws the build's error
 */
export async function bundleForNode(entry: string, name: string): Promise<string> {
  const outDir = path.join(ROOT, '.tmp/bench-bundles', name);
  await build({ configFile: false, root: ROOT, logLevel: 'warn', plugins: [builtinsThroughRequire()], ssr: { noExternal: BUNDLED_PACKAGES }, build: { ssr: entry, outDir, emptyOutDir: true } });
  return path.join(outDir, `${path.basename(entry, path.extname(entry))}.js`);
}
