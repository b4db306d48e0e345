/**
 * Servers built on the libraries people use work on the console's DEFAULT settings (no `protocol`
 * in the entry: `"auto"`), on the FIRST call of every tool, whatever style it uses to ask for
 * sampling, elicitation and roots: the official Python `mcp` 2.x (push style and the both-eras
 * `Resolve` style, default output schemas), `fastmcp` 4.x (push `ctx.elicit` and the guard style,
 * `InputRequiredResult`), the v1 TypeScript SDK (push style) and the v2 one (push style and
 * `inputRequired(...)`), each over stdio and Streamable HTTP (fixtures: test/fixtures/python/
 * README.md). Every fixture also has push-style tools that catch every exception and return it as
 * text (`caught_*`), as many real servers do: on a 2026-07-28 connection they "succeed" with
 * nothing asked, so only a connection on 2025-11-25 serves them. The same holds with
 * `"protocol": "legacy"`.
 *
 * Every tool is called twice, interleaved: all tools once (round 1), then all again (round 2). In
 * both rounds every call must succeed: each sampling and elicitation request reaches the queue and
 * is answered by the test acting as the person (sampling: "write the response myself"; form: name
 * and age; URL: accept), and the tool's answer shows the server received exactly that. Roots: the
 * folder set for the server is what the tool lists. A guard-style tool, which its framework refuses
 * on 2025-11-25, is called again at once on a 2026-07-28 session, and its era is remembered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateMessageResult } from '../../shared/contract/sampling.js';
import type { CallView, ElicitationItemView, SamplingItemView } from '../../shared/contract/state.js';
import type { StartedFixture } from '../fixtures/launch.js';
import { PEER_TOOLS, startPeerServer, type PeerKind } from '../fixtures/peer-servers.js';
import { startHarness, type Harness, type WholeState, seenVersion } from '../support/console-harness.js';

const SERVER = 'peer';
const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;
const CALLER = { name: 'Ada', age: 36 };
const WEATHER = '(after get_weather({"city": "Paris"}) -> sunny, 21 C in Paris)';

/** What the person did for one call: the queue items answered, and the texts written. */
interface Handled {
  sampling: SamplingItemView[];
  elicitations: ElicitationItemView[];
  /** Texts the person wrote as the model's answer, in order. */
  written: string[];
}

/** A settled call and what the person did for it. */
interface Outcome {
  call: CallView;
  text: string;
  handled: Handled;
}

const mine = (callId: string) => (i: { association: { calls: Array<{ callId: string }> } }) => i.association.calls.some((c) => c.callId === callId);
const blocksOf = (content: unknown): Array<{ type: string }> => (Array.isArray(content) ? content : [content]) as Array<{ type: string }>;

/** Whether a sampling request is the first round of a tools loop (tools offered, no tool_result yet). */
function wantsToolUse(item: SamplingItemView): boolean {
  if (!item.original.tools?.length) return false;
  const last = item.original.messages.at(-1);
  return !!last && !blocksOf(last.content).some((b) => b.type === 'tool_result');
}

/** The person's answer to a sampling request: a get_weather tool_use for a first tools round, else text. */
function personalAnswer(item: SamplingItemView, tool: string, n: number): { result: CreateMessageResult; text?: string } {
  if (wantsToolUse(item)) {
    const use = { type: 'tool_use' as const, id: `toolu_${n}`, name: 'get_weather', input: { city: 'Paris' } };
    return { result: { role: 'assistant', content: [use], model: 'manual', stopReason: 'toolUse' } };
  }
  const text = `${tool} answer ${n} written by the person`;
  return { result: { role: 'assistant', content: { type: 'text', text }, model: 'manual', stopReason: 'endTurn' }, text };
}

