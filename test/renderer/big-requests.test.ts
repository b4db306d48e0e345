/**
 * The review's handling of very large requests (issue 8, renderer scale): long texts previewed and
 * edited in parts that always join back to the exact text, and the request draft built and
 * compared without rescanning media the request arrived with — while every edit still reaches
 * the params and invalid drafts are still refused.
 */
import { describe, expect, it } from 'vitest';
import { MARKDOWN_PREVIEW_CHARS, PART_CHARS, markdownPreview, splitParts } from '../../renderer/components/big-text.js';
import { buildRequest, initialRequestDraft, requestEdited } from '../../renderer/screens/queue/drafts.js';
import { DEFAULT_MAX_REQUEST_BYTES } from '../../shared/validate-sampling.js';
import type { SamplingItemView } from '../../shared/state.js';

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

describe('building a draft of a request with a big image', () => {
  const image = 'QUJD'.repeat(700_000); // 2.8 MB of valid base64
  const item = {
    id: 'big',
    origin: 'server',
    conversationId: 'big',
    round: 1,
    serverId: 'queue',
    era: 'legacy',
    association: { exact: true, calls: [] },
    status: 'awaiting_request_review',
    receivedAt: 1,
    updatedAt: 1,
    original: {
      messages: [{ role: 'user', content: [{ type: 'text', text: lines(100) }, { type: 'image', data: image, mimeType: 'image/png' }] }],
      maxTokens: 500,
    },
    model: { providerId: 'manual', modelId: 'manual', reason: 'default' },
  } as unknown as SamplingItemView;

  it('keeps the very image in the built params and reports edits of the text only when there are some', () => {
    const draft = initialRequestDraft(item);
    const unchanged = buildRequest(item, draft);
    expect(unchanged.ok).toBe(true);
    expect(requestEdited(item, draft, undefined, unchanged)).toBe(false);
    const typed = { ...draft, texts: { '0:0': `${lines(100)}abc` } };
    const built = buildRequest(item, typed);
    if (!built.ok) throw new Error(built.errors.join('; '));
    const content = built.params.messages[0]!.content as Array<{ type: string; text?: string; data?: string }>;
    expect(content[0]!.text!.endsWith('abc')).toBe(true);
    expect(content[1]!.data).toBe(image);
    expect(requestEdited(item, typed, undefined, built)).toBe(true);
  });

  it('still refuses an invalid draft, and a request over the size cap counts the image', () => {
    const draft = initialRequestDraft(item);
    expect(buildRequest(item, { ...draft, maxTokens: '0' }).ok).toBe(false);
    const huge = { ...draft, texts: { '0:0': 'z'.repeat(DEFAULT_MAX_REQUEST_BYTES - image.length + 1_000) } };
    const built = buildRequest(item, huge);
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.errors.join(' ')).toMatch(/S-SIZE-1/);
  });
});
