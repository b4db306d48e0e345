/**
 * A realistic {@link ConsoleState} for UI specs that run against a fake `window.api`: a ready
 * server-everything, a server that failed to start (with stderr), one that is connecting; calls in
 * every status; one sampling item in every status; manual + openai-compatible providers; a
 * message with Markdown and hostile HTML that the sanitiser must defuse; the provider gateway.
 */
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { ConsoleState, ElicitationItemView, ProviderView, SamplingItemView } from '../../shared/contract/state.js';
import { said, ui } from '../../shared/contract/ui-text.js';
import { PNG_B64, WAV_B64 } from './fixture-content.js';
import { buildGatewayView } from './fixture-gateway.js';
import { buildQueueItems } from './fixture-queue.js';
import { buildBridged, buildCalls, buildServers } from './fixture-servers.js';

export { HOSTILE_IMG, HOSTILE_SCRIPT, MARKDOWN_PROMPT, PNG_B64, WAV_B64 } from './fixture-content.js';

/** Providers: the manual one and two openai-compatible ones. */
export const PROVIDERS: ProviderView[] = [
  { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false },
  { id: 'ollama', kind: 'openai-compatible', label: 'Local Ollama', baseURL: 'http://127.0.0.1:11434/v1', models: ['llama3.2', 'qwen2.5:7b'], hasApiKey: false },
  {
    id: 'openrouter',
    kind: 'openai-compatible',
    label: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api/v1',
    models: ['openai/gpt-4o-mini', 'anthropic/claude-3.5-sonnet'],
    hasApiKey: true,
  },
];

/**
 * A fixture's state as specs write it: the items whole (sampling items in `items`, elicitations in
 * `elicitations`); the fake API serves their summaries in the state and each whole on `getItem`
 * (e2e/support/fake-api.ts `toWire`).
 */
export type FixtureState = Omit<ConsoleState, 'items'> & { items: SamplingItemView[]; elicitations?: ElicitationItemView[] };

/**
 * Adds to `state` a request `id` waiting for review (like the fixture's `item-request-2`: the same
 * server and tool call), asking `messages` with maxTokens 100, received a second ago.
 */
export function withWaitingRequest(state: { items: SamplingItemView[] }, id: string, messages: CreateMessageParams['messages']): void {
  const base = state.items.find((i) => i.id === 'item-request-2')!;
  const at = Date.now() - 1000;
  state.items.push({ ...base, sent: undefined, error: undefined, association: { exact: true, calls: [base.association.calls[0]!] }, id, conversationId: id, receivedAt: at, updatedAt: at, original: { messages, maxTokens: 100 } });
}

/** The fixture state, with times relative to `now`. */
export function buildFixtureState(now: number): FixtureState {
  const ago = (s: number) => now - s * 1000;
  return {
    version: 42,
    servers: buildServers(),
    calls: buildCalls(now),
    items: buildQueueItems(now),
    providers: PROVIDERS,
    bridged: buildBridged(now),
    gateway: buildGatewayView(now),
    // As main words it: its own sentence as a code; the file's problem (a parser's words) as data.
    notices: [{ id: 'notice-1', level: 'error', ...said(ui('notice.configKept', { problem: 'mcp-servers.json: servers.broken-python.command: Command is required' })), at: ago(50) }],
    settings: {
      host: 'test',
      userDataDir: '/home/user/.config/mcp-approval-console',
      serversConfigPath: '/home/user/.config/mcp-approval-console/servers.json',
      providersConfigPath: '/home/user/.config/mcp-approval-console/providers.json',
      historyPath: '/home/user/.config/mcp-approval-console/history.db',
    },
  };
}

/** Tools offered in the tool-loop fixtures (as the sampling fixture server offers them). */
export const LOOP_TOOLS = [
  { name: 'get_weather', description: 'Current weather for a city.', inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'get_time', description: 'Current local time in an IANA time zone.', inputSchema: { type: 'object' as const, properties: { zone: { type: 'string' } }, required: ['zone'] } },
];

