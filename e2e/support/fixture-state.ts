/**
 * A realistic {@link ConsoleState} for UI specs that run against a fake `window.api`: a ready
 * server-everything, a server that failed to start (with stderr), one that is connecting; calls in
 * every status; one sampling item in every status; manual + openai-compatible providers; a
 * message with Markdown and hostile HTML that the sanitiser must defuse; the provider gateway.
 */
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { CallView, ConsoleState, ElicitationItemView, ProviderView, SamplingItemView, ServerView } from '../../shared/contract/state.js';
import { because, said, ui } from '../../shared/contract/ui-text.js';
import { buildGatewayView } from './fixture-gateway.js';

/** A 32×32 PNG (blue/amber checkerboard). */
export const PNG_B64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAOklEQVR42mNQCT+KFT1dyIAVkaqeYdSCUQuGgAXUMgiX+lELRi0YChaMFhWjFoxaMFofjFowagEQAQBMrYxMDiD0JQAAAABJRU5ErkJggg==';
/** A 50 ms 8-bit WAV. */
export const WAV_B64 =
  'UklGRrQBAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YZABAABYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKio';

/** The hostile line inside the first request; it must show as text and never run. */
export const HOSTILE_IMG = '<img src=x onerror="window.__xss = 1">';
/** A script tag inside the same request; it must show as text and never run. */
export const HOSTILE_SCRIPT = '<script>window.__xss = 2</script>';

/** Markdown the first request carries (rendered as Markdown, hostile HTML shown as text). */
export const MARKDOWN_PROMPT = [
  '# Weekly report',
  'Summarise the **three** open incidents for the on-call engineer:',
  '',
  '- INC-101 database failover took `42 s`',
  '- INC-102 elevated 5xx on /checkout',
  '- INC-103 certificate expires Friday',
  '',
  HOSTILE_IMG,
  '',
  HOSTILE_SCRIPT,
  '',
  'See the [runbook](https://example.com/runbook) before answering.',
].join('\n');

const SERVER_EVERYTHING_TOOLS: ServerView['tools'] = [
  {
    name: 'echo',
    description: 'Echoes back the input string.',
    inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] },
  },
  {
    name: 'get-sum',
    description: 'Returns the sum of two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      required: ['a', 'b'],
    },
  },
  {
    name: 'trigger-sampling-request',
    description: "Trigger a Request from the Server for LLM Sampling: the server asks the client's model for a completion.",
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The prompt to send to the LLM' },
        maxTokens: { type: 'integer', description: 'Maximum number of tokens to generate', default: 100 },
      },
      required: ['prompt'],
    },
  },
  {
    name: 'get-annotated-message',
    description: 'Demonstrates how annotations can be used to provide metadata about content.',
    inputSchema: {
      type: 'object',
      properties: {
        messageType: { type: 'string', enum: ['error', 'success', 'debug'], description: 'Type of message to demonstrate' },
        includeImage: { type: 'boolean', default: false, description: 'Whether to include an example image' },
      },
      required: ['messageType'],
    },
  },
  { name: 'get-tiny-image', description: 'Returns a tiny MCP logo image.', inputSchema: { type: 'object', properties: {} } },
];

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

const call = (c: Partial<CallView> & Pick<CallView, 'id' | 'name' | 'status' | 'startedAt'>): CallView => ({
  serverId: 'everything',
  kind: 'tools/call',
  arguments: {},
  samplingItemIds: [],
  ...c,
});

const params = (text: string, extra: Partial<CreateMessageParams> = {}): CreateMessageParams => ({
  messages: [{ role: 'user', content: { type: 'text', text } }],
  maxTokens: 100,
  ...extra,
});

const result = (text: string, model: string, stopReason = 'endTurn'): CreateMessageResult => ({
  role: 'assistant',
  content: { type: 'text', text },
  model,
  stopReason,
});

/** The fixture state, with times relative to `now`. */
/**
 * A fixture's state as specs write it: the items whole (sampling items in `items`, elicitations in
 * `elicitations`); the fake API serves their summaries in the state and each whole on `getItem`
 * (e2e/support/fake-api.ts `toWire`).
 */
export type FixtureState = Omit<ConsoleState, 'items'> & { items: SamplingItemView[]; elicitations?: ElicitationItemView[] };

