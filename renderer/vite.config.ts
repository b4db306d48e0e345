// Builds the renderer into out/renderer. `base: './'` keeps every asset URL relative so the same
// build loads from file:// (Electron) and from the loopback web host.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * How the renderer is cut into chunks (this build and electron-vite's, electron.vite.config.ts):
 * the Queue stays in the entry chunk (the first paint), the other screens are lazy chunks
 * (renderer/screens/lazy-screens.ts), the packages vendor chunks with React on its own.
 */
export const RENDERER_CHUNKS = {
  groups: [
    { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
    { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
  ],
};

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    sourcemap: true,
    // Loaded from disk (Electron) or loopback (web host); no chunk above this (kB), see RENDERER_CHUNKS.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: { output: { codeSplitting: RENDERER_CHUNKS } },
  },
});