describe.each([
  ['mcp', 'stdio', 'auto'],
  ['mcp', 'http', 'auto'],
  ['fastmcp', 'stdio', 'auto'],
  ['fastmcp', 'http', 'auto'],
  ['v1', 'stdio', 'auto'],
  ['v1', 'http', 'auto'],
  ['v2', 'stdio', 'auto'],
  ['v2', 'http', 'auto'],
  // `"protocol": "legacy"` breaks the other half: fastmcp's guard tools need 2026-07-28.
  ['mcp', 'stdio', 'legacy'],
  ['fastmcp', 'stdio', 'legacy'],
  ['fastmcp', 'http', 'legacy'],
] as const)('a %s server over %s with protocol %s', (kind: PeerKind, transport, protocol) => {
  let h: Harness;
  let fixture: StartedFixture | undefined;
  const root = mkdtempSync(join(tmpdir(), `peer-root-${kind}-`));
  const rootUri = pathToFileURL(root).href;
  let counter = 0;

  beforeAll(async () => {
    fixture = await startPeerServer(kind, transport);
    // `auto` is the default: the entry names no protocol.
    h = await startHarness({ servers: { [SERVER]: protocol === 'auto' ? fixture.config : { ...fixture.config, protocol } } });
    await h.ready;
    await h.waitFor((s) => serverReady(s), `the ${kind} server ready with its tools`, 40_000);
    await h.service.setServerRoots({ serverId: SERVER, folders: [root] });
  }, 60_000);

  afterAll(async () => {
    await h?.dispose();
    await fixture?.close();
    if (h) rmSync(h.dir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  function serverReady(s: WholeState): boolean {
    const server = s.servers.find((x) => x.id === SERVER);
    return server?.status === 'ready' && PEER_TOOLS[kind].every((t) => server.tools.some((x) => x.name === t));
  }

  /** Answers one queue item of the call as the person; returns false when there was none. */
  async function answerNext(s: WholeState, callId: string, tool: string, handled: Handled): Promise<boolean> {
    const sampling = s.items.find((i) => mine(callId)(i) && i.status === 'awaiting_request_review' && !handled.sampling.some((x) => x.id === i.id));
    if (sampling) {
      handled.sampling.push(sampling);
      const { result, text } = personalAnswer(sampling, tool, ++counter);
      if (text) handled.written.push(text);
      await h.service.approveRequest({ itemId: sampling.id, version: sampling.contentVersion!, params: sampling.original, model: MANUAL });
      await h.waitFor((st) => st.items.find((i) => i.id === sampling.id)?.status === 'awaiting_response_review', `item ${sampling.id} ready for the response`);
      await h.service.approveResponse({ itemId: sampling.id, version: await seenVersion(h, sampling.id), result });
      return true;
    }
    const elicitation = (s.elicitations ?? []).find((e) => mine(callId)(e) && e.status === 'awaiting_input' && e.source === 'request' && !handled.elicitations.some((x) => x.id === e.id));
    if (elicitation) {
      handled.elicitations.push(elicitation);
      const form = (elicitation.params.mode ?? 'form') === 'form';
      await h.service.respondElicitation({ itemId: elicitation.id, version: elicitation.contentVersion!, action: 'accept', ...(form && { content: CALLER }) });
      return true;
    }
    return false;
  }

  /** Calls `tool` and acts as the person on every request it raises until the call settles. */
  async function drive(tool: string): Promise<Outcome> {
    await h.waitFor((s) => s.servers.find((x) => x.id === SERVER)?.status === 'ready', `the ${kind} server ready`, 30_000);
    const { callId } = await h.service.callTool({ serverId: SERVER, name: tool, arguments: {} });
    const handled: Handled = { sampling: [], elicitations: [], written: [] };
    const until = Date.now() + 45_000;
    for (;;) {
      const s = await h.state();
      const call = s.calls.find((c) => c.id === callId)!;
      if (call.status !== 'running') {
        const text = (call.result?.content ?? []).map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n');
        return { call, text, handled };
      }
      if (Date.now() > until) throw new Error(`${tool} did not settle; state: ${JSON.stringify({ call, items: s.items.map((i) => [i.id, i.status]), elicitations: s.elicitations?.map((e) => [e.id, e.status]) })}`);
      if (!(await answerNext(s, callId, tool, handled))) await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Round 2: the call succeeded and the server's answer holds what the person gave. */
  function expectAnswered(tool: string, { call, text, handled }: Outcome): void {
    const what = `${kind}/${transport} ${tool}: ${JSON.stringify({ status: call.status, error: call.error, text })}`;
    expect(call.status, what).toBe('succeeded');
    expect(call.result?.isError ?? false, what).toBe(false);
    if (tool.includes('sample')) {
      expect(handled.sampling.length, `${what}: the sampling request reached the queue`).toBeGreaterThan(0);
      const said = handled.written.at(-1);
      expect(text, what).toContain(`model said: ${said}`);
      if (tool.endsWith('sample_image')) expect(blocksOf(handled.sampling[0]!.original.messages[0]!.content).map((b) => b.type)).toContain('image');
      if (tool.endsWith('sample_tools')) {
        expect(handled.sampling, `${what}: one request per round of the tools loop`).toHaveLength(2);
        expect(text, what).toContain(WEATHER);
      }
    } else if (tool.includes('elicit')) {
      expect(handled.elicitations.length, `${what}: the elicitation reached the queue`).toBe(1);
      if (tool.endsWith('elicit_url')) {
        expect(handled.elicitations[0]!.params).toMatchObject({ mode: 'url', url: 'https://example.com/connect' });
        expect(text, what).toMatch(/user answered: accept \(url [\w-]+\)/);
      } else {
        expect(text, what).toContain('user answered: accept {"age": 36, "name": "Ada"}');
      }
    } else {
      expect(text, what).toContain(`roots: ${rootUri}`);
    }
  }

  it("every tool answers with the person's answer the first time it is called, and again the second time", async () => {
    const rounds: Array<Array<[string, Outcome]>> = [[], []];
    for (const round of rounds) for (const tool of PEER_TOOLS[kind]) round.push([tool, await drive(tool)]);
    for (const [n, round] of rounds.entries()) {
      const failed = round.filter(([, o]) => o.call.status !== 'succeeded' || o.call.result?.isError).map(([tool, o]) => `${tool}: ${o.call.error?.message ?? o.text}`);
      expect(failed, `round ${n + 1} failures on ${kind}/${transport}`).toEqual([]);
      for (const [tool, outcome] of round) expectAnswered(tool, outcome);
    }
    for (const [tool, { call }] of rounds[0]!) {
      // Only the framework's refusal of a guard-style tool on 2025-11-25 makes the console call again.
      if (tool.startsWith('guard_')) expect(call.eraNeed, tool).toMatchObject({ needs: 'modern', calledAgain: true });
      else expect(call.eraNeed, tool).toBeUndefined();
    }
    for (const [tool, { call }] of rounds[1]!) expect(call.eraNeed, `${tool}: the second call went straight to the era it needs`).toBeUndefined();
  }, 300_000);

  it.runIf(kind === 'fastmcp' && protocol === 'auto')('remembers which era each tool needs across a restart: a guard-style tool then goes straight to 2026-07-28', async () => {
    const dir = h.dir;
    await h.dispose();
    h = await startHarness({ dir });
    await h.ready;
    await h.waitFor((s) => serverReady(s), `the ${kind} server ready again`, 40_000);
    const server = (await h.state()).servers.find((x) => x.id === SERVER);
    expect(server?.era, 'the server itself is connected on 2025-11-25').toBe('legacy');
    expect(server?.toolEras?.guard_sample_text).toMatchObject({ needs: 'modern', learned: 'failure' });
    const outcome = await drive('guard_sample_text');
    expectAnswered('guard_sample_text', outcome);
    expect(outcome.call.eraNeed).toBeUndefined();
    // The person can forget (or set) it: it is then learned again from the next refusal.
    await h.service.setToolEra({ serverId: SERVER, tool: 'guard_sample_text', era: null });
    expect((await h.state()).servers.find((x) => x.id === SERVER)?.toolEras?.guard_sample_text).toBeUndefined();
  }, 120_000);
});
