// Vite build of the web host (`npm run build:web`, and `npm start` when the bundle is stale):
//   app/web/entry.ts        → out/web/cli.js            (the host: compile cache on, then app/web/cli.ts as a chunk)
//   main/offload/worker.ts  → out/web/offload-worker.js (the worker thread for big payloads)
//   app/bridge/cli.ts       → out/web/bridge.js         (the `mcp-approval-console` command)
// Node built-ins and dependencies stay external (SSR build), as with `vite build --ssr`, except
// the few app/bundled-packages.ts names (loading them file by file slows every start).
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { BUNDLED_PACKAGES } from '../bundled-packages.js';
import { builtinsThroughRequire } from '../builtins-through-require.js';

const root = resolve(import.meta.dirname, '../..');

export default defineConfig({
  root,
  logLevel: 'warn',
  plugins: [builtinsThroughRequire()],
  ssr: { noExternal: BUNDLED_PACKAGES },
  build: {
    ssr: true,
    outDir: resolve(root, 'out/web'),
    emptyOutDir: true,
    rolldownOptions: {
      input: { cli: resolve(root, 'app/web/entry.ts'), 'offload-worker': resolve(root, 'main/offload/worker.ts'), bridge: resolve(root, 'app/bridge/cli.ts') },
      // Chunks beside the entries: the host finds out/renderer and its worker from its own URL.
      output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
