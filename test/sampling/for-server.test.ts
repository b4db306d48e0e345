import { describe, expect, it } from 'vitest';
import { forServer } from '../../main/sampling/record.js';

describe('what the server receives', () => {
  it("drops the console's own _meta annotations but keeps everyone else's", () => {
    const out = forServer({
      role: 'assistant',
      model: 'm',
      stopReason: 'toolUse',
      _meta: { 'mcp-approval-console/x': 1, keep: true },
      content: [
        { type: 'tool_use', id: 'a', name: 'w', input: {}, _meta: { 'mcp-approval-console/promptToolCall': true } },
        { type: 'text', text: 'hi', _meta: { other: 'kept' } },
      ],
    });
    expect(out).toEqual({
      role: 'assistant',
      model: 'm',
      stopReason: 'toolUse',
      _meta: { keep: true },
      content: [{ type: 'tool_use', id: 'a', name: 'w', input: {} }, { type: 'text', text: 'hi', _meta: { other: 'kept' } }],
    });
  });
});
