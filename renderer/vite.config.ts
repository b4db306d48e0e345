// Builds the renderer into out/renderer. `base: './'` keeps every asset URL relative so the same
// build loads from file:// (Electron) and from the loopback web host.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    sourcemap: true,
    // One bundle loaded from disk (Electron) or loopback (web host): size matters less than
    // simplicity. It includes zod, which re-checks the person's edits with the shared validator.
    chunkSizeWarningLimit: 1024,
  },
});
