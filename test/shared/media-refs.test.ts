/**
 * Media by reference (shared/domain/media-refs.ts): big image/audio payloads of a whole item are
 * replaced by references that name their size and place, and put back from the payloads.
 */
import { describe, expect, it } from 'vitest';
import { MEDIA_REF_MIN_CHARS } from '../../shared/contract/media-refs.js';
import { elideMedia, fillMedia, mediaRefsIn, parseMediaRef, payloadsFor } from '../../shared/domain/media-refs.js';
import { isBase64 } from '../../shared/domain/base64.js';

const big = 'QUJD'.repeat(MEDIA_REF_MIN_CHARS / 4); // exactly the threshold
const bigAudio = `${'QUJD'.repeat(MEDIA_REF_MIN_CHARS / 4 + 10)}QQ==`;
const small = 'QUJD'.repeat(10);
const item = {
  id: 'a',
  status: 'awaiting_request_review',
  original: {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'x'.repeat(MEDIA_REF_MIN_CHARS * 2) }, { type: 'image', mimeType: 'image/png', data: big }] },
      { role: 'user', content: { type: 'audio', mimeType: 'audio/wav', data: small } },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't', content: [{ type: 'audio', mimeType: 'audio/wav', data: bigAudio }] }] },
    ],
    tools: [{ name: 't', inputSchema: { type: 'object', properties: { data: { type: 'image', data: big } } } }],
    maxTokens: 10,
  },
  sent: undefined as unknown,
};

describe('media by reference', () => {
  it('replaces payloads of the threshold and above with references naming their size and place; the rest is shared, not copied', () => {
    const { value, refs, payloads } = elideMedia(item);
    const blocks = value.original.messages;
    const image = (blocks[0]!.content as Array<{ data?: string }>)[1]!.data!;
    expect(image).toBe(`mcp-console-media:${big.length}:${(big.length / 4) * 3}:original/messages/0/content/1`);
    expect(parseMediaRef(image)).toEqual({ chars: big.length, bytes: (big.length / 4) * 3 });
    expect(isBase64(image)).toBe(false); // never mistaken for a payload
    expect(blocks[1]).toBe(item.original.messages[1]); // small payload: untouched, same object
    const nested = (blocks[2]!.content as Array<{ content: Array<{ data: string }> }>)[0]!.content[0]!.data;
    expect(parseMediaRef(nested)).toEqual({ chars: bigAudio.length, bytes: (bigAudio.length / 4) * 3 - 2 });
    expect(refs).toEqual([
      { ref: image, chars: big.length },
      { ref: nested, chars: bigAudio.length },
    ]);
    expect(payloads.get(image)).toBe(big);
    // Any object shaped like a media block is elided (here one inside a tool's schema), under the
    // reference of the same payload found first; filling puts it back like any other.
    expect(value.original.tools[0]!.inputSchema.properties.data.data).toBe(image);
    expect(item.original.messages[0]!.content).toHaveLength(2); // the input is not changed
    expect((item.original.messages[0]!.content as Array<{ data?: string }>)[1]!.data).toBe(big);
  });

  it('one payload found twice gets one reference; the same item gives the same references each time', () => {
    const approved = { ...item, sent: structuredClone(item.original) };
    const first = elideMedia(approved);
    expect(first.refs).toHaveLength(2);
    expect(mediaRefsIn(first.value.sent)).toEqual(mediaRefsIn(first.value.original));
    expect(elideMedia(structuredClone(approved)).refs).toEqual(first.refs);
  });

  it('filling puts every payload back: the item equals the original; references without a payload stay', () => {
    const { value, payloads } = elideMedia(item);
    expect(fillMedia(value, payloads)).toEqual(item);
    expect(mediaRefsIn(fillMedia(value, payloads))).toEqual([]);
    const [first] = [...payloads.keys()];
    const partly = fillMedia(value, new Map([[first!, payloads.get(first!)!]]));
    expect(mediaRefsIn(partly)).toHaveLength(1);
    expect(fillMedia(value, new Map())).toBe(value);
  });

  it('an item without big media is returned as it is; a string that only looks like a reference has no sizes', () => {
    const plain = { original: { messages: [{ role: 'user', content: { type: 'image', mimeType: 'image/png', data: small } }] } };
    const { value, refs } = elideMedia(plain);
    expect(value).toBe(plain);
    expect(refs).toEqual([]);
    expect(parseMediaRef('mcp-console-media:x:y:z')).toBeUndefined();
    expect(parseMediaRef(small)).toBeUndefined();
  });

  it('deep JSON (a tool schema hundreds of levels deep) is not walked past the media depth and does not overflow', () => {
    let deep: Record<string, unknown> = { type: 'image', data: big };
    for (let i = 0; i < 5_000; i++) deep = { nested: deep };
    const { refs } = elideMedia({ original: { tools: [{ inputSchema: deep }] } });
    expect(refs).toEqual([]);
  });

  it('resource blobs are replaced too (a call result, an embedded resource in a request), and put back the same way', () => {
    const call = { id: 'c', resource: { contents: [{ uri: 'file:///chart.png', mimeType: 'image/png', blob: big }, { uri: 'file:///a.txt', text: big }] } };
    const { value, refs } = elideMedia(call);
    expect(refs).toHaveLength(1);
    expect(value.resource.contents[0]!.blob).toBe(refs[0]!.ref);
    expect(value.resource.contents[1]!.text).toBe(big); // text is not a blob
    expect(mediaRefsIn(value)).toEqual([refs[0]!.ref]);
    const payloads = payloadsFor(call, [refs[0]!.ref, 'mcp-console-media:1:1:x']);
    expect(payloads).toEqual([{ ref: refs[0]!.ref, data: big }]);
    expect(fillMedia(value, new Map(payloads.map((p) => [p.ref, p.data])))).toEqual(call);
    expect(parseMediaRef(refs[0]!.ref)?.chars).toBe(big.length);
  });

  it('long texts only when asked (a call), by a text reference that never fills a media field, nor a media reference a text', () => {
    const long = 'x'.repeat(MEDIA_REF_MIN_CHARS);
    const call = { id: 'c', result: { content: [{ type: 'text', text: long }, { type: 'image', mimeType: 'image/png', data: big }] } };
    expect(elideMedia(call).value.result.content[0]!.text).toBe(long); // an item's or entry's texts stay
    const { value, refs, payloads } = elideMedia(call, { texts: true });
    const textRef = (value.result.content[0] as { text: string }).text;
    const imageRef = (value.result.content[1] as { data: string }).data;
    expect(textRef.startsWith('mcp-console-text:')).toBe(true);
    expect(refs.map((r) => r.ref)).toEqual([textRef, imageRef]);
    expect(fillMedia(value, payloads, { texts: true })).toEqual(call);
    expect(fillMedia(value, payloads).result.content[0]!.text).toBe(textRef); // without the option texts are not looked at
    expect(mediaRefsIn(value)).toEqual([imageRef]);
    // A server's text shaped like the image's reference is its text, and an image field holding a text reference stays.
    const crossed = { content: [{ type: 'text', text: imageRef }, { type: 'image', mimeType: 'image/png', data: textRef }] };
    expect(fillMedia(crossed, payloads, { texts: true })).toEqual(crossed);
    expect(payloadsFor(call, [textRef], { texts: true })).toEqual([{ ref: textRef, data: long }]);
    expect(payloadsFor(call, [textRef])).toEqual([]);
  });
});
