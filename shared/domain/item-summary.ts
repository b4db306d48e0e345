/**
 * The one home of the item projection: what the state stream carries of an item
 * ({@link ItemSummary}) made from the whole item ({@link ItemView}), and the preview line a queue
 * row shows. Pure; costs what the first lines of a prompt cost, not its size (sizes are measured
 * once per params object).
 */
import { jsonLength } from './json-length.js';
import { contentBlocks, type CreateMessageParams } from '../contract/sampling.js';
import { PREVIEW_MAX, type ElicitationItemView, type ItemSummary, type ItemView, type SamplingItemView } from '../contract/state.js';

/** Characters of one line read when looking for the first line (64 Ki). */
const LINE_WINDOW = 64 * 1024;

/**
 * The first non-empty line of `text`, trimmed, without a Markdown heading's `#` marks, cut to
 * `max` characters (ending in "…" when cut, without the spaces before it). '' for blank text. Reads line by line from the
 * start, at most {@link LINE_WINDOW} characters of each: a 25 MB prompt costs what its first
 * lines cost.
 */
export function previewLine(text: string, max = PREVIEW_MAX): string {
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const cut = end - start > LINE_WINDOW;
    const line = text
      .slice(start, cut ? start + LINE_WINDOW : end)
      .trim()
      .replace(/^#{1,6}\s+/, '');
    if (line.length > 0) return line.length > max || cut ? `${line.slice(0, max - 1).trimEnd()}…` : line;
    start = end + 1;
  }
  return '';
}

/** Previews by params object (an item keeps its params across changes; projection runs at each one). */
const previews = new WeakMap<CreateMessageParams, string>();

/**
 * The line a person recognises a sampling request by: the first line of the last user message
 * that has text, else of the last message with text, else the kinds of blocks it holds as
 * "(image, audio)"; '' when it has no messages.
 */
export function promptPreview(params: CreateMessageParams): string {
  const cached = previews.get(params);
  if (cached !== undefined) return cached;
  const textOf = (m: CreateMessageParams['messages'][number]) =>
    contentBlocks(m.content)
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join(' ');
  let line = '';
  for (const role of ['user', undefined]) {
    for (let i = params.messages.length - 1; i >= 0 && line === ''; i--) {
      const m = params.messages[i]!;
      if (role === undefined || m.role === role) line = previewLine(textOf(m));
    }
    if (line !== '') break;
  }
  if (line === '') {
    const kinds = [...new Set(params.messages.flatMap((m) => contentBlocks(m.content).map((b) => b.type)))];
    line = kinds.length ? `(${kinds.join(', ')})` : '';
  }
  previews.set(params, line);
  return line;
}

/** JSON sizes by object (measured once: a 25 MB request is walked once, not at each change). */
const sizes = new WeakMap<object, number>();
/** `jsonLength(value)`, remembered per object. */
function sizeOf(value: object): number {
  let n = sizes.get(value);
  if (n === undefined) sizes.set(value, (n = jsonLength(value)));
  return n;
}

/** The summary's `call` / `candidates` from an item's association. */
function callOf(association: SamplingItemView['association']): Pick<ItemSummary, 'call' | 'candidates'> {
  const { exact, calls } = association;
  if (calls.length === 0) return {};
  if (exact || calls.length === 1) return { call: calls[0]! };
  return { candidates: calls.length };
}

/** What every summary carries, whatever the item's kind. */
function common(item: ItemView) {
  return {
    id: item.id,
    serverId: item.serverId,
    ...(item.via && { via: item.via }),
    ...(item.requestedBy && { requestedBy: item.requestedBy }),
    ...('gateway' in item && item.gateway && { gateway: item.gateway }),
    ...callOf(item.association),
    receivedAt: item.receivedAt,
    ...(item.serverWait && { serverWait: item.serverWait }),
  };
}

function projectSampling(item: SamplingItemView): ItemSummary {
  const calls = item.response
    ? contentBlocks(item.response.draft.content).flatMap((b) => (b.type === 'tool_use' ? [b.name] : []))
    : [];
  return {
    kind: 'sampling',
    ...common(item),
    status: item.status,
    preview: promptPreview(item.original),
    sizes: { request: sizeOf(item.original), ...(item.response && { response: sizeOf(item.response.draft) }) },
    ...(item.outcome && { outcome: item.outcome }),
    ...(item.draft && { hasDraft: true as const }),
    ...(item.origin === 'draft' && { origin: 'draft' as const }),
    ...(item.conversationId !== item.id && { conversationId: item.conversationId }),
    round: item.round,
    ...(item.auto && { auto: item.auto }),
    ...(item.error && { error: { at: item.error.at, ...(item.error.failure && { failure: item.error.failure }) } }),
    ...(item.policy?.notes.length && { policyNotes: item.policy.notes.length }),
    ...(calls.length > 0 && { toolCalls: calls }),
    ...(item.generation && { generatingSince: item.generation.startedAt }),
  };
}

function projectElicitation(item: ElicitationItemView): ItemSummary {
  return {
    kind: 'elicitation',
    ...common(item),
    status: item.status,
    preview: previewLine(item.params.message),
    sizes: { request: sizeOf(item.params), ...(item.answer && { response: sizeOf(item.answer) }) },
    ...(item.outcome && { outcome: item.outcome }),
    ...(item.draft && { hasDraft: true as const }),
    mode: item.params.mode === 'url' ? 'url' : 'form',
    source: item.source,
  };
}

/** The summary of `item` (memoised per item object: the same item gives the same summary object). */
export function projectItem(item: ItemView): ItemSummary {
  const cached = summaries.get(item);
  if (cached) return cached;
  const summary = item.kind === 'elicitation' ? projectElicitation(item) : projectSampling(item);
  summaries.set(item, summary);
  return summary;
}
const summaries = new WeakMap<ItemView, ItemSummary>();
