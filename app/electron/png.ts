/**
 * The one PNG encoder of the project (app icons, and the images test fixtures and benchmarks send):
 * 8-bit RGB or RGBA pixels, filter "none" on every row, zlib-compressed, CRCs from `node:zlib`.
 * Plain Node: no Electron import, so tests and the bench use it too.
 */
import { crc32, deflateSync } from 'node:zlib';

/** Pixels to encode: `width × height × channels` bytes, row after row, no filter bytes. */
export interface PngPixels {
  width: number;
  height: number;
  /** 3 = RGB (colour type 2), 4 = RGBA (colour type 6). */
  channels: 3 | 4;
  pixels: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * Encodes pixels as PNG file bytes.
 * @param level zlib level, 0–9 (default 9: smallest file)
 * @throws RangeError when `pixels` is not `width × height × channels` bytes
 */
export function encodePngImage({ width, height, channels, pixels }: PngPixels, level = 9): Buffer {
  const stride = width * channels;
  if (pixels.length !== stride * height) throw new RangeError(`expected ${stride * height} bytes of pixels, got ${pixels.length}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8); // bit depth 8, colour type, deflate, filter method 0, no interlace
  const raw = Buffer.alloc(height * (stride + 1)); // each row: filter byte 0, then the pixels
  for (let y = 0; y < height; y++) pixels.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level })), chunk('IEND', Buffer.alloc(0))]);
}
