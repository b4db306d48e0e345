/**
 * The Servers API of a real console (createConsole) against server-everything: prompts/get with
 * arguments and resources/read (static and templated) over stdio and Streamable HTTP, results in
 * the call list; the protocol log; recovery after the server process is killed; config edits
 * through the API applied live; a broken hand edit keeps the running servers.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleState } from '../../shared/contract/state.js';
import { everythingStdio, startHarness, type Harness } from '../support/console-harness.js';
import { startEverythingHttp } from '../support/everything-http.js';

const finished = async (h: Harness, callId: string) => {
  const s = await h.waitFor((st) => st.calls.some((c) => c.id === callId && c.status !== 'running'), `call ${callId} to finish`);
  return s.calls.find((c) => c.id === callId)!;
};
const server = (s: Pick<ConsoleState, 'servers'>, id = 'everything') => s.servers.find((x) => x.id === id);

describe.each(['stdio', 'http'] as const)('prompts and resources over %s', (transport) => {
  let h: Harness;
  let http: { child: ChildProcess; url: string } | undefined;
  beforeAll(async () => {
    let everything: Record<string, unknown> = everythingStdio();
    if (transport === 'http') {
      http = await startEverythingHttp();
      everything = { url: http.url };
    }
    h = await startHarness({ servers: { everything } });
    await h.ready;
    await h.waitFor((s) => (server(s)?.resources?.length ?? 0) > 0 && (server(s)?.prompts?.length ?? 0) > 0, 'lists');
  }, 40_000);
  afterAll(async () => {
    await h?.dispose();
    http?.child.kill();
  });

  it('prompts/get with arguments: the messages land in the call, kind prompts/get', async () => {
    const { callId } = await h.service.getPrompt({ serverId: 'everything', name: 'args-prompt', arguments: { city: 'Porto' } });
    const call = await finished(h, callId);
    expect(call).toMatchObject({ kind: 'prompts/get', name: 'args-prompt', arguments: { city: 'Porto' }, status: 'succeeded' });
    expect(call.prompt?.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Porto?" } }]);
  });

  it('resources/read of a listed resource and of a filled-in template', async () => {
    const s = await h.service.getState({});
    const listed = server(s)!.resources!.find((r) => r.uri.startsWith('demo://resource/static/document/'))!;
    const a = await finished(h, (await h.service.readResource({ serverId: 'everything', uri: listed.uri })).callId);
    expect(a).toMatchObject({ kind: 'resources/read', name: listed.uri, status: 'succeeded' });
    expect(a.resource?.contents[0]?.text?.length).toBeGreaterThan(0);
    expect(server(s)!.resourceTemplates!.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/blob/{resourceId}');
    const b = await finished(h, (await h.service.readResource({ serverId: 'everything', uri: 'demo://resource/dynamic/blob/3' })).callId);
    expect(b.resource?.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/blob/3', blob: expect.any(String) });
  });

  it('a prompt that does not exist fails with the server\'s JSON-RPC error', async () => {
    const call = await finished(h, (await h.service.getPrompt({ serverId: 'everything', name: 'no-such-prompt', arguments: {} })).callId);
    expect(call.status).toBe('failed');
    expect(call.error?.code).toBe(-32602);
  });

  it('the protocol log has the requests and their responses', async () => {
    const log = await h.service.getServerLog({ serverId: 'everything', query: 'resources/read', limit: 50 });
    expect(log.protocol.filter((e) => e.direction === 'out' && e.kind === 'request').length).toBeGreaterThanOrEqual(2);
    expect(log.protocol.filter((e) => e.direction === 'in' && e.kind === 'response').length).toBeGreaterThanOrEqual(2);
    expect(log.totals.protocol).toBeGreaterThan(log.protocol.length);
  });
});

describe('connection life through the console (stdio)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ servers: { everything: everythingStdio(), other: { ...everythingStdio(), disabled: true } } });
    await h.ready;
  }, 40_000);
  afterAll(async () => h?.dispose());

  it('recovers after the server process is killed, and says it is reconnecting', async () => {
    const ready = await h.waitFor((s) => server(s)?.status === 'ready' && !!server(s)?.pid, 'ready with a pid');
    const pid = server(ready)!.pid!;
    process.kill(pid, 'SIGKILL');
    const back = await h.waitFor((s) => server(s)?.status === 'ready' && server(s)!.pid !== pid, 'a new process, ready');
    expect(server(back)!.reconnect).toBeUndefined();
    const stderr = await h.service.getServerLog({ serverId: 'everything', limit: 2000 });
    expect(stderr.stderr.length).toBeGreaterThan(0);
    const call = await finished(h, (await h.service.getPrompt({ serverId: 'everything', name: 'simple-prompt', arguments: {} })).callId);
    expect(call.status).toBe('succeeded');
  });

  it('a disabled server is listed, not connected; enabling it connects it', async () => {
    expect(server(await h.service.getState({}), 'other')?.status).toBe('disabled');
    await expect(h.service.getPrompt({ serverId: 'other', name: 'simple-prompt', arguments: {} })).rejects.toThrow(/is disabled|not ready/);
    await h.service.setServerEnabled({ serverId: 'other', enabled: true });
    await h.waitFor((s) => server(s, 'other')?.status === 'ready', 'other ready');
    const file = JSON.parse(readFileSync(join(h.dir, 'mcp-servers.json'), 'utf8'));
    expect(file.mcpServers.other.disabled).toBeUndefined();
  });

  it('a hand edit with a syntax error is reported with its line; the servers keep running', async () => {
    const path = join(h.dir, 'mcp-servers.json');
    const good = readFileSync(path, 'utf8');
    const pretty = JSON.stringify(JSON.parse(good), null, 2);
    expect(pretty.split('\n')[1]).toBe('  "mcpServers": {');
    writeFileSync(path, pretty.replace('"mcpServers": {', '"mcpServers": {,'));
    const s = await h.waitFor((st) => (st.settings.serversConfigProblems?.length ?? 0) > 0, 'the problem in settings');
    expect(s.settings.serversConfigProblems![0]).toMatch(/mcp-servers\.json: line 2, column \d+/);
    expect(s.notices.at(-1)?.message).toMatch(/last good config stays in force/);
    expect(server(s)?.status).toBe('ready');
    writeFileSync(path, good);
    await h.waitFor((st) => st.settings.serversConfigProblems === undefined, 'the problem cleared');
  });
});
