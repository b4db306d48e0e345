import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callsAgain, ERA_NEEDS_FILE, openEraNeeds, recogniseCaughtRefusal, recogniseEraMismatch } from '../../main/mcp/era-needs.js';

const isError = (text: string) => ({ result: { isError: true, content: [{ type: 'text', text }] } });

describe('recognising a tool that needs the other protocol era', () => {
  it("knows mcp's and fastmcp's failures, as JSON-RPC errors and as isError results", () => {
    // mcp 2.x, push style on 2026-07-28
    expect(recogniseEraMismatch({ error: { code: -32600, message: "Cannot send 'sampling/createMessage': this transport context has no back-channel for server-initiated requests" } })?.needs).toBe('legacy');
    expect(recogniseEraMismatch(isError("Error executing tool push_list_roots: Cannot send 'roots/list': this transport context has no back-channel"))?.needs).toBe('legacy');
    // fastmcp 4.x, ctx.elicit on 2026-07-28
    expect(recogniseEraMismatch(isError('elicitation via server-initiated requests is unavailable on 2026-07-28 connections.'))?.needs).toBe('legacy');
    // fastmcp 4.x, guard style on 2025-11-25
    expect(recogniseEraMismatch({ error: { code: -32602, message: 'Tool guard_sample_text returned an InputRequiredResult, which only exists at MCP 2026-07-28' } })?.needs).toBe('modern');
    expect(recogniseEraMismatch(isError('returned an InputRequiredResult, which only exists at MCP 2026-07-28 and later'))?.needs).toBe('modern');
    // the v2 TypeScript SDK, push style on 2026-07-28 (a tool that lets the error escape: an isError result)
    expect(recogniseEraMismatch(isError("Server-to-client requests are not available on protocol revision 2026-07-28: 'sampling/createMessage' cannot be sent while serving a request on that revision."))?.needs).toBe('legacy');
  });

  it('leaves other failures alone', () => {
    expect(recogniseEraMismatch({ error: { code: -32603, message: 'database is locked' } })).toBeUndefined();
    expect(recogniseEraMismatch(isError('the city was not found'))).toBeUndefined();
    expect(recogniseEraMismatch({ result: { isError: false, content: [{ type: 'text', text: 'no back-channel' }] } })).toBeUndefined();
  });
});

/** fastmcp 4.10's words when a guard-style tool runs on a 2025-11-25 connection. */
const FASTMCP_GUARD =
  "Tool 'guard_sample_text' returned an InputRequiredResult to request client input, but the multi-round-trip result type (SEP-2322) only exists at MCP 2026-07-28; this connection negotiated '2025-11-25'. Use ctx.elicit() for server-initiated input on handshake-era connections.";

describe('the failure answered by calling the tool again at once', () => {
  it("is exactly the framework's -32602 refusal of a guard-style tool on 2025-11-25", () => {
    expect(callsAgain({ error: { code: -32602, message: FASTMCP_GUARD } })).toBe(true);
  });

  it('not the same words from the tool itself (an isError result), another code, or a push-style refusal', () => {
    expect(callsAgain(isError(FASTMCP_GUARD))).toBe(false);
    expect(callsAgain({ error: { code: -32603, message: FASTMCP_GUARD } })).toBe(false);
    expect(callsAgain({ error: { code: -32600, message: "Cannot send 'sampling/createMessage': this transport context has no back-channel for server-initiated requests" } })).toBe(false);
    expect(callsAgain({ error: { code: -32602, message: 'Invalid arguments for tool guard_sample_text' } })).toBe(false);
  });
});

describe('a push-style refusal the tool caught and returned as its text', () => {
  const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
  it('is recognised in a successful result (mcp, fastmcp, the v2 SDK), as needing 2025-11-25', () => {
    expect(recogniseCaughtRefusal(text("Error: Cannot send 'sampling/createMessage': this transport context has no back-channel for server-initiated requests."))?.needs).toBe('legacy');
    expect(recogniseCaughtRefusal(text('Error: elicitation via server-initiated requests is unavailable on 2026-07-28 connections.'))?.needs).toBe('legacy');
    expect(recogniseCaughtRefusal(text("Error: Server-to-client requests are not available on protocol revision 2026-07-28: 'sampling/createMessage' cannot be sent"))?.needs).toBe('legacy');
  });

  it('not a guard-style refusal (no tool can catch that one), nor other text', () => {
    expect(recogniseCaughtRefusal(text(FASTMCP_GUARD))).toBeUndefined();
    expect(recogniseCaughtRefusal(text('model said: the sea is calm'))).toBeUndefined();
    expect(recogniseCaughtRefusal(undefined)).toBeUndefined();
  });
});

describe('remembered needs', () => {
  it('are kept across a restart, per server and tool, and can be forgotten', () => {
    const dir = mkdtempSync(join(tmpdir(), 'era-needs-'));
    const needs = openEraNeeds(dir);
    needs.set('py', 'push_sample_text', { needs: 'legacy', learned: 'failure', detail: 'no back-channel', at: 1 });
    needs.set('py', 'guard_sample_text', { needs: 'modern', learned: 'person', detail: 'set by you', at: 2 });
    const again = openEraNeeds(dir);
    expect(again.get('py', 'push_sample_text')).toMatchObject({ needs: 'legacy', learned: 'failure' });
    expect(Object.keys(again.forServer('py')).sort()).toEqual(['guard_sample_text', 'push_sample_text']);
    expect(again.get('other', 'push_sample_text')).toBeUndefined();
    again.set('py', 'push_sample_text', undefined);
    expect(openEraNeeds(dir).get('py', 'push_sample_text')).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, ERA_NEEDS_FILE), 'utf8'))).toHaveProperty('py.guard_sample_text');
  });
});
