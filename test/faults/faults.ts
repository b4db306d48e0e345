/**
 * The fault matrix's common part: the provider faults (each with what every door must answer
 * for it), a console whose one provider is a loopback OpenAI-compatible fake with short time
 * limits, the person's choices after a failure, and the checks every cell shares — History holds
 * the outcome, nothing is left waiting (no open item, the provider's HTTP request closed).
 */
import { expect } from 'vitest';
import type { ProviderFailureKind, ProviderTimeouts } from '../../shared/contract/providers.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { CreateMessageResult } from '../../shared/contract/sampling.js';
import type { HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import type { Script } from '../fixtures/wire-server.js';
import { seenVersion, startHarness, type Harness } from '../support/console-harness.js';

/** The provider's time limits in the matrix (short, so a cell takes about a second at most). */
export const LIMITS: ProviderTimeouts = { firstByteMs: 600, idleMs: 600, totalMs: 1500 };

/** How long a streamed gateway call may stay silent before a keep-alive (ms), in the matrix. */
export const KEEPALIVE_MS = 250;

/** The fake provider's models: the person may pick the other one after a failure. */
export const MODELS = ['loop-1', 'loop-2'] as const;

/** The fake provider's embedding model (an embeddings call is approved on a model the provider lists). */
export const EMBEDDING_MODEL = 'text-embedding-3-small';

/** One provider fault and what it must become at every door. */
export interface Fault {
  name: string;
  script: Script;
  /** The failure kind the person sees (`item.error.failure`) and a caller's `data.provider.kind`. */
  kind: ProviderFailureKind;
  /** The HTTP status the provider answered (absent: none — a timeout, a reset, a broken response). */
  providerStatus?: number;
  retryAfter?: number;
  /** The time limit broken, for a timeout. */
  phase?: 'first_byte' | 'idle' | 'total';
  /** The HTTP status a gateway caller gets. */
  gatewayStatus: number;
  /** Words the caller's error message holds. */
  words: RegExp;
  /** The provider's text reached a streamed gateway caller before the failure (it must then be an in-stream error). */
  textFirst: boolean;
}

const words20 = Array.from({ length: 20 }, (_, i) => `w${i} `);

/** Every fault of the matrix: 4xx, 401, 429 with retry-after, 5xx, three timeouts, reset, broken half-way, malformed JSON. */
export const FAULTS: Fault[] = [
  { name: '400', script: { error: { status: 400, message: 'max_tokens is too large for this model' } }, kind: 'bad-request', providerStatus: 400, gatewayStatus: 400, words: /400 Bad Request.*max_tokens is too large/, textFirst: false },
  { name: '401', script: { error: { status: 401, message: 'Incorrect API key provided' } }, kind: 'auth', providerStatus: 401, gatewayStatus: 401, words: /401 Unauthorized.*Incorrect API key provided/, textFirst: false },
  { name: '429 with retry-after', script: { error: { status: 429, retryAfter: 7, message: 'Rate limit reached' } }, kind: 'rate-limit', providerStatus: 429, retryAfter: 7, gatewayStatus: 429, words: /429 Too Many Requests.*retry after 7 s/, textFirst: false },
  { name: '500', script: { error: { status: 500, message: 'The server had an error' } }, kind: 'server', providerStatus: 500, gatewayStatus: 500, words: /500 Internal Server Error/, textFirst: false },
  { name: '503', script: { error: { status: 503, message: 'Service overloaded' } }, kind: 'server', providerStatus: 503, gatewayStatus: 503, words: /503 Service Unavailable/, textFirst: false },
  { name: 'timeout: first byte', script: { fault: 'stall-headers' }, kind: 'timeout', phase: 'first_byte', gatewayStatus: 504, words: /no response within 0\.6 s \(time to first byte\)/, textFirst: false },
  { name: 'timeout: idle', script: { fault: 'stall', text: 'a b c d e f' }, kind: 'timeout', phase: 'idle', gatewayStatus: 504, words: /nothing for 0\.6 s \(idle limit\)/, textFirst: true },
  { name: 'timeout: total', script: { chunks: words20, delayMs: 150 }, kind: 'timeout', phase: 'total', gatewayStatus: 504, words: /longer than 1\.5 s \(total deadline\)/, textFirst: true },
  { name: 'connection reset', script: { fault: 'reset' }, kind: 'network', gatewayStatus: 502, words: /closed the connection/, textFirst: false },
  { name: 'stream broken half-way', script: { fault: 'drop', text: 'a b c d e f' }, kind: 'network', gatewayStatus: 502, words: /connection was lost while the response was streaming/, textFirst: true },
  { name: 'malformed JSON', script: { fault: 'malformed', text: 'a b c d' }, kind: 'protocol', gatewayStatus: 502, words: /malformed response stream/, textFirst: true },
];

/** What the person does after seeing a failure: reject, write the response, or retry on the other model. */
export type Decision = 'reject' | 'write' | 'other_model';

/** The person's choice for the `i`-th fault: the three choices in turn, so each is made after several faults. */
export const decisionFor = (i: number): Decision => (['reject', 'write', 'other_model'] as const)[i % 3]!;

/** The text the person writes (decision `write`). */
export const WRITTEN = 'Written by the person after the provider failed.';
/** The fake provider's answer when nothing is scripted (decision `other_model`). */
export const RETRIED = 'Hello from the loopback server.';

/** A console with `servers` and the fake provider (both models, the matrix's limits). */
export interface FaultEnv {
  h: Harness;
  llm: OpenAICompatibleServer;
  close(): Promise<void>;
}

/** Starts the fake provider and a console using it. */
export async function startFaultEnv(opts: { servers?: Record<string, unknown>; env?: Record<string, string> } = {}): Promise<FaultEnv> {
  const llm = await startOpenAICompatibleServer({ models: [...MODELS] });
  let h: Harness | undefined;
  try {
    h = await startHarness({
      ...(opts.servers && { servers: opts.servers }),
      providers: { providers: [{ id: 'loopback', kind: 'openai-compatible', label: 'Loopback', baseURL: llm.baseURL, models: [...MODELS, EMBEDDING_MODEL], timeouts: LIMITS }], defaultProvider: 'loopback', defaultModel: 'loop-1' },
      env: { MCP_CONSOLE_GATEWAY_KEEPALIVE_MS: String(KEEPALIVE_MS), ...opts.env },
    });
    await h.ready;
  } catch (err) {
    await h?.dispose().catch(() => undefined);
    await llm.close();
    throw err;
  }
  const started = h;
  return {
    h: started,
    llm,
    async close() {
      await started.dispose();
      await llm.close();
    },
  };
}

/** Approves everything (request and response) of `serverIds` by rule; the others ask the person. */
export async function approveAllFor(h: Harness, serverIds: string[]): Promise<void> {
  const servers = Object.fromEntries(serverIds.map((id) => [id, { rules: [{ id: 'all', name: 'Everything', when: {}, action: { kind: 'approve_all' } }] }]));
  await h.service.saveRules({ rules: { version: 1, servers } as unknown as RulesFile });
}

/** Queues `fault` as the provider's next answer (on a fresh record of requests). */
export function arm(llm: OpenAICompatibleServer, fault: Fault): void {
  llm.reset();
  llm.script(fault.script);
}

/** Waits for a new item of `serverId` (not in `seen`) awaiting request review. */
export async function waitingItem(h: Harness, serverId: string, seen: Set<string>): Promise<SamplingItemView> {
  const pick = (items: SamplingItemView[]) => items.find((i) => i.serverId === serverId && !seen.has(i.id) && i.status === 'awaiting_request_review');
  const s = await h.waitFor((st) => pick(st.items) !== undefined, `a new request of ${serverId} in review`);
  return pick(s.items)!;
}

/** The ids of the items the console holds now (to tell a cell's item from earlier ones). */
export async function seenItems(h: Harness): Promise<Set<string>> {
  return new Set((await h.state()).items.map((i) => i.id));
}

/** Waits until `item` is back in request review with the failure shown, and checks its kind. */
export async function failureShown(h: Harness, item: SamplingItemView, fault: Fault): Promise<SamplingItemView> {
  const s = await h.waitFor((st) => {
    const now = st.items.find((i) => i.id === item.id);
    return now?.status === 'awaiting_request_review' && now.error !== undefined;
  }, `the failure of ${item.id} shown to the person`);
  const shown = s.items.find((i) => i.id === item.id)!;
  expect(shown.error).toMatchObject({ failure: fault.kind, message: expect.stringMatching(fault.words) });
  return shown;
}

/**
 * The person approves the request on the model it suggests (the provider fails with the armed
 * fault), sees the failure, then makes `decision`. Returns when the decision is made (the
 * response, for `other_model`, generated and approved — an embeddings call is delivered without
 * a response to review).
 */
export async function reviewThroughFailure(h: Harness, item: SamplingItemView, fault: Fault, decision: Decision): Promise<void> {
  await h.service.approveRequest({ itemId: item.id, version: await seenVersion(h, item.id), params: item.original, model: { providerId: 'loopback', modelId: item.model.modelId } });
  const failed = await failureShown(h, item, fault);
  if (decision === 'reject') return h.service.rejectRequest({ itemId: item.id, version: await seenVersion(h, item.id) });
  const model = decision === 'write' ? { providerId: 'manual', modelId: 'manual' } : { providerId: 'loopback', modelId: MODELS.find((m) => m !== failed.model.modelId)! };
  await h.service.approveRequest({ itemId: item.id, version: await seenVersion(h, item.id), params: failed.sent ?? failed.original, model });
  const s = await h.waitFor((st) => ['awaiting_response_review', 'delivered'].includes(st.items.find((i) => i.id === item.id)?.status ?? ''), `the response of ${item.id} to review`);
  if (s.items.find((i) => i.id === item.id)!.status === 'delivered') return;
  const draft = s.items.find((i) => i.id === item.id)!.response!.draft;
  const result: CreateMessageResult = decision === 'write' ? { role: 'assistant', content: { type: 'text', text: WRITTEN }, model: 'manual', stopReason: 'endTurn' } : draft;
  await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result });
}

