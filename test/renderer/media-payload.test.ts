/**
 * renderer/components/media-payload.ts: a media block's payload is decoded only when it is strict
 * padded base64 (what main accepted at intake), here on Node's path without a native decoder.
 */
import { describe, expect, it } from 'vitest';
import { decodeBase64Strict, isBase64Safe } from '../../renderer/components/media-payload.js';

describe('decodeBase64Strict', () => {
  it('decodes strict padded base64 to its bytes', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256);
    for (const n of [0, 1, 2, 3, 299, 300]) {
      const b64 = Buffer.from(bytes.subarray(0, n)).toString('base64');
      expect(isBase64Safe(b64)).toBe(true);
      expect(decodeBase64Strict(b64)).toEqual(bytes.subarray(0, n));
    }
  });

  it.each([
    ['unpadded', 'QUI'],
    ['a line break inside', 'QUJD\nREVG'],
    ['a space', 'QUJD REVG'],
    ['URL-safe alphabet', 'ab-_'],
    ['padding in the middle', 'QQ==QUJD'],
    ['non-ASCII', 'QUJDé==='],
  ])('refuses %s', (_name, data) => {
    expect(isBase64Safe(data)).toBe(false);
    expect(decodeBase64Strict(data)).toBeNull();
  });
});
