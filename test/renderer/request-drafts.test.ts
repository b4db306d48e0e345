/**
 * A request draft's texts, the texts inside a tool_result included (keys `textKey`): what the
 * approval sends, and how a never-delivered draft lists them.
 */
import { describe, expect, it } from 'vitest';
import { buildRequest, initialRequestDraft } from '../../renderer/screens/queue/drafts.js';
import { textKey, typedTexts } from '../../shared/contract/drafts.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { SamplingItemView } from '../../shared/contract/state.js';

const original: CreateMessageParams = {
  messages: [
    { role: 'user', content: { type: 'text', text: 'Is the config sane?' } },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'r1', name: 'read_file', input: { path: 'a.ini' } }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'r1', content: [{ type: 'text', text: 'key = AKIAIOSFODNN7EXAMPLE' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: '2 lines' }] },
      ],
    },
  ],
  maxTokens: 100,
};
const item = { id: 'i', original, model: { providerId: 'manual', modelId: 'manual' } } as unknown as SamplingItemView;

describe('request drafts with tool_result texts', () => {
  it('sends an edited tool_result text in its place and keeps every other block as it came (the same objects)', () => {
    const draft = { ...initialRequestDraft(item), texts: { [textKey(2, 0, 2)]: '2 lines (checked)', [textKey(0, 0)]: 'Is this config sane?' } };
    const built = buildRequest(item, draft);
    if (!built.ok) throw new Error(built.errors.join('; '));
    const [result] = built.params.messages[2]!.content as Array<{ content: unknown[] }>;
    expect(result!.content).toEqual([{ type: 'text', text: 'key = AKIAIOSFODNN7EXAMPLE' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: '2 lines (checked)' }]);
    const originalResult = (original.messages[2]!.content as Array<{ content: unknown[] }>)[0]!;
    expect(result!.content[0]).toBe(originalResult.content[0]);
    expect(built.params.messages[1]).toBe(original.messages[1]);
    expect(built.params.messages[0]!.content).toEqual({ type: 'text', text: 'Is this config sane?' });
  });

  it('an edit back to the text that came changes nothing', () => {
    const built = buildRequest(item, { ...initialRequestDraft(item), texts: { [textKey(2, 0, 0)]: 'key = AKIAIOSFODNN7EXAMPLE' } });
    expect(built.ok && built.params.messages[2]).toBe(original.messages[2]);
  });

  it('lists typed texts in reading order, a tool_result text after its message\'s blocks before the next message', () => {
    const texts = { [textKey(10, 0)]: 'ten', [textKey(2, 0, 1)]: 'inner one', [textKey(2, 1)]: 'block one', [textKey(2, 0, 0)]: 'inner zero', [textKey(2, 0)]: 'block zero' };
    const typed = typedTexts({ request: { draft: { ...initialRequestDraft(item), texts }, extras: { removedBlocks: {}, removedTools: {} } } } as never);
    expect(typed.map((t) => t.ref)).toEqual(['2:0', '2:0:0', '2:0:1', '2:1', '10:0']);
  });
});

describe('removing media inside a tool_result', () => {
  it('drops the image from the tool_result only, and keeps a tool_result emptied of content', () => {
    const draft = initialRequestDraft(item);
    const built = buildRequest(item, draft, { removedBlocks: { [textKey(2, 0, 1)]: true }, removedTools: {} });
    if (!built.ok) throw new Error(built.errors.join('; '));
    expect((built.params.messages[2]!.content as Array<{ content: unknown[] }>)[0]!.content).toEqual([{ type: 'text', text: 'key = AKIAIOSFODNN7EXAMPLE' }, { type: 'text', text: '2 lines' }]);
    const all = { [textKey(2, 0, 0)]: true, [textKey(2, 0, 1)]: true, [textKey(2, 0, 2)]: true };
    const emptied = buildRequest(item, draft, { removedBlocks: all, removedTools: {} });
    expect(emptied.ok && (emptied.params.messages[2]!.content as Array<{ content: unknown[] }>)[0]!.content).toEqual([]);
  });
});
