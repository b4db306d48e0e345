/**
 * What the agent-framework tests share: a console whose providers are three loopback fakes — `oa`
 * (kind openai, answering through the Responses API; model `gpt-4o-mini`), `compat`
 * (OpenAI-compatible, Chat Completions; `llama-3.1`) and `claude` (Anthropic Messages;
 * `claude-sonnet-4-5`) — so the model a framework asks for decides which upstream wire answers;
 * a named gateway token `fw`; the environment variables each framework's docs tell users to set
 * (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`, as Settings
 * gives them); a person who reviews every call of the token (editing the final answer); and an
 * approve-everything rule to switch on.
 */
import type { RulesFile } from '../../shared/contract/rules.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { startAnthropicServer, type AnthropicServer } from '../fixtures/anthropic-server.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import type { Script } from '../fixtures/wire-server.js';
import { seenVersion, startHarness, type Harness } from '../support/console-harness.js';

/** The three fakes and the console. */
export interface FrameworkEnv {
  h: Harness;
  oa: OpenAIServer;
  compat: OpenAICompatibleServer;
  claude: AnthropicServer;
  /** `http://127.0.0.1:<port>` of the gateway. */
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The server id the token's calls are queued under. */
export const CALLER = 'gateway:fw';

/** Starts the fakes and the console, creates the token and sets the four variables in `process.env`. */
export async function startFrameworkEnv(): Promise<FrameworkEnv> {
  const [oa, compat, claude] = await Promise.all([startOpenAIServer({ models: ['gpt-4o-mini'] }), startOpenAICompatibleServer({ models: ['llama-3.1'] }), startAnthropicServer()]);
  const h = await startHarness({
    servers: {},
    providers: {
      providers: [
        { id: 'oa', kind: 'openai', baseURL: oa.baseURL, models: ['gpt-4o-mini'] },
        { id: 'compat', kind: 'openai-compatible', baseURL: compat.baseURL, models: ['llama-3.1'] },
        { id: 'claude', kind: 'anthropic', baseURL: claude.baseURL, models: ['claude-sonnet-4-5'] },
      ],
      defaultProvider: 'oa',
      defaultModel: 'gpt-4o-mini',
    },
  });
  const gateway = (await h.state()).gateway!;
  const token = (await h.service.createGatewayToken({ name: 'fw' })).token;
  Object.assign(process.env, { OPENAI_BASE_URL: gateway.openaiBaseUrl, OPENAI_API_KEY: token, ANTHROPIC_BASE_URL: gateway.anthropicBaseUrl, ANTHROPIC_API_KEY: token });
  return {
    h,
    oa,
    compat,
    claude,
    url: gateway.url!,
    token,
    close: async () => {
      await h.dispose();
      await Promise.all([oa.close(), compat.close(), claude.close()]);
    },
  };
}

/** Switches the approve-everything rule for the token on or off. */
export async function approveEverything(env: FrameworkEnv, on: boolean): Promise<void> {
  const servers = on ? { [CALLER]: { rules: [{ id: 'all', name: 'Agent runs', when: {}, action: { kind: 'approve_all' } }] } } : {};
  await env.h.service.saveRules({ rules: { version: 1, servers } as unknown as RulesFile });
}

/** A run and what the person did while it ran. */
export interface Reviewed<T> {
  result: T;
  /** The items the person reviewed, in order (as they were when their request was approved). */
  items: SamplingItemView[];
}

/**
 * Runs `run` while a person reviews each call of the token: approves every request as it came,
 * approves a response holding a tool call as it is, and replaces the text of a response without
 * one by `finalText`. Resolves with the run's result once it settles (rejects as it does).
 */
export async function reviewedRun<T>(env: FrameworkEnv, run: () => Promise<T>, finalText: string): Promise<Reviewed<T>> {
  const items: SamplingItemView[] = [];
  const handled = new Set<string>();
  let settled = false;
  const running = run().finally(() => (settled = true));
  while (!settled) {
    const state = await env.h.state();
    for (const item of state.items.filter((i) => i.serverId === CALLER && !i.outcome)) {
      const key = `${item.id}:${item.status}`;
      if (handled.has(key)) continue;
      if (item.status === 'awaiting_request_review') {
        handled.add(key);
        items.push(item);
        await env.h.service.approveRequest({ itemId: item.id, version: await seenVersion(env.h, item.id), params: item.original, model: item.model });
      } else if (item.status === 'awaiting_response_review') {
        handled.add(key);
        const draft = item.response!.draft;
        const calls = (Array.isArray(draft.content) ? draft.content : [draft.content]).some((b) => b.type === 'tool_use');
        await env.h.service.approveResponse({ itemId: item.id, version: await seenVersion(env.h, item.id), result: calls ? draft : { ...draft, content: { type: 'text', text: finalText } } });
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { result: await running, items };
}

/** The scripts of a tool run: the model calls `get_weather` for Paris, then answers `answer`. */
export function weatherScripts(answer: string): Script[] {
  return [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: answer }];
}
