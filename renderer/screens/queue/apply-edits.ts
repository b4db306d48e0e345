/**
 * The person's edits applied to one message's content (pure, shared/ only, unit-tested on Node):
 * edited texts — a message's text blocks and the texts inside its tool_results — and removed
 * blocks (image, audio, an embedded resource, inside tool_results too), by the draft keys of shared/contract/drafts.ts (`textKey`). Every block the
 * person did not touch is kept as the same object.
 */
import { textKey } from '../../../shared/contract/drafts.js';
import { contentBlocks, type SamplingContent } from '../../../shared/contract/sampling.js';

/**
 * Replaces the text of edited text blocks, and of edited texts inside tool_result blocks (keys
 * `textKey(message, block, inner)`); other blocks are kept as they are (the same objects).
 */
export function applyTextEdits(
  content: SamplingContent | SamplingContent[],
  message: number,
  texts: Record<string, string>,
): SamplingContent | SamplingContent[] {
  const blocks = contentBlocks(content);
  const next = blocks.map((b, j) => (b.type === 'tool_result' ? editToolResult(b, message, j, texts) : editText(b, texts[textKey(message, j)])));
  if (next.every((b, j) => b === blocks[j])) return content;
  return Array.isArray(content) ? next : next[0]!;
}

/** `b` with its text replaced by `edited` when it is a text block and `edited` differs. */
function editText<B extends { type: string; text?: unknown }>(b: B, edited: string | undefined): B {
  return b.type !== 'text' || edited === undefined || edited === b.text ? b : { ...b, text: edited };
}

/** The tool_result `b` (block `block` of message `message`) with its edited inner texts. */
function editToolResult(b: Extract<SamplingContent, { type: 'tool_result' }>, message: number, block: number, texts: Record<string, string>): SamplingContent {
  const content = b.content.map((inner, k) => editText(inner, texts[textKey(message, block, k)]));
  return content.every((inner, k) => inner === b.content[k]) ? b : { ...b, content };
}

/**
 * Drops the blocks of message `message` marked in `removed` (keys `textKey`: a block, or one inside
 * a tool_result's content — a tool_result left with no content stays, with an empty result).
 * Returns the content unchanged when nothing is removed, `null` when nothing would be left.
 */
export function applyRemovals(
  content: SamplingContent | SamplingContent[],
  message: number,
  removed: Record<string, boolean>,
): SamplingContent | SamplingContent[] | null {
  const blocks = contentBlocks(content);
  const kept = blocks.flatMap((b, j): SamplingContent[] => {
    if (removed[textKey(message, j)]) return [];
    if (b.type !== 'tool_result') return [b];
    const inner = b.content.filter((_c, k) => !removed[textKey(message, j, k)]);
    return [inner.length === b.content.length ? b : { ...b, content: inner }];
  });
  if (kept.length === blocks.length && kept.every((b, j) => b === blocks[j])) return content;
  if (kept.length === 0) return null;
  return Array.isArray(content) ? kept : kept[0]!;
}
