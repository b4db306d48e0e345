/**
 * Content versions (main/requests/version.ts): SHA-256 of the RFC 8785 canonical JSON, the same
 * whether computed at once or in slices, independent of key order, and a big value's slices leave
 * the event loop turns in between.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentVersion, contentVersionSliced, versionOf } from '../../main/requests/version.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('content versions', () => {
  it('hashes the RFC 8785 canonical form (the RFC’s own example, section 3.2.2)', () => {
    const input = JSON.parse('{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}') as unknown;
    const canonical = '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    expect(contentVersion(input)).toBe(sha256(canonical));
  });

  it('sorts keys by UTF-16 code units at every depth and leaves undefined members out', () => {
    const a = { b: 1, a: { y: [1, { d: 2, c: 3 }], x: 'é' }, '\u20ac': true, '\ud83d\ude00': null, skip: undefined };
    const b = { '\ud83d\ude00': null, '\u20ac': true, a: { x: 'é', y: [1, { c: 3, d: 2 }] }, b: 1 };
    expect(contentVersion(a)).toBe(contentVersion(b));
    expect(contentVersion(a)).toBe(sha256('{"a":{"x":"é","y":[1,{"c":3,"d":2}]},"b":1,"\u20ac":true,"\ud83d\ude00":null}'));
    expect(contentVersion({ a: 'x' })).not.toBe(contentVersion({ a: 'y' }));
  });

  it('refuses what JSON cannot hold', () => {
    expect(() => contentVersion({ n: Number.NaN })).toThrow(TypeError);
    expect(() => contentVersion({ f: () => 1 })).toThrow(TypeError);
  });

  it('a big value: sliced gives the same version as at once, surrogate pairs across slice edges included', async () => {
    const text = '😀'.repeat(300_000) + 'x' + '😀'.repeat(300_000); // pairs land on every slice edge
    const value = { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 5 };
    const whole = sha256(JSON.stringify({ maxTokens: 5, messages: [{ content: { text, type: 'text' }, role: 'user' }] }));
    expect(contentVersion(value)).toBe(whole);
    await expect(contentVersionSliced(value, 0)).resolves.toBe(whole);
    const v = versionOf(value);
    expect('pending' in v).toBe(true);
    if ('pending' in v) await expect(v.pending).resolves.toBe(whole);
  });

  it('a big value is hashed in slices: the event loop turns before the version is ready', async () => {
    const value = { text: 'a'.repeat(8_000_000) };
    let turned = false;
    setImmediate(() => (turned = true));
    const version = await contentVersionSliced(value, 0);
    expect(turned).toBe(true);
    expect(version).toBe(contentVersion(value));
    expect('ready' in versionOf({ text: 'small' })).toBe(true);
  });
});
