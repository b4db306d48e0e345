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
    // Loaded from disk (Electron) or loopback (web host). The Queue is in the entry chunk (the
    // first paint); the other screens are lazy chunks (renderer/screens/lazy-screens.ts); the
    // packages are vendor chunks, React on its own.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