export function buildFixtureState(now: number): FixtureState {
  const ago = (s: number) => now - s * 1000;
  // Reasons and outcomes as main sends them: English for logs, and the message code the renderer translates.
  const chosen = { providerId: 'openrouter', modelId: 'openai/gpt-4o-mini', ...because(ui('model.hintMatched', { hint: 'gpt-4o', model: 'openai/gpt-4o-mini' })) };
  const assoc = (callId: string) => ({ exact: true, calls: [{ callId, kind: 'tools/call' as const, name: 'trigger-sampling-request' }] });
  const base = { era: 'legacy' as const, model: chosen };

  const firstRequest: CreateMessageParams = {
    messages: [
      { role: 'user', content: [{ type: 'text', text: MARKDOWN_PROMPT }, { type: 'image', data: PNG_B64, mimeType: 'image/png' }] },
    ],
    systemPrompt: 'You are a concise incident analyst.',
    maxTokens: 400,
    temperature: 0.7,
    stopSequences: ['END'],
    metadata: { requestSource: 'weekly-report' },
    includeContext: 'none',
    modelPreferences: { hints: [{ name: 'gpt-4o' }, { name: 'claude-3-sonnet' }], costPriority: 0.3, speedPriority: 0.5, intelligencePriority: 0.8 },
  };
  const toolLoop: CreateMessageParams = {
    messages: [
      { role: 'user', content: { type: 'text', text: 'What is the weather in Paris? Also listen to this clip.' } },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris', units: 'metric' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'toolu_01', content: [{ type: 'text', text: 'HTTP 503 from weather API' }], isError: true }],
      },
      { role: 'user', content: { type: 'audio', data: WAV_B64, mimeType: 'audio/wav' } },
    ],
    maxTokens: 256,
    tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: { type: 'object' } }],
    toolChoice: { mode: 'auto' },
  };

  const items: SamplingItemView[] = [
    {
      ...base,
      id: 'item-request',
      conversationId: 'item-request',
      origin: 'server',
      round: 1,
      serverId: 'everything',
      association: assoc('call-sampling'),
      status: 'awaiting_request_review',
      receivedAt: ago(75),
      updatedAt: ago(75),
      original: firstRequest,
    },
    {
      ...base,
      id: 'item-request-2',
      conversationId: 'item-request-2',
      origin: 'server',
      round: 1,
      serverId: 'everything',
      via: { host: 'claude-ai', version: '0.14.2' },
      association: {
        exact: false,
        calls: [
          { callId: 'call-sampling', kind: 'tools/call', name: 'trigger-sampling-request' },
          { callId: 'call-long', kind: 'tools/call', name: 'long-running-operation' },
        ],
      },
      status: 'awaiting_request_review',
      receivedAt: ago(40),
      updatedAt: ago(5),
      original: toolLoop,
      sent: toolLoop,
      model: {
        providerId: 'ollama',
        modelId: 'llama3.2',
        ...because(
          ui('model.priorityBest', {
            none: ui('model.noHints'),
            priority: 'costPriority',
            value: 0.9,
            label: ui('model.cheapest'),
            scope: ui('model.scopeConfigured'),
            tiers: ui('model.tiers', { cost: 1, speed: 3, intelligence: 2 }),
          }),
        ),
      },
      error: { message: 'Local Ollama: HTTP 429 Too Many Requests (rate limited, retry after 20 s)', at: ago(5), failure: 'rate-limit' },
    },
    {
      ...base,
      id: 'item-generating',
      conversationId: 'item-generating',
      origin: 'server',
      round: 1,
      serverId: 'everything',
      association: assoc('call-sampling'),
      status: 'generating',
      receivedAt: ago(30),
      updatedAt: ago(2),
      original: params('Write a haiku about on-call rotations.'),
      sent: params('Write a haiku about on-call rotations.'),
      generation: { startedAt: ago(12), text: 'Pager hums at night,\ncoffee cools beside the logs' },
    },
    {
      ...base,
      id: 'item-response',
      conversationId: 'item-response',
      origin: 'server',
      round: 1,
      serverId: 'everything',
      association: assoc('call-sampling'),
      status: 'awaiting_response_review',
      receivedAt: ago(120),
      updatedAt: ago(20),
      original: params('Name the capital of France in one word.'),
      sent: params('Name the capital of France in one word.'),
      response: {
        generated: result('**Paris** is the capital of France.', 'openai/gpt-4o-mini'),
        draft: result('**Paris** is the capital of France.', 'openai/gpt-4o-mini'),
        manual: false,
        usage: { inputTokens: 18, outputTokens: 9 },
        finishReason: 'stop',
        generatedAt: ago(20),
      },
    },
    {
      ...base,
      id: 'item-manual',
      conversationId: 'item-manual',
      origin: 'server',
      round: 1,
      serverId: 'everything',
      association: assoc('call-sampling'),
      status: 'awaiting_response_review',
      receivedAt: ago(200),
      updatedAt: ago(60),
      original: params('Reply with the deploy password.'),
      sent: params('Reply with the deploy password.'),
      model: { providerId: 'manual', modelId: 'manual', ...because(ui('model.chosenByPerson', { suggested: 'openai/gpt-4o-mini' })), overridden: true },
      response: { draft: result('', 'manual'), manual: true, generatedAt: ago(60) },
    },
    ...(
      [
        ['item-delivered', 'delivered', ui('outcome.delivered'), undefined],
        ['item-rejected', 'rejected', ui('outcome.rejectedWhy', { reason: 'not relevant' }), -1],
        ['item-cancelled', 'cancelled', ui('outcome.serverCancelled'), undefined],
        ['item-timed-out', 'timed_out', ui('outcome.serverTimeout'), -1],
        ['item-failed', 'failed', ui('outcome.connectionClosed'), undefined],
      ] as const
    ).map(
      ([id, status, why, code], n): SamplingItemView => ({
        ...base,
        id,
        conversationId: id,
        origin: 'server',
        round: 1,
        serverId: 'everything',
        association: assoc('call-done'),
        status,
        receivedAt: ago(900 + n * 60),
        updatedAt: ago(800 + n * 60),
        original: params(`Finished request number ${n + 1}: summarise the changelog.`),
        sent: status === 'delivered' ? params(`Finished request number ${n + 1}: summarise the changelog briefly.`) : undefined,
        response:
          status === 'delivered'
            ? { generated: result('v2.1 adds MRTR.', 'openai/gpt-4o-mini'), draft: result('v2.1 adds MRTR support.', 'openai/gpt-4o-mini'), manual: false, generatedAt: ago(820) }
            : undefined,
        outcome: { at: ago(800 + n * 60), ...said(why), code },
      }),
    ),
  ];

  const calls: CallView[] = [
    call({ id: 'call-done', name: 'trigger-sampling-request', arguments: { prompt: 'Summarise the changelog', maxTokens: 100 }, status: 'succeeded', startedAt: ago(1200), endedAt: ago(790), samplingItemIds: ['item-delivered', 'item-rejected', 'gone-from-queue'], result: { content: [{ type: 'text', text: 'LLM sampling result: v2.1 adds MRTR support.' }] } }),
    call({ id: 'call-echo', name: 'echo', arguments: { message: 'hello' }, status: 'succeeded', startedAt: ago(600), endedAt: ago(599), result: { content: [{ type: 'text', text: 'Echo: hello' }] } }),
    call({ id: 'call-image', name: 'get-tiny-image', status: 'succeeded', startedAt: ago(500), endedAt: ago(499), result: { content: [{ type: 'text', text: 'This is a tiny image:' }, { type: 'image', data: PNG_B64, mimeType: 'image/png' }] } }),
    call({ id: 'call-tool-error', name: 'get-sum', arguments: { a: 1, b: 'x' }, status: 'succeeded', startedAt: ago(400), endedAt: ago(399), result: { content: [{ type: 'text', text: 'Invalid arguments: b must be a number' }], isError: true } }),
    call({ id: 'call-failed', name: 'long-running-operation', arguments: { duration: 600 }, status: 'failed', startedAt: ago(300), endedAt: ago(240), error: { message: 'Request timed out', code: -32001 } }),
    call({ id: 'call-sampling', name: 'trigger-sampling-request', arguments: { prompt: 'Weekly report', maxTokens: 400 }, status: 'running', startedAt: ago(210), samplingItemIds: ['item-request', 'item-request-2', 'item-generating', 'item-response', 'item-manual'] }),
  ];

  const servers: ServerView[] = [
    {
      id: 'everything',
      transport: 'stdio',
      target: 'node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio',
      status: 'ready',
      stderrTail: ['Starting default (STDIO) server...'],
      tools: SERVER_EVERYTHING_TOOLS,
      protocolVersion: '2025-11-25',
      era: 'legacy',
      serverInfo: { name: 'mcp-servers/everything', version: '2026.8.31', title: 'Everything Reference Server' },
      inFlight: 1,
    },
    {
      id: 'broken-python',
      transport: 'stdio',
      target: 'python3 -m weather_server --port 0',
      status: 'error',
      error: 'Process exited with code 1 before initialize completed',
      stderrTail: [
        'Traceback (most recent call last):',
        '  File "/usr/lib/python3.12/runpy.py", line 198, in _run_module_as_main',
        '  File "/srv/weather_server/__main__.py", line 4, in <module>',
        '    import httpx',
        "ModuleNotFoundError: No module named 'httpx'",
      ],
      tools: [],
      inFlight: 0,
    },
    { id: 'remote-docs', transport: 'http', target: 'https://docs.example.com/mcp', status: 'connecting', stderrTail: [], tools: [], inFlight: 0 },
  ];

  return {
    version: 42,
    servers,
    calls,
    items,
    providers: PROVIDERS,
    // As main words it: its own sentence as a code; the file's problem (a parser's words) as data.
    // Through the bridge: a stdio server with a root the console offers it; an HTTP server whose
    // sign-in (the console's OAuth) failed; one whose bridge ended because it needs sign-in.
    bridged: [
      {
        serverId: 'notes',
        via: { host: 'claude-ai', version: '0.14.2' },
        since: ago(600),
        pending: 1,
        roots: [{ uri: 'file:///home/user/notes', name: 'notes' }],
        calls: [
          { callId: 'h-2', kind: 'tools/call', name: 'summarize_note', args: 'id: "n-42"', startedAt: ago(20) },
          { callId: 'h-1', kind: 'tools/call', name: 'search_notes', args: 'query: "budget"', startedAt: ago(90), endedAt: ago(88) },
        ],
      },
      { serverId: 'wiki', via: { host: 'cursor-vscode', version: '1.0.0' }, since: ago(300), pending: 0, roots: [], auth: { status: 'signed_out', error: 'invalid_grant: refresh token expired' } },
      { serverId: 'calendar', since: ago(120), pending: 0, auth: { status: 'signed_out' }, disconnected: true },
    ],
    gateway: buildGatewayView(now),
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
