/**
 * The default fixture state's servers (e2e/support/fixture-state.ts): a ready server-everything, a
 * server that failed to start (with stderr), one that is connecting; the calls made to them in every
 * status; and the servers agent hosts run through the console's bridge. Times relative to `now`.
 */
import type { BridgedServerView, CallView, ServerView } from '../../shared/contract/state.js';
import { PNG_B64 } from './fixture-content.js';

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

const call = (c: Partial<CallView> & Pick<CallView, 'id' | 'name' | 'status' | 'startedAt'>): CallView => ({
  serverId: 'everything',
  kind: 'tools/call',
  arguments: {},
  samplingItemIds: [],
  ...c,
});

/** The calls, in every status; times relative to `now`. */
export function buildCalls(now: number): CallView[] {
  const ago = (s: number) => now - s * 1000;
  return [
    call({ id: 'call-done', name: 'trigger-sampling-request', arguments: { prompt: 'Summarise the changelog', maxTokens: 100 }, status: 'succeeded', startedAt: ago(1200), endedAt: ago(790), samplingItemIds: ['item-delivered', 'item-rejected', 'gone-from-queue'], samplingItemCount: 140, result: { content: [{ type: 'text', text: 'LLM sampling result: v2.1 adds MRTR support.' }] } }),
    call({ id: 'call-echo', name: 'echo', arguments: { message: 'hello' }, status: 'succeeded', startedAt: ago(600), endedAt: ago(599), result: { content: [{ type: 'text', text: 'Echo: hello' }] } }),
    call({ id: 'call-image', name: 'get-tiny-image', status: 'succeeded', startedAt: ago(500), endedAt: ago(499), result: { content: [{ type: 'text', text: 'This is a tiny image:' }, { type: 'image', data: PNG_B64, mimeType: 'image/png' }] } }),
    call({ id: 'call-tool-error', name: 'get-sum', arguments: { a: 1, b: 'x' }, status: 'succeeded', startedAt: ago(400), endedAt: ago(399), result: { content: [{ type: 'text', text: 'Invalid arguments: b must be a number' }], isError: true } }),
    call({ id: 'call-failed', name: 'long-running-operation', arguments: { duration: 600 }, status: 'failed', startedAt: ago(300), endedAt: ago(240), error: { message: 'Request timed out', code: -32001 } }),
    call({ id: 'call-sampling', name: 'trigger-sampling-request', arguments: { prompt: 'Weekly report', maxTokens: 400 }, status: 'running', startedAt: ago(210), samplingItemIds: ['item-request', 'item-request-2', 'item-generating', 'item-response', 'item-manual'] }),
  ];
}

/** The configured servers: ready, failed to start, connecting. */
export function buildServers(): ServerView[] {
  return [
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
}

/**
 * Servers through the bridge: a stdio server with a root the console offers it; an HTTP server whose
 * sign-in (the console's OAuth) failed; one whose bridge ended because it needs sign-in.
 */
export function buildBridged(now: number): BridgedServerView[] {
  const ago = (s: number) => now - s * 1000;
  return [
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
  ];
}
