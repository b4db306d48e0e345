// Vite build of the web host (`npm run build:web`, and `npm start` when the bundle is stale):
//   app/web/cli.ts          → out/web/cli.js            (the host)
//   main/offload/worker.ts  → out/web/offload-worker.js (the worker thread for big payloads)
//   app/bridge/cli.ts       → out/web/bridge.js         (`mcp-approval-console bridge …`)
// Node built-ins and dependencies stay external (SSR build), as with `vite build --ssr`.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, '../..');

export default defineConfig({
  root,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir: resolve(root, 'out/web'),
    emptyOutDir: true,
    rolldownOptions: {
      input: { cli: resolve(root, 'app/web/cli.ts'), 'offload-worker': resolve(root, 'main/offload/worker.ts'), bridge: resolve(root, 'app/bridge/cli.ts') },
      output: { entryFileNames: '[name].js' },
    },
  },
});
