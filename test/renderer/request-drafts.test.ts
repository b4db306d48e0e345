/**
 * A request draft's edits applied to a message (renderer/screens/queue/apply-edits.ts), the texts
 * and media inside a tool_result included (keys `textKey`), and how a never-delivered draft lists
 * its texts.
 */
import { describe, expect, it } from 'vitest';
import { applyRemovals, applyTextEdits } from '../../renderer/screens/queue/apply-edits.js';
import { textKey, typedTexts } from '../../shared/contract/drafts.js';
import type { SamplingContent } from '../../shared/contract/sampling.js';

const result = {
  type: 'tool_result' as const,
  toolUseId: 'r1',
  content: [{ type: 'text', text: 'key = AKIAIOSFODNN7EXAMPLE' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: '2 lines' }],
};
/** Message 2 of a tool loop: a tool_result, then a question. */
const content: SamplingContent[] = [result, { type: 'text', text: 'Is it sane?' }];
const inner = (c: SamplingContent | SamplingContent[] | null): unknown[] => ((c as SamplingContent[])[0] as typeof result).content;

describe('edits inside a tool_result', () => {
  it('an edited tool_result text goes in its place; every other block stays the same object', () => {
    const edited = applyTextEdits(content, 2, { [textKey(2, 0, 2)]: '2 lines (checked)', [textKey(2, 1)]: 'Is it sound?' }) as SamplingContent[];
    expect(inner(edited)).toEqual([result.content[0], result.content[1], { type: 'text', text: '2 lines (checked)' }]);
    expect(inner(edited)[0]).toBe(result.content[0]);
    expect(edited[1]).toEqual({ type: 'text', text: 'Is it sound?' });
    expect(applyTextEdits(content, 2, { [textKey(3, 0, 0)]: 'another message' })).toBe(content);
    expect(applyTextEdits(content, 2, { [textKey(2, 0, 0)]: 'key = AKIAIOSFODNN7EXAMPLE' })).toBe(content); // edited back to what came
  });

  it('a removed image leaves the tool_result with the rest; removing all of it leaves an empty result, not an empty message', () => {
    expect(inner(applyRemovals(content, 2, { [textKey(2, 0, 1)]: true }))).toEqual([result.content[0], result.content[2]]);
    const all = { [textKey(2, 0, 0)]: true, [textKey(2, 0, 1)]: true, [textKey(2, 0, 2)]: true };
    expect(inner(applyRemovals(content, 2, all))).toEqual([]);
    expect(applyRemovals(content, 2, { [textKey(1, 0, 1)]: true })).toBe(content);
    expect(applyRemovals(content, 2, { [textKey(2, 0)]: true, [textKey(2, 1)]: true })).toBeNull();
  });

  it("lists typed texts in reading order, a tool_result's texts after their block and before the next", () => {
    const texts = { [textKey(10, 0)]: 'ten', [textKey(2, 0, 1)]: 'inner one', [textKey(2, 1)]: 'block one', [textKey(2, 0, 0)]: 'inner zero', [textKey(2, 0)]: 'block zero' };
    const draft = { texts, editing: {}, systemPrompt: '', maxTokens: '1', temperature: '', model: '' };
    const typed = typedTexts({ request: { draft, extras: { removedBlocks: {}, removedTools: {} } } });
    expect(typed.map((t) => t.ref)).toEqual(['2:0', '2:0:0', '2:0:1', '2:1', '10:0']);
  });
});
