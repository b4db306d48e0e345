/**
 * The default fixture state's queue (e2e/support/fixture-state.ts): one sampling item in every
 * status, times relative to `now`. The first request carries Markdown with hostile HTML and an
 * image; the second a tool loop with audio, through the bridge, with a rate-limit error.
 */
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { because, said, ui } from '../../shared/contract/ui-text.js';
import { MARKDOWN_PROMPT, PNG_B64, WAV_B64, params, result } from './fixture-content.js';

/** What the queue's items share: times relative to `now`, the era and model chosen, a call they belong to. */
function queueContext(now: number) {
  const ago = (s: number) => now - s * 1000;
  // Reasons and outcomes as main sends them: English for logs, and the message code the renderer translates.
  const chosen = { providerId: 'openrouter', modelId: 'openai/gpt-4o-mini', ...because(ui('model.hintMatched', { hint: 'gpt-4o', model: 'openai/gpt-4o-mini' })) };
  const assoc = (callId: string) => ({ exact: true, calls: [{ callId, kind: 'tools/call' as const, name: 'trigger-sampling-request' }] });
  const base = { era: 'legacy' as const, model: chosen };
  return { ago, assoc, base };
}

type QueueContext = ReturnType<typeof queueContext>;

/** The first request: Markdown with hostile HTML, an image, and every optional param. */
function firstRequest(): CreateMessageParams {
  return {
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
}

/** A tool loop's follow-up: a failed tool result, then audio. */
function toolLoopRequest(): CreateMessageParams {
  return {
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
}

/** The two requests awaiting review: one of a known call, and one through the bridge that may belong to two calls, with a provider's rate-limit error. */
function requestReviewItems({ ago, assoc, base }: QueueContext): SamplingItemView[] {
  const toolLoop = toolLoopRequest();
  return [
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
      original: firstRequest(),
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
  ];
}

/** A request generating, a generated response awaiting review, and a hand-written one. */
function responseItems({ ago, assoc, base }: QueueContext): SamplingItemView[] {
  return [
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
  ];
}

/** One finished item per terminal status, from an earlier call. */
function finishedItems({ ago, assoc, base }: QueueContext): SamplingItemView[] {
  return (
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
  );
}

/** The default queue, with times relative to `now`. */
export function buildQueueItems(now: number): SamplingItemView[] {
  const context = queueContext(now);
  return [...requestReviewItems(context), ...responseItems(context), ...finishedItems(context)];
}
