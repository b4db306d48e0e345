/**
 * The call tracker's re-run (rerunCall): a finished call is started again on the same server with
 * the same kind, name and arguments, as a new call that records `rerunOf`; the original keeps its
 * outcome. Unknown and running calls are refused. The connection is a stand-in that records what
 * it was asked and answers from a script.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, apiRequests } from '../../shared/contract/api.js';
import type { CallView } from '../../shared/contract/state.js';
import { createCallTracker } from '../../main/mcp/calls.js';
import type { ServerConnection } from '../../main/mcp/connection.js';
import { createStateHub } from '../../main/state-hub.js';

interface Asked {
  method: 'callTool' | 'getPrompt' | 'readResource';
  name: string;
  args: unknown;
}

function setup() {
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const asked: Asked[] = [];
  /** Answers queued per request; an Error is thrown. Empty → the request never settles. */
  const script: Array<unknown> = [];
  const answer = () => {
    if (script.length === 0) return new Promise<never>(() => undefined);
    const next = script.shift();
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  };
  const conn = {
    id: 's',
    view: () => ({ status: 'ready' }),
    callTool: (name: string, args: unknown) => (asked.push({ method: 'callTool', name, args }), answer()),
    getPrompt: (name: string, args: unknown) => (asked.push({ method: 'getPrompt', name, args }), answer()),
    readResource: (uri: string) => (asked.push({ method: 'readResource', name: uri, args: undefined }), answer()),
  } as unknown as ServerConnection;
  const tracker = createCallTracker({ hub, now: Date.now, connection: (id) => (id === 's' ? conn : undefined) });
  const call = (id: string): CallView | undefined => hub.snapshot().calls.find((c) => c.id === id);
  const settled = async (id: string): Promise<CallView> => {
    for (let i = 0; i < 100 && call(id)?.status === 'running'; i++) await new Promise((r) => setImmediate(r));
    return call(id)!;
  };
  return { tracker, asked, script, call, settled };
}

const urlRequired = Object.assign(new Error('URL elicitation required'), { code: -32042 });

describe('rerun', () => {
  it('calls the same tool with the same arguments again; the new result is recorded on the new call', async () => {
    const t = setup();
    t.script.push(urlRequired, { content: [{ type: 'text', text: 'paid' }] });
    const args = { url: 'https://example.com/pay', nested: { amount: 3 } };
    const first = t.tracker.startToolCall('s', 'pay', args);
    expect(await t.settled(first)).toMatchObject({ status: 'failed', error: { code: -32042 } });

    const second = t.tracker.rerun(first);
    expect(second).not.toBe(first);
    expect(t.call(second)).toMatchObject({ status: 'running', kind: 'tools/call', name: 'pay', arguments: args, rerunOf: first });
    expect(await t.settled(second)).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'paid' }] } });
    expect(t.asked).toEqual([
      { method: 'callTool', name: 'pay', args },
      { method: 'callTool', name: 'pay', args },
    ]);
    // The arguments are a copy: the two calls do not share objects.
    expect(t.asked[1]!.args).not.toBe(t.asked[0]!.args);
    expect(t.call(first)).toMatchObject({ status: 'failed', error: { code: -32042 } });
    expect(t.call(first)!.rerunOf).toBeUndefined();
  });

  it('re-runs prompts/get and resources/read as what they were', async () => {
    const t = setup();
    t.script.push(new Error('boom'), new Error('boom'), { messages: [] }, { contents: [] });
    const p = t.tracker.startPromptGet('s', 'greet', { who: 'Ada' });
    const r = t.tracker.startResourceRead('s', 'file:///tmp/x');
    await t.settled(p);
    await t.settled(r);
    const p2 = t.tracker.rerun(p);
    const r2 = t.tracker.rerun(r);
    expect(t.asked.slice(2)).toEqual([
      { method: 'getPrompt', name: 'greet', args: { who: 'Ada' } },
      { method: 'readResource', name: 'file:///tmp/x', args: undefined },
    ]);
    expect(t.call(p2)).toMatchObject({ kind: 'prompts/get', rerunOf: p });
    expect(t.call(r2)).toMatchObject({ kind: 'resources/read', arguments: { uri: 'file:///tmp/x' }, rerunOf: r });
  });

  it('refuses an unknown call (not_found) and a running one (invalid_state), sending nothing', () => {
    const t = setup();
    const running = t.tracker.startToolCall('s', 'slow', {});
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err;
      }
      return undefined;
    };
    expect(refused(() => t.tracker.rerun('nope'))).toMatchObject({ code: 'not_found' });
    const err = refused(() => t.tracker.rerun(running));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/still running/) });
    expect(t.asked).toHaveLength(1);
  });
});

