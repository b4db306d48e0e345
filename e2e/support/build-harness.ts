/** Builds the markdown harness page (e2e/support/markdown-harness) with the renderer's toolchain. */
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

/** Builds the harness into out/e2e-markdown-harness and returns that folder. */
export async function buildMarkdownHarness(): Promise<string> {
  const root = path.resolve(import.meta.dirname, 'markdown-harness');
  const outDir = path.resolve(import.meta.dirname, '../../out/e2e-markdown-harness');
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, minify: false },
  });
  return outDir;
}
