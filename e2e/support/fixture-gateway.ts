/**
 * Provider-gateway fixtures for UI specs: the `gateway` slice main publishes (listening, both base
 * URLs, one server launched with it, two named tokens), and — not in the default state, so other
 * specs' counts hold — provider calls as queue items (an OpenAI call from a server while two tool
 * calls ran, an Anthropic call with a named token, an OpenAI call from a server outside any call)
 * and a history entry of a token's call.
 */
import { detailed, type HistoryEntry, type SamplingItemView } from '../../shared/contract/state.js';
import type { GatewayView } from '../../shared/contract/gateway.js';
import { because, ui } from '../../shared/contract/ui-text.js';

/** The port the fixture's gateway listens on. */
export const GATEWAY_URL = 'http://127.0.0.1:41555';

/** The gateway slice, times relative to `now`. */
export function buildGatewayView(now: number): GatewayView {
  const ago = (s: number) => now - s * 1000;
  return {
    listening: true,
    url: GATEWAY_URL,
    openaiBaseUrl: `${GATEWAY_URL}/openai/v1`,
    anthropicBaseUrl: `${GATEWAY_URL}/anthropic`,
    servers: ['everything'],
    tokens: [
      { name: 'ci-script', createdAt: ago(3 * 86_400), calls: 12, lastUsedAt: ago(300) },
      { name: 'notebook', createdAt: ago(3600), calls: 0 },
    ],
  };
}

/** Provider calls waiting for review (ids `gw-server`, `gw-token`, `gw-nocall`). */
export function buildGatewayItems(now: number): SamplingItemView[] {
  const ago = (s: number) => now - s * 1000;
  // As main words it: no configured model matched the hint the requested model became.
  const model = (hint: string) => ({ providerId: 'ollama', modelId: 'llama3.2', ...because(ui('model.noHintMatch', { scope: ui('model.scopeConfigured'), hint })) });
  const base = { origin: 'server' as const, round: 1, era: 'legacy' as const, status: 'awaiting_request_review' as const };
  return [
    {
      ...base,
      id: 'gw-server',
      conversationId: 'gw-server',
      model: model('gpt-4o-mini'),
      serverId: 'everything',
      gateway: { api: 'openai', requestedModel: 'gpt-4o-mini', stream: true, caller: { kind: 'server' }, ignored: ['top_p', 'seed', 'logit_bias'] },
      association: {
        exact: false,
        calls: [
          { callId: 'call-sampling', kind: 'tools/call', name: 'trigger-sampling-request' },
          { callId: 'call-long', kind: 'tools/call', name: 'long-running-operation' },
        ],
      },
      receivedAt: ago(15),
      updatedAt: ago(15),
      original: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Classify this ticket: the checkout page times out.' } }],
        systemPrompt: 'You triage support tickets.',
        maxTokens: 64,
        temperature: 0,
        modelPreferences: { hints: [{ name: 'gpt-4o-mini' }] },
      },
    },
    {
      ...base,
      id: 'gw-token',
      conversationId: 'gw-token',
      model: model('claude-sonnet-4-5'),
      serverId: 'gateway:ci-script',
      gateway: { api: 'anthropic', requestedModel: 'claude-sonnet-4-5', stream: false, caller: { kind: 'token', name: 'ci-script' } },
      association: { exact: true, calls: [] },
      receivedAt: ago(10),
      updatedAt: ago(10),
      original: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Write the release note for build 1482.' } }],
        maxTokens: 512,
        modelPreferences: { hints: [{ name: 'claude-sonnet-4-5' }] },
      },
    },
    {
      ...base,
      id: 'gw-nocall',
      conversationId: 'gw-nocall',
      model: model('gpt-4.1'),
      serverId: 'everything',
      gateway: { api: 'openai', requestedModel: 'gpt-4.1', stream: false, caller: { kind: 'server' } },
      association: { exact: false, calls: [] },
      receivedAt: ago(5),
      updatedAt: ago(5),
      original: { messages: [{ role: 'user', content: { type: 'text', text: 'Heartbeat: say ok.' } }], maxTokens: 8 },
    },
  ];
}

/**
 * Calls agent frameworks make (ids `gw-responses`, `gw-embeddings`, `gw-moved`): a Responses call
 * continuing an earlier response, an embeddings call of three texts, an Anthropic call whose
 * system message after the first turn was moved into the system prompt.
 */
