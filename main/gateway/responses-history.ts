/**
 * The Responses API's memory, kept by History: a `resp_…` id names the History entry of the call
 * it answered (wire/ids.ts), so
 *
 * - `previous_response_id` opens a call with that response's conversation — the messages it was
 *   sent (as approved: the person's edits and redactions are what the model saw) and its answer;
 * - `item_reference` stands for one output item of an earlier answer (its text, or a function call);
 * - `GET /openai/v1/responses/{id}` answers the response again (completed, incomplete, still in
 *   progress, or failed / cancelled with why).
 *
 * An id opens only the entries of the caller that made them (the same token, or server). One the
 * console never gave is a 404 "not found"; one it gave that History no longer holds (deleted, or
 * removed by its retention settings) is a 404 saying so.
 */
import { endpointOf } from '../../shared/contract/gateway.js';
import { contentBlocks, type CreateMessageParams, type SamplingContent, type SamplingMessage, type SamplingTool } from '../../shared/contract/sampling.js';
import { OPEN_STATUSES, type HistoryEntry } from '../../shared/contract/state.js';
import { readResponsesId } from './wire/ids.js';
import { answerItems, responseBody, type AnswerItem } from './wire/responses.js';
import type { EarlierLookup, GatewayReply, WireError } from './wire/types.js';

/** A History entry by id (null: none), at hand: the entries a call names, read beforehand ({@link prefetchEntries}). */
export type EntryOf = (id: string) => HistoryEntry | null;

/** A History entry by id, read from the store (null: none). */
export type ReadEntry = (id: string) => Promise<HistoryEntry | null>;

/**
 * The Responses ids a call's body names: its `previous_response_id` and the ids of its
 * `item_reference` input items (a body not in the API's shape names none; the codec says why).
 */
export function namedResponseIds(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const { previous_response_id: previous, input } = body as { previous_response_id?: unknown; input?: unknown };
  const ids = typeof previous === 'string' ? [previous] : [];
  if (Array.isArray(input)) {
    for (const item of input) {
      const { type, id } = (item ?? {}) as { type?: unknown; id?: unknown };
      if (type === 'item_reference' && typeof id === 'string') ids.push(id);
    }
  }
  return ids;
}

/**
 * Reads the History entries the Responses ids `ids` name (ids the console never gave are skipped),
 * so the codec can look them up synchronously while it translates the call.
 * @throws (rejects) what the store's read throws (e.g. History unavailable)
 */
export async function prefetchEntries(read: ReadEntry, ids: readonly string[]): Promise<EntryOf> {
  const itemIds = [...new Set(ids.map(readResponsesId).flatMap((ref) => (ref.kind === 'unknown' ? [] : [ref.itemId])))];
  const entries = new Map(await Promise.all(itemIds.map(async (itemId) => [itemId, await read(itemId)] as const)));
  return (itemId) => entries.get(itemId) ?? null;
}

const notFound = (message: string, param?: string): WireError => ({ status: 404, kind: 'not_found', message, ...(param && { param }) });

/** The entry a Responses id names for `serverId`'s caller, or the 404 to answer. */
function entryFor(entryOf: EntryOf, serverId: string, id: string, param?: string): { entry: HistoryEntry; index?: number } | WireError {
  const ref = readResponsesId(id);
  const never = notFound(`No response or item with id '${id}' was answered by the console's gateway to this caller.`, param);
  if (ref.kind === 'unknown') return never;
  const entry = entryOf(ref.itemId);
  if (!entry) return notFound(`'${id}' was answered by the console, but History no longer holds it (deleted, or removed by the retention settings); send the conversation as input instead.`, param);
  if (entry.serverId !== serverId || !entry.gateway || endpointOf(entry.gateway) !== 'responses') return never;
  return ref.kind === 'item' ? { entry, index: ref.index } : { entry };
}

/** An answer item as the assistant message it was. */
function messageOf(item: AnswerItem): SamplingMessage {
  return { role: 'assistant', content: [item.kind === 'message' ? { type: 'text', text: item.text } : item.call] };
}

/**
 * The lookup of earlier answers for a call of `serverId` (see the module doc): a response id → the
 * messages it was sent and its answer; an output item id → that item as an assistant message.
 */
export function earlierAnswers(entryOf: EntryOf, serverId: string): EarlierLookup {
  return (id, param) => {
    const found = entryFor(entryOf, serverId, id, param);
    if ('status' in found) return found;
    const { entry, index } = found;
    if (entry.status !== 'delivered' || !entry.delivered) return notFound(`'${id}' ended ${entry.status.replaceAll('_', ' ')} without an answer, so it cannot be continued.`, param);
    const items = answerItems(entry.delivered);
    if (index !== undefined) {
      const item = items[index];
      return item ? [messageOf(item)] : notFound(`Response '${id}' has no output item ${index}.`, param);
    }
    const sent = (entry.sent ?? entry.original) as CreateMessageParams;
    const answer: SamplingContent[] = items.flatMap((item) => contentBlocks(messageOf(item).content));
    return [...sent.messages, ...(answer.length > 0 ? [{ role: 'assistant' as const, content: answer }] : [])];
  };
}

/** The request fields a rebuilt response repeats: those History can tell. */
function echoOf(entry: HistoryEntry): Record<string, unknown> {
  const sent = (entry.sent ?? entry.original) as Partial<CreateMessageParams> | undefined;
  const tools = (sent?.tools ?? []).map((t: SamplingTool) => ({ type: 'function', name: t.name, description: t.description ?? null, parameters: t.inputSchema, strict: false }));
  return {
    tools,
    ...(sent?.maxTokens !== undefined && { max_output_tokens: sent.maxTokens }),
    ...(sent?.temperature !== undefined && { temperature: sent.temperature }),
    ...(entry.gateway?.previousResponseId && { previous_response_id: entry.gateway.previousResponseId }),
  };
}

/**
 * `GET /openai/v1/responses/{id}` for a caller of `serverId`: the response as the Responses API
 * shows it, rebuilt from History.
 * @returns the `response` body, or the 404 to answer
 */
export function storedResponse(entryOf: EntryOf, serverId: string, id: string): { body: Record<string, unknown> } | { error: WireError } {
  const found = entryFor(entryOf, serverId, id);
  if ('status' in found || found.index !== undefined) return { error: 'status' in found ? found : notFound(`No response with id '${id}'; that is an output item's id.`) };
  const { entry } = found;
  const created = Math.floor(entry.receivedAt / 1000);
  const model = entry.delivered?.model ?? entry.model ?? entry.gateway?.requestedModel ?? '';
  if (entry.status === 'delivered' && entry.delivered) {
    const reply: GatewayReply = { id, created, result: entry.delivered, ...(entry.usage && { usage: entry.usage }) };
    return { body: responseBody(reply, echoOf(entry)) };
  }
  const open = (OPEN_STATUSES as readonly string[]).includes(entry.status);
  const base = responseBody({ id, created, result: { role: 'assistant', content: [], model } }, echoOf(entry));
  if (open) return { body: { ...base, status: 'in_progress', completed_at: null, usage: null } };
  const cancelled = entry.status === 'cancelled' || entry.status === 'timed_out' || entry.status === 'interrupted';
  const message = entry.error ?? `ended ${entry.status.replaceAll('_', ' ')}`;
  return { body: { ...base, status: cancelled ? 'cancelled' : 'failed', usage: null, error: cancelled ? null : { code: 'server_error', message } } };
}
