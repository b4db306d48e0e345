/**
 * Elicitation: the form logic (shared/contract/elicitation.ts) and the queue (main/elicitation/queue.ts):
 * accept / decline / cancel answered as the spec says, content validated before sending, defaults
 * applied, URL mode, completion notifications, -32042 items, and history for each.
 */
import { describe, expect, it } from 'vitest';
import { defaultsFor, looksLikeSecretRequest, optionsOf, parseElicitParams, validateElicitationContent, type RequestedSchema } from '../../shared/contract/elicitation.js';
import { isElicitationItem, type ElicitationItemView, type HistoryEntry } from '../../shared/contract/state.js';
import { createElicitationQueue } from '../../main/elicitation/queue.js';
import { createStateHub } from '../../main/state-hub.js';
import { english } from '../../shared/contract/ui-text.js';

const schema: RequestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    birthday: { type: 'string', format: 'date' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
    subscribe: { type: 'boolean', default: true },
    color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] },
    size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
    tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, maxItems: 2 },
  },
  required: ['name', 'email'],
};

describe('form logic', () => {
  it('defaults and options come from the schema', () => {
    expect(defaultsFor(schema)).toEqual({ ratio: 0.5, subscribe: true });
    expect(optionsOf(schema.properties.color!)).toEqual([{ value: 'r', title: 'Red' }, { value: 'g', title: 'Green' }]);
    expect(optionsOf(schema.properties.size!)).toEqual([{ value: 's', title: 'Small' }, { value: 'm', title: 'Medium' }]);
    expect(optionsOf(schema.properties.tags!)?.map((o) => o.value)).toEqual(['a', 'b', 'c']);
  });

  it('accepts valid content and applies defaults', () => {
    const res = validateElicitationContent(schema, { name: 'Ada', email: 'ada@example.com', age: 36, color: 'g', tags: ['a', 'c'], birthday: '1815-12-10', site: 'https://example.com' });
    expect(res).toEqual({ ok: true, content: { name: 'Ada', email: 'ada@example.com', age: 36, color: 'g', tags: ['a', 'c'], birthday: '1815-12-10', site: 'https://example.com', ratio: 0.5, subscribe: true } });
  });

  it.each([
    [{ email: 'a@b.co' }, 'name', 'is required'],
    [{ name: 'A', email: 'a@b.co' }, 'name', 'at least 2 characters'],
    [{ name: 'Ada', email: 'nope' }, 'email', 'e-mail'],
    [{ name: 'Ada', email: 'a@b.co', age: 3.5 }, 'age', 'whole number'],
    [{ name: 'Ada', email: 'a@b.co', age: 200 }, 'age', 'at most 150'],
    [{ name: 'Ada', email: 'a@b.co', color: 'blue' }, 'color', 'listed choices'],
    [{ name: 'Ada', email: 'a@b.co', tags: ['a', 'b', 'c'] }, 'tags', 'at most 2'],
    [{ name: 'Ada', email: 'a@b.co', birthday: '12/10/1815' }, 'birthday', 'date'],
    [{ name: 'Ada', email: 'a@b.co', site: 'not a url' }, 'site', 'URL'],
    [{ name: 'Ada', email: 'a@b.co', extra: 'x' }, 'extra', 'was not asked for'],
  ])('%j → %s %s', (content, field, message) => {
    const res = validateElicitationContent(schema, content);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(english(res.errors[field]!)).toContain(message);
  });

  it('flags forms that ask for secrets', () => {
    expect(looksLikeSecretRequest({ message: 'Enter your GitHub token', requestedSchema: { type: 'object', properties: { t: { type: 'string' } } } })).toBe(true);
    expect(looksLikeSecretRequest({ message: 'Your details', requestedSchema: { type: 'object', properties: { password: { type: 'string' } } } })).toBe(true);
    expect(looksLikeSecretRequest({ message: 'Pick a colour', requestedSchema: { type: 'object', properties: { color: { type: 'string' } } } })).toBe(false);
    expect(looksLikeSecretRequest({ message: 'Your details', requestedSchema: { type: 'object', properties: { name: { type: 'string', description: 'never give us your password or PIN' } } } })).toBe(false);
  });
});