describe('rerunCall input (zod, checked by the host before main sees it)', () => {
  it('takes exactly one call id', () => {
    expect(apiRequests.rerunCall.input.parse({ callId: 'c1' })).toEqual({ callId: 'c1' });
    expect(apiRequests.rerunCall.input.safeParse({}).success).toBe(false);
    expect(apiRequests.rerunCall.input.safeParse({ callId: '' }).success).toBe(false);
    expect(apiRequests.rerunCall.input.safeParse({ callId: 'c1', arguments: { url: 'x' } }).success).toBe(false);
  });
});

/** fastmcp's words when a guard-style tool runs on a 2025-11-25 connection (a JSON-RPC error -32602). */
const GUARD_REFUSAL = Object.assign(
  new Error("Tool 'guard_sample_text' returned an InputRequiredResult to request client input, but the multi-round-trip result type (SEP-2322) only exists at MCP 2026-07-28; this connection negotiated '2025-11-25'."),
  { code: -32602 },
);

/**
 * A tracker over two stand-in sessions of server `s` — its own (2025-11-25) and a 2026-07-28 one —
 * routed as the console does: a tool is called on the session of the era learned for it.
 */
function twoSessions(legacyAnswers: unknown[], modernAnswers: unknown[]) {
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const asked: string[] = [];
  const session = (era: 'legacy' | 'modern', answers: unknown[]) =>
    ({
      id: 's',
      view: () => ({ status: 'ready', era }),
      callTool: (name: string) => {
        asked.push(`${era}:${name}`);
        const next = answers.shift();
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
      },
    }) as unknown as ServerConnection;
  const legacy = session('legacy', legacyAnswers);
  const modern = session('modern', modernAnswers);
  const learned = new Map<string, 'legacy' | 'modern'>();
  const tracker = createCallTracker({
    hub,
    now: Date.now,
    connection: () => legacy,
    route: async (_s, tool) => (learned.get(tool) === 'modern' ? modern : legacy),
    learn: (_s, tool, outcome) => {
      const text = outcome.error?.message ?? JSON.stringify(outcome.result);
      if (!text.includes('only exists at MCP 2026-07-28')) return undefined;
      learned.set(tool, 'modern');
      return { needs: 'modern', detail: text };
    },
  });
  const settled = async (id: string): Promise<CallView> => {
    const get = () => hub.snapshot().calls.find((c) => c.id === id)!;
    for (let i = 0; i < 100 && get().status === 'running'; i++) await new Promise((r) => setImmediate(r));
    return get();
  };
  return { tracker, asked, settled };
}

describe("a guard-style tool refused on 2025-11-25 by its framework", () => {
  it('is called again at once on the 2026-07-28 session; its outcome is that call, marked as called again', async () => {
    const t = twoSessions([GUARD_REFUSAL], [{ content: [{ type: 'text', text: 'model said: hi | protocol 2026-07-28' }] }]);
    const call = await t.settled(t.tracker.startToolCall('s', 'guard_sample_text', {}));
    expect(call).toMatchObject({ status: 'succeeded', result: { content: [{ text: 'model said: hi | protocol 2026-07-28' }] }, eraNeed: { needs: 'modern', calledAgain: true } });
    expect(t.asked).toEqual(['legacy:guard_sample_text', 'modern:guard_sample_text']);
    // Remembered: the next call goes to the 2026-07-28 session first.
    await t.settled(t.tracker.startToolCall('s', 'guard_sample_text', {}));
    expect(t.asked.at(-1)).toBe('modern:guard_sample_text');
  });

  it('the second call failing is the outcome, still marked as called again', async () => {
    const t = twoSessions([GUARD_REFUSAL], [Object.assign(new Error('the person declined'), { code: -1 })]);
    const call = await t.settled(t.tracker.startToolCall('s', 'guard_sample_text', {}));
    expect(call).toMatchObject({ status: 'failed', error: { message: 'the person declined' }, eraNeed: { needs: 'modern', calledAgain: true } });
  });

  it('the same words in a result the tool returned (isError) are learned but not called again', async () => {
    const t = twoSessions([{ isError: true, content: [{ type: 'text', text: GUARD_REFUSAL.message }] }], []);
    const call = await t.settled(t.tracker.startToolCall('s', 'guard_sample_text', {}));
    expect(call).toMatchObject({ status: 'succeeded', result: { isError: true }, eraNeed: { needs: 'modern' } });
    expect(call.eraNeed?.calledAgain).toBeUndefined();
    expect(t.asked).toEqual(['legacy:guard_sample_text']);
  });
});