export function buildAgentGatewayItems(now: number): SamplingItemView[] {
  const ago = (s: number) => now - s * 1000;
  const base = { origin: 'server' as const, round: 1, era: 'legacy' as const, status: 'awaiting_request_review' as const, association: { exact: true, calls: [] }, receivedAt: ago(4), updatedAt: ago(4) };
  const caller = { kind: 'token' as const, name: 'agents' };
  const text = (t: string) => [{ type: 'text' as const, text: t }];
  return [
    {
      ...base,
      id: 'gw-responses',
      conversationId: 'gw-responses',
      serverId: 'gateway:agents',
      model: { providerId: 'openai', modelId: 'gpt-4.1', ...because(ui('model.hintMatched', { hint: 'gpt-4.1', model: 'gpt-4.1' })) },
      gateway: { api: 'openai', endpoint: 'responses', requestedModel: 'gpt-4.1', stream: true, caller, previousResponseId: 'resp_7c1d0e5a9b2f4c3d8e6f1a2b3c4d5e6f0a1b2c3d', ignored: ['parallel_tool_calls', 'include'] },
      original: {
        messages: [
          { role: 'user', content: text('Which tickets mention the checkout timeout?') },
          { role: 'assistant', content: text('Tickets 1480 and 1482.') },
          { role: 'user', content: text('Draft a reply to both.') },
        ],
        systemPrompt: 'You answer support tickets.',
        maxTokens: 1024,
        modelPreferences: { hints: [{ name: 'gpt-4.1' }] },
      },
    },
    {
      ...base,
      id: 'gw-embeddings',
      conversationId: 'gw-embeddings',
      serverId: 'gateway:agents',
      model: { providerId: 'openai', modelId: 'text-embedding-3-small', ...because(ui('model.embeddingListed', { model: 'text-embedding-3-small', provider: 'OpenAI' })) },
      gateway: { api: 'openai', endpoint: 'embeddings', requestedModel: 'text-embedding-3-small', stream: false, caller, embeddings: { inputs: 3, dimensions: 256 } },
      original: {
        messages: ['The checkout page times out.', 'Refund requested for order 5521.', 'Password reset mail never arrives.'].map((t) => ({ role: 'user' as const, content: text(t) })),
        maxTokens: 1,
        modelPreferences: { hints: [{ name: 'text-embedding-3-small' }] },
      },
    },
    {
      ...base,
      id: 'gw-moved',
      conversationId: 'gw-moved',
      serverId: 'gateway:agents',
      model: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5', ...because(ui('model.hintMatched', { hint: 'claude-sonnet-4-5', model: 'claude-sonnet-4-5' })) },
      gateway: { api: 'anthropic', endpoint: 'messages', requestedModel: 'claude-sonnet-4-5', stream: true, caller, movedToSystem: ['messages[2]'], ignored: ['thinking', 'messages[0].content[0].cache_control', 'anthropic-beta (interleaved-thinking-2025-05-14)'] },
      original: {
        messages: [
          { role: 'user', content: text('List the files.') },
          { role: 'assistant', content: text('Which folder?') },
          { role: 'user', content: text('The current one.') },
        ],
        systemPrompt: 'You are a coding agent.\n\nThe working directory is /srv/app.',
        maxTokens: 4096,
        modelPreferences: { hints: [{ name: 'claude-sonnet-4-5' }] },
      },
    },
  ];
}

/** A delivered call of the `ci-script` token, as History keeps it (id `h-gateway`). */
export function buildGatewayHistoryEntry(now: number): HistoryEntry {
  const ago = (s: number) => now - s * 1000;
  const request = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Write the release note for build 1481.' } }], maxTokens: 512 };
  return {
    id: 'h-gateway',
    kind: 'provider_call',
    conversationId: 'h-gateway',
    serverId: 'gateway:ci-script',
    gateway: { api: 'anthropic', requestedModel: 'claude-sonnet-4-5', stream: true, caller: { kind: 'token', name: 'ci-script' }, ignored: ['top_k'] },
    status: 'delivered',
    decidedBy: 'person',
    receivedAt: ago(600),
    endedAt: ago(580),
    model: 'llama3.2',
    providerId: 'ollama',
    edited: false,
    preview: 'Write the release note for build 1481.',
    original: request,
    sent: request,
    generated: { role: 'assistant', content: { type: 'text', text: 'Build 1481 fixes the checkout timeout.' }, model: 'llama3.2', stopReason: 'endTurn' },
    delivered: { role: 'assistant', content: { type: 'text', text: 'Build 1481 fixes the checkout timeout.' }, model: 'llama3.2', stopReason: 'endTurn' },
    timings: { reviewMs: 15_000, generationMs: 1_200, totalMs: 20_000 },
    events: [
      { at: ago(600), kind: 'received' },
      { at: ago(585), kind: 'request_approved' },
      { at: ago(580), kind: 'delivered', ...detailed(ui('outcome.delivered')) },
    ],
  };
}
