import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportHistory, parseJsonl, toJsonl, toSession } from '../../main/history/export.js';
import { escapeHtml, escapeMarkdownInline } from '../../main/history/report-writers.js';
import { openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import { ApiError } from '../../shared/contract/api-error.js';
import { SESSION_FORMAT } from '../../shared/contract/history.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { fullEntry, minimalEntry } from '../store/fixtures/entries.js';

let store: HistoryStore;
const NOW = Date.UTC(2026, 10, 20, 14, 3, 27);
const IMAGE = Buffer.alloc(4_000, 5).toString('base64');

/** Two sessions: one of two rounds (with an image), one of a single rejected request. */
function seed(): { a: HistoryEntry[]; b: HistoryEntry[] } {
  const a1 = fullEntry('a1', 1_000, { conversationId: 'conv-a' });
  const a2 = fullEntry('a2', 2_000, {
    conversationId: 'conv-a',
    original: { messages: [{ role: 'user', content: [{ type: 'text', text: 'and this picture?' }, { type: 'image', data: IMAGE, mimeType: 'image/png' }] }], maxTokens: 20 },
  });
  const b1 = { ...minimalEntry('b1', 3_000, 'list secrets'), conversationId: 'conv-b', status: 'rejected' as const, endedAt: 3_500, error: 'User rejected sampling request' };
  store.saveMany([a1, a2, b1]);
  return { a: [a1, a2], b: [b1] };
}

beforeEach(() => {
  store = openHistoryStore(':memory:');
});
afterEach(async () => store.close());

describe('JSONL export', () => {
  it('round-trips: export → parse gives the same sessions, entries exactly as stored', async () => {
    const { a, b } = seed();
    const file = await exportHistory(store, { format: 'jsonl' }, NOW);
    expect(file).toMatchObject({ filename: 'mcp-history-2026-11-20T14-03-27Z.jsonl', mimeType: 'application/x-ndjson; charset=utf-8', sessions: 2, entries: 3 });
    const lines = file.content.split('\n');
    expect(lines).toHaveLength(3); // two sessions, then the final newline
    const sessions = parseJsonl(file.content);
    expect(sessions).toEqual([
      { format: SESSION_FORMAT, version: 1, conversationId: 'conv-b', serverId: 'srv', startedAt: 3_000, endedAt: 3_500, requests: b },
      { format: SESSION_FORMAT, version: 1, conversationId: 'conv-a', serverId: 'everything', startedAt: 1_000, endedAt: 2_000 + 4_321, requests: a },
    ]);
    // The image came back inline, byte for byte.
    expect(JSON.stringify(sessions[1]!.requests[1]!.original)).toContain(IMAGE);
    // Importing into a fresh store and exporting again gives the same file.
    const other = openHistoryStore(':memory:');
    try {
      other.saveMany(sessions.flatMap((s) => s.requests));
      expect((await exportHistory(other, { format: 'jsonl' }, NOW)).content).toBe(file.content);
    } finally {
      await other.close();
    }
  });

  it('exports the whole sessions of selected entries, or of a filter', async () => {
    seed();
    const bySelection = parseJsonl((await exportHistory(store, { ids: ['a2'], format: 'jsonl' }, NOW)).content);
    expect(bySelection.map((s) => [s.conversationId, s.requests.map((e) => e.id)])).toEqual([['conv-a', ['a1', 'a2']]]);
    const byFilter = parseJsonl((await exportHistory(store, { filter: { status: ['rejected'] }, format: 'jsonl' }, NOW)).content);
    expect(byFilter.map((s) => s.conversationId)).toEqual(['conv-b']);
    await expect(exportHistory(store, { filter: { serverId: 'nobody' }, format: 'jsonl' }, NOW)).rejects.toThrow(ApiError);
  });

  it('marks a session with an unfinished request as having no end', async () => {
    expect(toSession([minimalEntry('x', 5)]).endedAt).toBeUndefined();
    expect(() => toSession([])).toThrow(RangeError);
  });

  it('refuses lines that are not sessions, naming the line', async () => {
    const good = toJsonl([toSession([minimalEntry('x', 5)])]);
    expect(parseJsonl(`\n${good}\n`)).toHaveLength(1);
    expect(() => parseJsonl(`${good}{"format":"other"}\n`)).toThrow(/line 2: not a history session/);
    expect(() => parseJsonl('{nope')).toThrow(/line 1/);
  });
});

describe('readable reports', () => {
  const hostile = '<script>alert(1)</script><img src=x onerror="alert(2)"> & \'quoted\' `tick` **bold** [link](javascript:alert(3))';

  function hostileEntry(): HistoryEntry {
    return fullEntry('evil', 1_000, {
      conversationId: 'conv-evil',
      serverId: `srv${hostile}`,
      callName: `tools/call ${hostile}`,
      model: hostile,
      preview: hostile,
      original: { messages: [{ role: 'user', content: { type: 'text', text: `please ${hostile}` } }], systemPrompt: hostile, maxTokens: 10 },
      sent: undefined,
      generated: { role: 'assistant', content: { type: 'text', text: `answer ${hostile}` }, model: hostile },
      delivered: { role: 'assistant', content: { type: 'text', text: `edited ${hostile}` }, model: hostile },
      errorDetail: { message: hostile },
      events: [{ at: 1_000, kind: hostile, detail: hostile }],
    });
  }

  it('HTML: escapes every server-supplied text; no markup from a server survives, no script can run', async () => {
    store.save(hostileEntry());
    const { content, mimeType } = await exportHistory(store, { format: 'html' }, NOW);
    expect(mimeType).toBe('text/html; charset=utf-8');
    expect(content).toMatch(/^<!doctype html>/);
    expect(content).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(content).not.toMatch(/<script/i);
    expect(content).not.toMatch(/<img/i);
    expect(content).not.toMatch(/onerror="/i);
    expect(content).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(content).toContain('please &#60;script&#62;');
    expect(content).toContain('edited &#60;script&#62;');
    // Every tag in the document is one the writer emits.
    const tags = new Set([...content.matchAll(/<\/?([a-zA-Z0-9]+)/g)].map((m) => m[1]!.toLowerCase()));
    expect([...tags].sort()).toEqual(['article', 'body', 'h1', 'h2', 'h3', 'h4', 'head', 'html', 'meta', 'p', 'pre', 'section', 'style', 'table', 'td', 'th', 'title', 'tr']);
  });

  it('Markdown: texts in fences longer than any backtick run, inline values escaped', async () => {
    const e = hostileEntry();
    store.save({ ...e, generated: { role: 'assistant', content: { type: 'text', text: 'code:\n```js\nalert(1)\n```' }, model: 'm' } });
    const { content, filename } = await exportHistory(store, { format: 'markdown' }, NOW);
    expect(filename).toMatch(/\.md$/);
    expect(content).toContain('````text\ncode:\n```js\nalert(1)\n```\n````');
    expect(content).toContain('\\<script\\>alert\\(1\\)\\</script\\>');
    expect(content).not.toContain('srv<script>');
    expect(content).toContain('# MCP Approval Console — history report');
    expect(content).toContain('### Request 1 of 1 — delivered');
  });

  it('says what was asked, sent, generated and delivered, with sizes for media', async () => {
    seed();
    const md = (await exportHistory(store, { ids: ['a1'], format: 'markdown' }, NOW)).content;
    expect(md).toContain('#### Request as asked by the server');
    expect(md).toContain('#### Request as sent to the LLM \\(edited\\)');
    expect(md).toContain('#### Response as generated');
    expect(md).toContain('#### Response as delivered to the server \\(edited\\)');
    expect(md).toContain('\\[image image/png, 3\\.9 KB\\]');
    expect(md).toContain('| Tokens | 42 in · 7 out |');
  });

  it('escape helpers', async () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
    expect(escapeMarkdownInline('*a* <b>\nc')).toBe('\\*a\\* \\<b\\> c');
  });
});