/**
 * Extra items for the sampling editor specs (not in the default state, so other specs' counts hold):
 * a media request, a two-round tool loop on the 2026-07-28 era (round 1 delivered with parallel
 * tool_use, round 2 awaiting review), a generated response with tool_use blocks, and a hand-written
 * response to a request that offers tools.
 */
export function buildSamplingItems(now: number): SamplingItemView[] {
  const ago = (s: number) => now - s * 1000;
  const model = { providerId: 'ollama', modelId: 'llama3.2', reason: 'no hint matched; default model' };
  const assoc = (name: string) => ({ exact: true, calls: [{ callId: `call-${name}`, kind: 'tools/call' as const, name }] });
  const uses = [
    { type: 'tool_use' as const, id: 'toolu_w', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use' as const, id: 'toolu_t', name: 'get_time', input: { zone: 'Asia/Tokyo' } },
  ];
  const ask = { role: 'user' as const, content: { type: 'text' as const, text: 'What is the weather in Paris and the local time in Tokyo?' } };
  const round1: CreateMessageParams = { messages: [ask], maxTokens: 300, tools: LOOP_TOOLS, toolChoice: { mode: 'auto' } };
  const round2: CreateMessageParams = {
    messages: [
      ask,
      { role: 'assistant', content: uses },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'toolu_w', content: [{ type: 'text', text: '{"city":"Paris","tempC":18,"sky":"cloudy"}' }] },
          { type: 'tool_result', toolUseId: 'toolu_t', content: [{ type: 'text', text: 'zone database unavailable' }], isError: true },
        ],
      },
    ],
    maxTokens: 300,
    includeContext: 'thisServer',
    tools: LOOP_TOOLS,
    toolChoice: { mode: 'none' },
  };
  const base = { origin: 'server' as const, serverId: 'everything', model };
  const toolAnswer: CreateMessageResult = { role: 'assistant', content: [{ type: 'text', text: 'Let me look both up.' }, ...uses], model: 'llama3.2', stopReason: 'toolUse' };
  return [
    {
      ...base,
      id: 'media-request',
      conversationId: 'media-request',
      round: 1,
      era: 'legacy',
      association: assoc('ask-image'),
      status: 'awaiting_request_review',
      receivedAt: ago(20),
      updatedAt: ago(20),
      original: {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Describe the picture and the clip.' }, { type: 'image', data: PNG_B64, mimeType: 'image/png' }] },
          { role: 'user', content: { type: 'audio', data: WAV_B64, mimeType: 'audio/wav' } },
        ],
        maxTokens: 120,
      },
    },
    { ...base, id: 'loop-r1', conversationId: 'conv-loop', round: 1, era: 'modern', association: assoc('tool-loop'), status: 'delivered', receivedAt: ago(90), updatedAt: ago(60), original: round1, sent: round1, response: { generated: toolAnswer, draft: { ...toolAnswer, content: uses }, manual: false, generatedAt: ago(70) }, outcome: { at: ago(60), message: 'Delivered to the server' } },
    { ...base, id: 'loop-r2', conversationId: 'conv-loop', round: 2, era: 'modern', association: assoc('tool-loop'), status: 'awaiting_request_review', receivedAt: ago(50), updatedAt: ago(50), original: round2 },
    { ...base, id: 'tool-response', conversationId: 'tool-response', round: 1, era: 'legacy', association: assoc('tool-loop'), status: 'awaiting_response_review', receivedAt: ago(40), updatedAt: ago(10), original: round1, sent: round1, response: { generated: toolAnswer, draft: toolAnswer, manual: false, finishReason: 'tool-calls', generatedAt: ago(10) } },
    { ...base, id: 'manual-tools', conversationId: 'manual-tools', round: 1, era: 'legacy', association: assoc('tool-loop'), status: 'awaiting_response_review', receivedAt: ago(30), updatedAt: ago(5), original: round1, sent: round1, model: { providerId: 'manual', modelId: 'manual', reason: 'chosen by you', overridden: true }, response: { draft: { role: 'assistant', content: { type: 'text', text: '' }, model: 'manual', stopReason: 'endTurn' }, manual: true, generatedAt: ago(5) } },
  ];
}
