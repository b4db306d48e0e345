import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { packStrings, SENT_AS_BYTES_MIN_CHARS, unpackStrings, type SentString } from '../../main/offload/strings.js';
import { isBase64 } from '../../shared/domain/base64.js';
import { jsonLength } from '../../shared/domain/json-length.js';

const BIG = SENT_AS_BYTES_MIN_CHARS;
const latin1 = `${'plain text, ü and ÿ. '.repeat(BIG / 20)}"quoted"\n`;
// Lone surrogates, a pair, CJK: all must come back unit for unit.
const wide = `${'中文 😀 '.repeat(BIG / 6)}\ud800 lone \udfff end`;
const base64 = 'QUJD'.repeat(BIG / 4);

type Block = { type?: string; text?: string; data?: string };
/** The blocks of message `n` of the test's value. */
const blocksOf = (v: unknown, n: number): Block[] => [(v as { value: { params: { messages: Array<{ content: Block | Block[] }> } } }).value.params.messages[n]!.content].flat();

const ports: MessagePort[] = [];
afterEach(() => ports.splice(0).forEach((p) => p.close()));

/** Sends `message` across a MessageChannel, `transfer` moved, as the worker does. */
function across<T>(message: T, transfer: ArrayBuffer[]): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  return new Promise((resolve) => {
    port2.once('message', resolve);
    port1.postMessage(message, transfer);
  });
}

describe('big strings cross from the worker as bytes', () => {
  it('packs each big string to moved bytes with what validation reads of it, and puts it back whole', async () => {
    const value = {
      ok: true,
      value: { params: { messages: [{ content: [{ type: 'text', text: latin1 }, { type: 'image', data: base64 }] }, { content: { text: wide } }], small: 'short' } },
      held: [1, 2, 3],
      [latin1]: 'a big key stays a key',
    };
    const expected = structuredClone(value);
    const { value: packed, strings, transfer } = packStrings(value);
    expect(strings.map((s) => [s.path, s.encoding])).toEqual(
      expect.arrayContaining([
        [['value', 'params', 'messages', 0, 'content', 0, 'text'], 'latin1'],
        [['value', 'params', 'messages', 0, 'content', 1, 'data'], 'latin1'],
        [['value', 'params', 'messages', 1, 'content', 'text'], 'utf16le'],
      ]),
    );
    expect(strings).toHaveLength(3);
    for (const s of strings) {
      const text = [latin1, wide, base64].find((t) => s.bytes.byteLength === (s.encoding === 'latin1' ? t.length : t.length * 2))!;
      expect(s.jsonLength).toBe(JSON.stringify(text).length);
      expect(s.base64).toBe(text === base64);
    }
    expect(transfer).toEqual(strings.map((s) => s.bytes.buffer));
    expect(blocksOf(packed, 0)[0]!.text).toBeNull();

    const message = await across({ output: packed, strings }, transfer);
    expect(strings.every((s) => s.bytes.byteLength === 0)).toBe(true); // moved, not copied
    const whole = await unpackStrings(message.output, message.strings);
    expect(whole).toEqual(expected);
    const [text, data] = blocksOf(whole, 0).map((b) => b.text ?? b.data!);
    expect(jsonLength(text)).toBe(JSON.stringify(latin1).length);
    expect(isBase64(data!)).toBe(true);
    expect(blocksOf(whole, 1)[0]!.text).toBe(wide);
  });

  it('leaves small strings, and a value that is itself a string, as they are', () => {
    const small = { a: 'x'.repeat(BIG - 1), b: [1, null, true] };
    expect(packStrings(small)).toEqual({ value: { a: 'x'.repeat(BIG - 1), b: [1, null, true] }, strings: [], transfer: [] });
    expect(packStrings(latin1).strings).toEqual([]);
  });

  it('refuses a string whose place is not in the value', async () => {
    const stray: SentString = { path: ['missing', 'text'], encoding: 'latin1', bytes: new Uint8Array([104, 105]), jsonLength: 4, base64: false };
    await expect(unpackStrings({ other: 1 }, [stray])).rejects.toThrow(/no place for a sent string at missing\.text/);
  });
});
