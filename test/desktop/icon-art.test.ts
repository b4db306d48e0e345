import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ACCENT, appIconPixels, encodePng, trayIconPixels } from '../../app/electron/icon-art.js';

/** Decodes the PNGs encodePng writes (8-bit RGBA, filter 0), checking every chunk's CRC. */
function decode(png: Buffer): { size: number; rgba: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let off = 8;
  let size = 0;
  const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('ascii', off + 4, off + 8);
    const body = png.subarray(off + 4, off + 8 + len);
    expect(png.readUInt32BE(off + 8 + len), `CRC of ${type}`).toBe(crc32(body));
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      size = data.readUInt32BE(0);
      expect([data.readUInt32BE(4), data[8], data[9]]).toEqual([size, 8, 6]);
    }
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    expect(raw[y * (size * 4 + 1)]).toBe(0);
    raw.copy(rgba, y * size * 4, y * (size * 4 + 1) + 1, (y + 1) * (size * 4 + 1));
  }
  return { size, rgba };
}

const pixel = (img: { size: number; rgba: Buffer }, x: number, y: number) => [...img.rgba.subarray((y * img.size + x) * 4, (y * img.size + x) * 4 + 4)];

describe('icons', () => {
  it('the app icon: transparent corners, accent square, white diamond, accent centre', () => {
    const img = decode(encodePng(128, appIconPixels(128)));
    expect(img.size).toBe(128);
    expect(pixel(img, 1, 1)[3]).toBe(0);
    expect(pixel(img, 20, 64)).toEqual([...ACCENT]);
    expect(pixel(img, 64, 35)).toEqual([255, 255, 255, 255]);
    expect(pixel(img, 64, 64)).toEqual([...ACCENT]);
  });

  it('the tray icon shows a red dot only when items wait; the macOS template is black', () => {
    const plain = decode(encodePng(32, trayIconPixels(32, { template: false, dot: false })));
    const dotted = decode(encodePng(32, trayIconPixels(32, { template: false, dot: true })));
    const [r, g, b, a] = pixel(dotted, 25, 7);
    expect(a).toBe(255);
    expect(r).toBeGreaterThan(200);
    expect(g! + b!).toBeLessThan(120);
    expect(pixel(plain, 25, 7)[3]).toBe(0);
    const template = decode(encodePng(32, trayIconPixels(32, { template: true, dot: false })));
    expect(pixel(template, 16, 4).slice(0, 3)).toEqual([0, 0, 0]);
  });

  it('the committed build icons are the ones the script draws (256 px compared; 1024 px present)', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    expect(readFileSync(path.join(root, 'build/icons/256x256.png')).equals(encodePng(256, appIconPixels(256)))).toBe(true);
    const big = readFileSync(path.join(root, 'build/icon.png'));
    expect(big.equals(readFileSync(path.join(root, 'build/icons/1024x1024.png')))).toBe(true);
    expect(decode(big).size).toBe(1024);
  });

  it('refuses a pixel buffer of the wrong size', () => {
    expect(() => encodePng(4, Buffer.alloc(10))).toThrow(RangeError);
  });
});
