/**
 * Elicitation items for UI specs against the fake API (kept out of the default fixture state so
 * the sampling specs' counts stay as they are): a form with every flat-schema field kind, a form
 * that asks for a secret, a URL request, a URL from a -32042 error, and an answered form.
 * Add them with `state.elicitations = buildElicitationItems(now)`.
 */
import type { CallView, ElicitationItemView } from '../../shared/contract/state.js';
import { said, ui } from '../../shared/contract/ui-text.js';

/** The form with one field of every kind (as server-everything's trigger-elicitation-request, trimmed). */
export const ALL_KINDS_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Full name', description: 'Your full, legal name', minLength: 2 },
    email: { type: 'string' as const, title: 'E-mail', format: 'email' as const },
    homepage: { type: 'string' as const, title: 'Homepage', format: 'uri' as const },
    birthdate: { type: 'string' as const, title: 'Birth date', format: 'date' as const },
    meeting: { type: 'string' as const, title: 'Meeting time', format: 'date-time' as const },
    age: { type: 'integer' as const, title: 'Age', minimum: 1, maximum: 120 },
    score: { type: 'number' as const, title: 'Score', minimum: 0, maximum: 10, default: 2.5 },
    agree: { type: 'boolean' as const, title: 'Agree to the terms', default: false },
    size: { type: 'string' as const, title: 'T-shirt size', enum: ['s', 'm', 'l'], enumNames: ['Small', 'Medium', 'Large'], default: 'm' },
    hero: {
      type: 'string' as const,
      title: 'Hero',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
        { const: 'hero-3', title: 'Wonder Woman' },
        { const: 'hero-4', title: 'Batman' },
        { const: 'hero-5', title: 'Flash' },
      ],
    },
    instruments: { type: 'array' as const, title: 'Instruments', minItems: 1, maxItems: 2, items: { type: 'string' as const, enum: ['Guitar', 'Piano', 'Drums'] }, default: ['Guitar'] },
    fish: { type: 'array' as const, title: 'Fish', items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] } },
  },
  required: ['name', 'email', 'age'],
};

/** What the items share: times relative to `now`, the defaults of a legacy request, the call it belongs to. */
function elicitationContext(now: number) {
  const ago = (s: number) => now - s * 1000;
  const base = { kind: 'elicitation' as const, serverId: 'everything', era: 'legacy' as const, source: 'request' as const, secretWarning: false };
  const call = (name: string, callId: string) => ({ exact: true, calls: [{ callId, kind: 'tools/call' as const, name }] });
  return { ago, base, call };
}

type ElicitationContext = ReturnType<typeof elicitationContext>;

/** Two forms awaiting input: every field kind, and one that asks for a secret. */
function formRequests({ ago, base, call }: ElicitationContext): ElicitationItemView[] {
  return [
    {
      ...base,
      id: 'elic-form',
      association: call('trigger-elicitation-request', 'call-elicit'),
      status: 'awaiting_input',
      receivedAt: ago(50),
      updatedAt: ago(50),
      params: { message: 'Please provide inputs for the following fields:\n\nWe use them to **book** your seat.', requestedSchema: ALL_KINDS_SCHEMA },
    },
    {
      ...base,
      id: 'elic-secret',
      association: call('deploy', 'call-deploy'),
      status: 'awaiting_input',
      receivedAt: ago(45),
      updatedAt: ago(45),
      secretWarning: true,
      params: { message: 'Enter your GitHub API key to continue', requestedSchema: { type: 'object', properties: { apiKey: { type: 'string', title: 'API key' } }, required: ['apiKey'] } },
    },
  ];
}

/** Two URLs awaiting the person: a server's request, and one from a -32042 error. */
function urlRequests({ ago, base, call }: ElicitationContext): ElicitationItemView[] {
  return [
    {
      ...base,
      id: 'elic-url',
      association: call('trigger-url-elicitation', 'call-url'),
      status: 'awaiting_input',
      receivedAt: ago(35),
      updatedAt: ago(35),
      params: {
        mode: 'url',
        message: 'Sign in to the payment provider to authorise the transfer.',
        url: 'https://auth.payments.example.com/authorize?client_id=mcp-console&state=8f14e45fceea167a5a36dedd4bea2543&redirect_uri=https%3A%2F%2Fexample.com%2Fcallback',
        elicitationId: 'el-123',
      },
    },
    {
      ...base,
      id: 'elic-url-error',
      association: call('trigger-url-elicitation', 'call-url-2'),
      source: 'error',
      status: 'awaiting_input',
      receivedAt: ago(25),
      updatedAt: ago(25),
      params: { mode: 'url', message: 'Open this link to satisfy the prerequisite, then retry the request.', url: 'https://modelcontextprotocol.io', elicitationId: 'el-456' },
    },
  ];
}

/** A form the person answered. */
function answeredForm({ ago, base, call }: ElicitationContext): ElicitationItemView {
  return {
    ...base,
    id: 'elic-done',
    association: call('trigger-elicitation-request', 'call-elicit-0'),
    status: 'accepted',
    receivedAt: ago(600),
    updatedAt: ago(590),
    params: { message: 'What should we call you?', requestedSchema: { type: 'object', properties: { nick: { type: 'string', title: 'Nickname' }, tags: { type: 'array', items: { enum: ['a', 'b'] } } } } },
    answer: { action: 'accept', content: { nick: 'Ada', tags: ['a', 'b'] } },
    outcome: { at: ago(590), ...said(ui('outcome.answered')) },
  };
}

/** The elicitation items, times relative to `now`. */
export function buildElicitationItems(now: number): ElicitationItemView[] {
  const context = elicitationContext(now);
  return [...formRequests(context), ...urlRequests(context), answeredForm(context)];
}

/**
 * A -32042 item the person already opened (not in buildElicitationItems, so the other specs'
 * counts stay as they are), and the failed call it came from.
 */
export function buildOpenedUrlError(now: number): { item: ElicitationItemView; call: CallView } {
  const args = { url: 'https://pay.example.com/checkout', errorPath: true };
  return {
    item: {
      kind: 'elicitation',
      id: 'elic-url-opened',
      serverId: 'everything',
      era: 'legacy',
      source: 'error',
      secretWarning: false,
      association: { exact: true, calls: [{ callId: 'call-url-failed', kind: 'tools/call', name: 'trigger-url-elicitation' }] },
      status: 'accepted',
      receivedAt: now - 20_000,
      updatedAt: now - 15_000,
      params: { mode: 'url', message: 'Open this link to satisfy the prerequisite, then retry the request.', url: 'https://modelcontextprotocol.io', elicitationId: 'el-789' },
      outcome: { at: now - 15_000, ...said(ui('outcome.opened')) },
    },
    call: {
      id: 'call-url-failed',
      serverId: 'everything',
      kind: 'tools/call',
      name: 'trigger-url-elicitation',
      arguments: args,
      status: 'failed',
      startedAt: now - 21_000,
      endedAt: now - 20_000,
      error: { message: 'MCP error -32042: This request requires browser-based authorization.', code: -32042 },
      samplingItemIds: ['elic-url-opened'],
    },
  };
}