describe('params per era (parseElicitParams)', () => {
  const url = { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/x' };
  it('URL mode: elicitationId is required on the 2025 era only (2026-07-28 removed it)', () => {
    expect(parseElicitParams(url, 'modern')).toEqual({ ok: true, params: url });
    expect(parseElicitParams(url, 'legacy')).toEqual({ ok: false, message: expect.stringMatching(/elicitationId: URL mode needs an elicitationId/) });
    expect(parseElicitParams({ ...url, elicitationId: 'e1' }, 'legacy')).toMatchObject({ ok: true, params: { elicitationId: 'e1' } });
  });

  it('the problem names the field at fault, per mode', () => {
    const nested = { message: 'Where?', requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } } };
    expect(parseElicitParams(nested, 'modern')).toEqual({ ok: false, message: expect.stringMatching(/^elicitation\/create: requestedSchema\.properties\.address: is not a field the spec allows/) });
    expect(parseElicitParams({ ...url, url: 'not a url', elicitationId: 'e' }, 'legacy')).toEqual({ ok: false, message: expect.stringMatching(/^elicitation\/create: url: /) });
    expect(parseElicitParams({ message: 'x' }, 'legacy')).toEqual({ ok: false, message: expect.stringMatching(/^elicitation\/create: requestedSchema: /) });
    expect(parseElicitParams('nonsense', 'legacy').ok).toBe(false);
  });
});

function setup() {
  const saved: HistoryEntry[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const queue = createElicitationQueue({ hub, history: { save: (e) => saved.push(structuredClone(e)) }, now: Date.now, inFlightCalls: () => [{ callId: 'c1', kind: 'tools/call', name: 'trigger-elicitation-request' }] });
  const last = (): ElicitationItemView => hub.items().filter(isElicitationItem).at(-1)!;
  return { queue, saved, last, hub };
}
const form = { message: 'Tell me about you', requestedSchema: schema };

describe('elicitation queue', () => {
  it('accept: validated content (with defaults) is the answer; recorded before it is sent', async () => {
    const t = setup();
    const answer = t.queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: form, signal: new AbortController().signal });
    expect(t.last()).toMatchObject({ status: 'awaiting_input', association: { exact: true }, secretWarning: false });
    expect(() => t.queue.respond(t.last().id, t.last().contentVersion!, 'accept', { name: 'A' })).toThrow(/email is required.*name must be at least 2 characters/);
    t.queue.respond(t.last().id, t.last().contentVersion!, 'accept', { name: 'Ada', email: 'ada@example.com' });
    await expect(answer).resolves.toEqual({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', ratio: 0.5, subscribe: true } });
    expect(t.saved.at(-1)).toMatchObject({ kind: 'elicitation', status: 'accepted', decidedBy: 'person', answer: { action: 'accept' } });
  });

  it.each(['decline', 'cancel'] as const)('%s: answered with that action and no content', async (action) => {
    const t = setup();
    const answer = t.queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: form, signal: new AbortController().signal });
    t.queue.respond(t.last().id, t.last().contentVersion!, action);
    await expect(answer).resolves.toEqual({ action });
    expect(() => t.queue.respond(t.last().id, t.last().contentVersion!, 'accept', {})).toThrow(/already ended/);
  });

  it('a withdrawn request (server cancelled) leaves the queue with a reason', async () => {
    const t = setup();
    const ac = new AbortController();
    const answer = t.queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: form, signal: ac.signal });
    ac.abort(new Error('cancelled'));
    await expect(answer).rejects.toThrow(/withdrew/);
    expect(t.last()).toMatchObject({ status: 'withdrawn' });
  });

  it('malformed params are refused with -32602 and recorded', async () => {
    const t = setup();
    await expect(t.queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: { message: 'x', requestedSchema: { type: 'object', properties: { nested: { type: 'object' } } } }, signal: new AbortController().signal })).rejects.toMatchObject({ code: -32602 });
    expect(t.saved.at(-1)).toMatchObject({ kind: 'elicitation', status: 'failed' });
  });

  it('URL mode: accept means the person opens the URL; completion is noted', async () => {
    const t = setup();
    const answer = t.queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/x', elicitationId: 'e1' }, signal: new AbortController().signal });
    t.queue.respond(t.last().id, t.last().contentVersion!, 'accept');
    await expect(answer).resolves.toEqual({ action: 'accept' });
    t.queue.complete('s', 'e1');
    expect(t.last()).toMatchObject({ status: 'completed' });
  });

  it('-32042: URL elicitations from the error become items nothing waits on', () => {
    const t = setup();
    t.queue.fromUrlError('s', 'legacy', [{ url: 'https://example.com/consent', message: 'Consent first', elicitationId: 'e2' }, { bogus: true }], { callId: 'c9', kind: 'tools/call', name: 'x' });
    expect(t.hub.snapshot().items.filter((i) => i.kind === 'elicitation')).toHaveLength(1);
    expect(t.last()).toMatchObject({ source: 'error', params: { mode: 'url', url: 'https://example.com/consent' }, association: { exact: true } });
    t.queue.respond(t.last().id, t.last().contentVersion!, 'accept');
    expect(t.last()).toMatchObject({ status: 'accepted' });
    expect(t.queue.dismiss(t.last().id)).toBe(true);
  });
});
