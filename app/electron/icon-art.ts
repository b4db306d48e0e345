/**
 * The app's icons, drawn in code so there is one source for the packaged app icons
 * (scripts/make-icons.ts writes build/icon.png and build/icons/NxN.png) and the tray icon the
 * running app builds in memory (no file paths to get wrong inside app.asar).
 *
 * The mark is the nav's "◆": a white diamond on the accent blue, in a rounded square. The tray
 * variant is the diamond alone (black for macOS template images), with a red dot when items wait.
 * Pure Node (PNG through ./png.ts); no `electron` import; tested in test/desktop/icon-art.test.ts.
 */
import { encodePngImage } from './png.js';

/** An RGBA colour, 0..255 each. */
export type Rgba = readonly [number, number, number, number];

/** The accent blue of the light theme. */
export const ACCENT: Rgba = [36, 87, 197, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const BLACK: Rgba = [0, 0, 0, 255];
const RED: Rgba = [214, 48, 49, 255];

/** A shape as a coverage test on the unit square (x, y in 0..1, y down). */
type Shape = (x: number, y: number) => boolean;

const roundedSquare =
  (inset: number, radius: number): Shape =>
  (x, y) => {
    const lo = inset + radius;
    const hi = 1 - inset - radius;
    const dx = Math.max(lo - x, 0, x - hi);
    const dy = Math.max(lo - y, 0, y - hi);
    return x >= inset && x <= 1 - inset && y >= inset && y <= 1 - inset && dx * dx + dy * dy <= radius * radius;
  };
const diamond =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    Math.abs(x - cx) + Math.abs(y - cy) <= r;
const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

/** Paints layers (later on top) into an RGBA buffer of `size`×`size`, 4×4 supersampled. */
function paint(size: number, layers: Array<[Shape, Rgba]>): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          let c: Rgba | null = null;
          for (const [shape, colour] of layers) if (shape(x, y)) c = colour;
          if (c) {
            const alpha = c[3] / 255;
            r += c[0] * alpha;
            g += c[1] * alpha;
            b += c[2] * alpha;
            a += alpha;
          }
        }
      }
      const i = (py * size + px) * 4;
      const samples = n * n;
      out[i + 3] = Math.round((a / samples) * 255);
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
    }
  }
  return out;
}

/** RGBA pixels of the app icon (rounded blue square, white diamond). */
export function appIconPixels(size: number): Buffer {
  return paint(size, [
    [roundedSquare(0.06, 0.2), ACCENT],
    [diamond(0.5, 0.5, 0.3), WHITE],
    [diamond(0.5, 0.5, 0.12), ACCENT],
  ]);
}

/**
 * RGBA pixels of the tray icon: the diamond in `colour` (black for a macOS template image), with a
 * red dot in the top-right corner when `dot` is set (items wait).
 */
export function trayIconPixels(size: number, opts: { template: boolean; dot: boolean }): Buffer {
  const colour = opts.template ? BLACK : ACCENT;
  const layers: Array<[Shape, Rgba]> = [
    [diamond(0.5, 0.5, 0.46), colour],
    [diamond(0.5, 0.5, 0.18), [0, 0, 0, 0]],
  ];
  if (opts.dot) layers.push([circle(0.78, 0.22, 0.22), RED]);
  return paint(size, layers);
}

/** RGBA pixels of the Windows taskbar overlay: a red dot. */
export function badgeDotPixels(size: number): Buffer {
  return paint(size, [[circle(0.5, 0.5, 0.46), RED]]);
}

/**
 * Encodes `size`×`size` RGBA pixels as a PNG (8-bit RGBA, no filtering, zlib level 9).
 * @throws RangeError when `rgba` is not `size*size*4` bytes
 */
export function encodePng(size: number, rgba: Buffer): Buffer {
  if (rgba.length !== size * size * 4) throw new RangeError(`expected ${size * size * 4} bytes of RGBA, got ${rgba.length}`);
  return encodePngImage({ width: size, height: size, channels: 4, pixels: rgba });
}
