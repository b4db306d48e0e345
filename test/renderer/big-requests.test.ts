/**
 * The review's handling of very large requests (renderer scale): long texts previewed and
 * edited in parts that always join back to the exact text, and the request draft built and
 * compared without rescanning media the request arrived with — while every edit still reaches
 * the params and invalid drafts are still refused.
 */
import { describe, expect, it } from 'vitest';
import { MARKDOWN_PREVIEW_CHARS, PART_CHARS, markdownPreview, splitParts } from '../../renderer/components/big-text.js';
import { checkDraftParams, sameJson, withoutReceivedMedia } from '../../renderer/screens/queue/draft-check.js';
import type { CreateMessageParams, SamplingContent } from '../../shared/contract/sampling.js';
import { elideMedia } from '../../shared/domain/media-refs.js';
import { DEFAULT_MAX_REQUEST_BYTES } from '../../shared/domain/validate-sampling.js';

const lines = (n: number, width = 79) => Array.from({ length: n }, (_, i) => `${String(i).padStart(6, '0')} ${'x'.repeat(width - 7)}`).join('\n');

describe('splitParts', () => {
  it('cuts a long text into parts of at most PART_CHARS at line ends, joining back exactly', () => {
    const text = lines(20_000); // 1.6 MB
    const parts = splitParts(text);
    expect(parts.join('')).toBe(text);
    expect(parts.length).toBeGreaterThan(text.length / PART_CHARS);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(PART_CHARS);
    for (const p of parts.slice(0, -1)) expect(p.endsWith('\n')).toBe(true);
  });

  it('hard-cuts a line longer than a part, and leaves a short text whole', () => {
    const text = 'y'.repeat(PART_CHARS * 2 + 5);
    expect(splitParts(text).map((p) => p.length)).toEqual([PART_CHARS, PART_CHARS, 5]);
    expect(splitParts('short\ntext')).toEqual(['short\ntext']);
    expect(splitParts('')).toEqual(['']);
  });
});

describe('markdownPreview', () => {
  it('keeps short texts and cuts long ones at a line end within the limit', () => {
    expect(markdownPreview('# hi')).toBe('# hi');
    const text = lines(2_000);
    const preview = markdownPreview(text);
    expect(preview.length).toBeLessThanOrEqual(MARKDOWN_PREVIEW_CHARS);
    expect(preview.length).toBeGreaterThan(MARKDOWN_PREVIEW_CHARS / 2);
    expect(text.startsWith(preview)).toBe(true);
    expect(text[preview.length]).toBe('\n');
  });
});

describe('checking a draft of a request with a big image', () => {
  const image = 'QUJD'.repeat(700_000); // 2.8 MB of valid base64
  const text = lines(100);
  const base: CreateMessageParams = {
    messages: [{ role: 'user', content: [{ type: 'text', text }, { type: 'image', data: image, mimeType: 'image/png' }] }],
    maxTokens: 500,
  };
  /** The draft after typing: the text block replaced, everything else shared with `base`. */
  const typed = (t: string): CreateMessageParams => ({ ...base, messages: [{ ...base.messages[0]!, content: [{ type: 'text', text: t }, (base.messages[0]!.content as SamplingContent[])[1]!] }] });

  it('validates with the received image stood in for, leaving the params themselves untouched', () => {
    const draft = typed(`${text}abc`);
    const light = withoutReceivedMedia(draft, base);
    expect(light.stripped).toBe(image.length - 4);
    expect((light.params.messages[0]!.content as Array<{ data?: string }>)[1]!.data).toBe('AAAA');
    expect((draft.messages[0]!.content as Array<{ data?: string }>)[1]!.data).toBe(image);
    expect(checkDraftParams(draft, base)).toBeNull();
  });

  it('still rescans media that are not the received ones, and counts the image in the size cap', () => {
    const swapped: CreateMessageParams = { ...base, messages: [{ ...base.messages[0]!, content: [{ type: 'text', text }, { type: 'image', data: 'not base64!', mimeType: 'image/png' }] }] };
    expect(withoutReceivedMedia(swapped, base).stripped).toBe(0);
    expect(checkDraftParams(swapped, base)).toMatch(/S-B64-1/);
    const huge = typed('z'.repeat(DEFAULT_MAX_REQUEST_BYTES - image.length + 1_000));
    expect(checkDraftParams(huge, base)).toMatch(/S-SIZE-1/);
    expect(checkDraftParams({ ...typed(text), maxTokens: 0 }, base)).toMatch(/S-MAX-1/);
  });

  it('compares drafts with the params they started from like their JSON would, shared parts by identity', () => {
    expect(sameJson(typed(text), base)).toBe(true);
    expect(sameJson(typed(`${text}!`), base)).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false); // key order, as JSON.stringify
    expect(sameJson([1, [2]], [1, [2]])).toBe(true);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
  });
});

describe('checking a draft whose tool_result holds a big image (a screenshot tool fed back)', () => {
  const image = 'QUJD'.repeat(100_000); // 400 KB of valid base64: sent by reference
  const base: CreateMessageParams = {
    messages: [
      { role: 'user', content: { type: 'text', text: 'Look at the page' } },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'shot-1', name: 'screenshot', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'shot-1', content: [{ type: 'image', data: image, mimeType: 'image/png' }] }] },
    ],
    maxTokens: 500,
  };
  const nested = (p: CreateMessageParams): string => ((p.messages[2]!.content as unknown as Array<{ content: Array<{ data: string }> }>)[0]!.content[0]!.data);

  it('passes while the image is still a reference, counting it as its payload', () => {
    const { value } = elideMedia({ original: base });
    expect(nested(value.original)).toMatch(/^mcp-console-media:/);
    expect(checkDraftParams(value.original, value.original)).toBeNull();
    expect(withoutReceivedMedia(value.original, value.original).stripped).toBe(image.length - 4);
  });

  it('does not rescan the received nested image, and still refuses one that is not the received one', () => {
    const light = withoutReceivedMedia(base, base);
    expect(light.stripped).toBe(image.length - 4);
    expect(nested(light.params)).toBe('AAAA');
    expect(nested(base)).toBe(image);
    const swapped: CreateMessageParams = { ...base, messages: [...base.messages.slice(0, 2), { role: 'user', content: [{ type: 'tool_result', toolUseId: 'shot-1', content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] }] }] };
    expect(checkDraftParams(swapped, base)).toMatch(/S-B64-1/);
  });

  it('counts a resource blob still on its way as its payload in the size cap (S-SIZE-1)', () => {
    const blob = 'QUJD'.repeat(2_000_000); // 8 MB of base64
    const withPdf = (text: string): CreateMessageParams => ({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'r1', name: 'read_file', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'r1', content: [{ type: 'resource', resource: { uri: 'file:///q3.pdf', mimeType: 'application/pdf', blob } }] }] },
        { role: 'user', content: { type: 'text', text } },
      ],
      maxTokens: 10,
    });
    const under = elideMedia({ original: withPdf('x'.repeat(DEFAULT_MAX_REQUEST_BYTES - blob.length - 2_000)) }).value.original;
    const over = elideMedia({ original: withPdf('x'.repeat(DEFAULT_MAX_REQUEST_BYTES - blob.length + 2_000)) }).value.original;
    expect(JSON.stringify(over).length).toBeLessThan(DEFAULT_MAX_REQUEST_BYTES); // the reference is short
    expect(checkDraftParams(under, under)).toBeNull();
    expect(checkDraftParams(over, over)).toMatch(/S-SIZE-1/);
  });
});
