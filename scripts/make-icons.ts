/**
 * Writes the packaged app's icons from app/electron/icon-art.ts (one source for the app and tray
 * icons): build/icon.png (1024×1024; electron-builder derives the macOS .icns and the Windows .ico
 * from it) and build/icons/NxN.png (Linux). Run: `npm run icons` (the files are committed, so
 * `npm run dist` does not need this step).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appIconPixels, encodePng } from '../app/electron/icon-art.js';

/** Sizes written to build/icons for Linux. */
export const LINUX_ICON_SIZES = [1024, 512, 256, 128, 64, 48, 32, 16] as const;

const root = path.resolve(import.meta.dirname, '..');
const icons = path.join(root, 'build', 'icons');
mkdirSync(icons, { recursive: true });
const cache = new Map<number, Buffer>();
const png = (size: number) => {
  if (!cache.has(size)) cache.set(size, encodePng(size, appIconPixels(size)));
  return cache.get(size)!;
};
writeFileSync(path.join(root, 'build', 'icon.png'), png(1024));
for (const size of LINUX_ICON_SIZES) writeFileSync(path.join(icons, `${size}x${size}.png`), png(size));
console.log(`wrote build/icon.png and ${LINUX_ICON_SIZES.length} sizes in build/icons/`);
