/**
 * The MCP source adapter of the server-request envelope: why a handler's signal aborted is typed
 * where the request enters, and every kind goes through the one router.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { embeddedRequest, pushedRequest, typedAbort } from '../../main/mcp/server-requests.js';
import { abortCauseOf, RequestAbort } from '../../main/requests/incoming.js';
import { createServerRequestRouter } from '../../main/requests/router.js';
import { stopWhy } from '../../main/sampling/drafts.js';

describe('typed abort reasons', () => {
  it('a closed connection is the SDK typed error, not words', () => {
    expect(typedAbort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')).abortCause).toBe('connection_closed');
  });

  it("a server's cancel reason is its own words: timed out, or cancelled — never read as a closed connection", () => {
    expect(typedAbort('Error: Request timed out')).toMatchObject({ abortCause: 'server_timeout', serverReason: 'Error: Request timed out' });
    // Read as "connection closed" when the pipeline matched /clos/ on the reason's text.
    const closedDialog = typedAbort('the user closed the dialog');
    expect(closedDialog).toMatchObject({ abortCause: 'server_cancelled', serverReason: 'the user closed the dialog' });
    expect(stopWhy(abortCauseOf(closedDialog))).toEqual({ event: 'stop', why: { code: 'outcome.serverCancelled' } });
    expect(typedAbort(undefined).abortCause).toBe('server_cancelled');
  });

  it('the envelope signal aborts with the typed reason, also when the SDK signal had already aborted', () => {
    const sdk = new AbortController();
    const request = pushedRequest('sampling', { serverId: 's', era: 'legacy' }, {}, sdk.signal);
    expect(request).toMatchObject({ kind: 'sampling', source: 'mcp', serverId: 's', era: 'legacy' });
    sdk.abort('Request timed out');
    expect(request.signal.reason).toBeInstanceOf(RequestAbort);
    expect(abortCauseOf(request.signal.reason)).toBe('server_timeout');
    const late = embeddedRequest('elicitation', 's', {}, { call: { callId: 'c', kind: 'tools/call', name: 't' }, signal: AbortSignal.abort(new RequestAbort('connection_closed')) });
    expect(late).toMatchObject({ era: 'modern', call: { callId: 'c' } });
    expect(abortCauseOf(late.signal.reason)).toBe('connection_closed');
  });

  it('progress is offered only when the server gave a progressToken', async () => {
    const sent: unknown[] = [];
    const notify = async (p: unknown) => void sent.push(p);
    expect(pushedRequest('sampling', { serverId: 's', era: 'legacy' }, { messages: [] }, new AbortController().signal, notify).progress).toBeUndefined();
    const withToken = pushedRequest('sampling', { serverId: 's', era: 'legacy' }, { _meta: { progressToken: 7 } }, new AbortController().signal, notify);
    withToken.progress?.('awaiting review');
    withToken.progress?.('generating');
    expect(sent).toEqual([
      { progressToken: 7, progress: 1, message: 'awaiting review' },
      { progressToken: 7, progress: 2, message: 'generating' },
    ]);
  });
});

describe('the server-request router', () => {
  const signal = new AbortController().signal;
  it('answers roots itself and refuses a kind without a handler with -32601', async () => {
    const router = createServerRequestRouter({ sampling: () => Promise.reject(new Error('unused')), roots: (id) => [{ uri: `file:///${id}` }] });
    await expect(router.receive({ kind: 'roots', serverId: 'a', era: 'legacy', params: {}, signal })).resolves.toEqual({ roots: [{ uri: 'file:///a' }] });
    await expect(router.receive({ kind: 'elicitation', serverId: 'a', era: 'legacy', params: {}, signal })).rejects.toMatchObject({ code: -32601 });
  });

  it('hands each kind to its handler, envelope and all', async () => {
    const seen: string[] = [];
    const router = createServerRequestRouter({
      sampling: async (r) => (seen.push(`${r.kind}:${r.serverId}`), { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }),
      elicitation: async (r) => (seen.push(`${r.kind}:${r.serverId}`), { action: 'decline' }),
      roots: () => [],
    });
    await router.receive({ kind: 'sampling', serverId: 'a', era: 'legacy', params: {}, signal });
    await router.receive({ kind: 'elicitation', serverId: 'b', era: 'modern', params: {}, signal });
    expect(seen).toEqual(['sampling:a', 'elicitation:b']);
  });
});