/** The text a caller receives after `decision` (undefined: a rejection). */
export const answerText = (decision: Decision): string | undefined => (decision === 'write' ? WRITTEN : decision === 'other_model' ? RETRIED : undefined);

/** The history entry of the item `id`, once it has ended (polls until it is committed as ended). */
export async function endedEntry(h: Harness, id: string): Promise<HistoryEntry> {
  for (let i = 0; i < 200; i++) {
    const entry = await h.service.getHistoryEntry({ id });
    if (entry?.endedAt !== undefined) return entry;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`history entry ${id} did not end`);
}

/**
 * What History must hold for a cell: auto-approved → `failed` with the provider's error;
 * reviewed → the failure as an event, then the person's decision as the outcome.
 */
export function expectHistory(entry: HistoryEntry, fault: Fault, decision: Decision | 'auto'): void {
  const kinds = entry.events.map((e) => e.kind);
  expect(kinds).toContain('generation_failed');
  expect(entry.events.find((e) => e.kind === 'generation_failed')?.detail).toMatch(fault.words);
  if (decision === 'auto') {
    expect(entry).toMatchObject({ status: 'failed', decidedBy: 'rule', error: expect.stringMatching(fault.words), errorDetail: { code: -32052 } });
    return;
  }
  expect(entry).toMatchObject({ status: decision === 'reject' ? 'rejected' : 'delivered', decidedBy: 'person' });
}

/**
 * Nothing is left waiting: no open item in the queue, and every request the console made of the
 * provider in the cell has ended (a stalled one was closed by the console, not left hanging).
 */
export async function expectNothingWaiting(env: FaultEnv): Promise<void> {
  const s = await env.h.waitFor((st) => st.items.every((i) => i.outcome !== undefined), 'no open item');
  expect(s.items.filter((i) => !i.outcome)).toEqual([]);
  for (let i = 0; i < env.llm.requests.length; i++) expect(await env.llm.waitForOutcome(i, 5000)).toMatch(/completed|client-closed|fault/);
}
