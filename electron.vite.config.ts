// electron-vite build of the desktop app (`npm run build:electron`):
//   app/electron/entry.ts   → out/main/index.js     (ESM; package.json "main": compile cache on, then main.ts)
//   main/offload/worker.ts  → out/main/offload-worker.js (the worker thread for big payloads)
//   app/electron/preload.ts → out/preload/index.cjs (CommonJS: sandboxed preloads cannot be ESM;
//                                                    everything bundled, only `electron` external)
//   renderer/index.html     → out/renderer/         (same output as `npm run build`, base './')
// The web host serves out/renderer too, so either build makes it runnable in the browser.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { BUNDLED_PACKAGES } from './app/bundled-packages.js';
import { RENDERER_CHUNKS } from './renderer/vite.config.js';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // Dependencies stay external, except the few app/bundled-packages.ts names (loading them file by file slows every start).
      externalizeDeps: { exclude: BUNDLED_PACKAGES },
      rolldownOptions: {
        input: { index: resolve(root, 'app/electron/entry.ts'), 'offload-worker': resolve(root, 'main/offload/worker.ts') },
        // Chunks beside index.js: main.ts finds out/preload, out/renderer and its worker from its own URL.
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // Bundle every dependency: a sandboxed preload can `require` only `electron`.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'app/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 1024,
      rolldownOptions: { input: resolve(root, 'renderer/index.html'), output: { codeSplitting: RENDERER_CHUNKS } },
    },
  },
});
