/**
 * mcp-servers.json stays the source of truth: UI edits (add, edit, rename, duplicate, enable /
 * disable, remove) round-trip through the file keeping fields and entries the console does not
 * own; every field is validated with a readable message; hand edits are picked up live (only the
 * changed entry reconnects, removed ones close, added ones connect); a broken file is reported with
 * its line and the last good config stays in force.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryFromInput } from '../../main/servers/config-file.js';
import { SECRET_PLACEHOLDER, ServerEntryInputSchema } from '../../shared/contract/servers.js';
import { startManager } from './support.js';

const FILE = {
  globalShortcut: 'Ctrl+Space',
  mcpServers: {
    a: { command: 'node', args: ['a.js'], env: { API_KEY: 'sk-aaaa', MODE: 'x' }, autoApprove: ['echo'], alwaysAllow: true },
    b: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t0k', 'X-Team': 'blue' } },
    c: { command: 'node', args: ['c.js'], disabled: true },
  },
};
const text = JSON.stringify(FILE, null, 2);
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('UI edits write the file', () => {
  it('editing one entry keeps its unknown fields, other entries and top-level keys; only it reconnects', async () => {
    const f = await startManager(text);
    expect(f.live('a')?.connects).toBe(1);
    expect(f.live('c')).toBeUndefined(); // disabled: listed, no connection
    expect(f.manager.views().map((v) => [v.id, v.status])).toEqual([['a', 'ready'], ['b', 'ready'], ['c', 'disabled']]);

    const { entry, masked, otherKeys } = f.manager.entry('a');
    expect(masked).toEqual(['env.API_KEY']);
    expect(otherKeys).toEqual(['autoApprove', 'alwaysAllow']);
    expect(JSON.stringify(entry)).not.toContain('sk-aaaa');
    if (entry.transport !== 'stdio') throw new Error('a is a stdio server');
    f.manager.save({ id: 'a', previousId: 'a', entry: { ...entry, args: ['a.js', '--verbose'], env: { ...entry.env, MODE: 'y' } } });

    const after = read(f.path);
    expect(after.globalShortcut).toBe('Ctrl+Space');
    expect(after.mcpServers.a).toEqual({ command: 'node', args: ['a.js', '--verbose'], env: { API_KEY: 'sk-aaaa', MODE: 'y' }, autoApprove: ['echo'], alwaysAllow: true });
    expect(after.mcpServers.b).toEqual(FILE.mcpServers.b);
    expect(after.mcpServers.c).toEqual(FILE.mcpServers.c);
    expect(f.conns.filter((c) => c.id === 'a').map((c) => c.closed)).toEqual([true, false]);
    expect(f.conns.filter((c) => c.id === 'b')).toHaveLength(1);
    await f.manager.dispose();
  });

  it('add, rename (same position), duplicate (disabled), enable, disable, remove', async () => {
    const f = await startManager(text);
    f.manager.save({ id: 'new-http', entry: { transport: 'sse', url: 'https://sse.example.com/sse', headers: {} } });
    expect(read(f.path).mcpServers['new-http']).toEqual({ type: 'sse', url: 'https://sse.example.com/sse' });
    expect(f.live('new-http')?.connects).toBe(1);

    const { entry } = f.manager.entry('b');
    f.manager.save({ id: 'b2', previousId: 'b', entry });
    expect(Object.keys(read(f.path).mcpServers)).toEqual(['a', 'b2', 'c', 'new-http']);
    expect(read(f.path).mcpServers.b2.headers).toEqual({ Authorization: 'Bearer t0k', 'X-Team': 'blue' });
    expect(f.live('b')).toBeUndefined();

    expect(f.manager.duplicate('a')).toBe('a-copy');
    expect(read(f.path).mcpServers['a-copy']).toMatchObject({ command: 'node', autoApprove: ['echo'], disabled: true });

    f.manager.setEnabled('c', true);
    expect(read(f.path).mcpServers.c).toEqual({ command: 'node', args: ['c.js'] });
    expect(f.live('c')?.connects).toBe(1);
    f.manager.setEnabled('a', false);
    expect(read(f.path).mcpServers.a.disabled).toBe(true);
    expect(f.live('a')).toBeUndefined();

    f.manager.remove('new-http');
    expect(read(f.path).mcpServers['new-http']).toBeUndefined();
    expect(f.live('new-http')).toBeUndefined();
    await f.manager.dispose();
  });

  it('refuses bad input with a message naming the field, and never writes it', async () => {
    const f = await startManager(text);
    const before = readFileSync(f.path, 'utf8');
    const bad: Array<[unknown, string, RegExp]> = [
      [{ transport: 'stdio', command: '' }, 'x', /command: Command is required/],
      [{ transport: 'stdio', command: 'npx -y server' }, 'x', /put its arguments in Arguments/],
      [{ transport: 'stdio', command: 'node', env: { '1BAD': 'v' } }, 'x', /env\.1BAD: Environment variable names/],
      [{ transport: 'stdio', command: 'node', cwd: 'relative/dir' }, 'x', /cwd: Working directory must be an absolute path/],
      [{ transport: 'stdio', command: 'node', cwd: '/definitely/not/here' }, 'x', /cwd: Working directory "\/definitely\/not\/here" does not exist/],
      [{ transport: 'http', url: 'ftp://x' }, 'x', /url: URL must be a full http/],
      [{ transport: 'http', url: 'https://x', headers: { 'Bad Name': 'v' } }, 'x', /headers\.Bad Name: Header names/],
      [{ transport: 'http', url: 'https://x', timeoutMs: 5 }, 'x', /timeoutMs: Timeout must be at least 1000 ms/],
      [{ transport: 'http', url: 'https://x' }, ' spaced', /name: Name must not start or end with a space/],
      [{ transport: 'http', url: 'https://x' }, 'b', /a server named "b" already exists/],
    ];
    for (const [entry, id, message] of bad) expect(() => f.manager.save({ id, entry })).toThrow(message);
    expect(readFileSync(f.path, 'utf8')).toBe(before);
    await f.manager.dispose();
  });

  it('a masked secret sent back unchanged keeps the stored value; a new secret replaces it', () => {
    const input = ServerEntryInputSchema.parse({ transport: 'http', url: 'https://x', headers: { Authorization: SECRET_PLACEHOLDER } });
    expect(entryFromInput(input, { url: 'https://x', headers: { Authorization: 'Bearer old' } }).headers).toEqual({ Authorization: 'Bearer old' });
    const changed = ServerEntryInputSchema.parse({ transport: 'http', url: 'https://x', headers: { Authorization: 'Bearer new' } });
    expect(entryFromInput(changed, { url: 'https://x', headers: { Authorization: 'Bearer old' } }).headers).toEqual({ Authorization: 'Bearer new' });
    expect(() => entryFromInput(input, undefined)).toThrow(/headers\.Authorization: enter a value/);
  });
});

describe('hand edits are picked up live', () => {
  it('a changed entry reconnects only that server; removed → closed; added → connected', async () => {
    const f = await startManager(text, { watch: true });
    const edited = structuredClone(FILE) as { mcpServers: Record<string, unknown> };
    edited.mcpServers.a = { ...FILE.mcpServers.a, args: ['a.js', '--changed'] };
    delete edited.mcpServers.b;
    edited.mcpServers.d = { command: 'node', args: ['d.js'] };
    writeFileSync(f.path, JSON.stringify(edited, null, 2));
    await f.until(() => f.live('d') !== undefined && f.live('b') === undefined, 'the edit to apply');
    expect(f.conns.filter((c) => c.id === 'a')).toHaveLength(2);
    expect(f.live('a')?.config).toMatchObject({ args: ['a.js', '--changed'] });
    expect(f.conns.find((c) => c.id === 'b')?.closed).toBe(true);
    expect(f.manager.views().map((v) => v.id)).toEqual(['a', 'c', 'd']);
    await f.manager.dispose();
  });

  it('a broken file is reported with its line; the last good config stays; fixing it applies', async () => {
    const f = await startManager(text, { watch: true });
    writeFileSync(f.path, '{\n  "mcpServers": {\n    "a": { "command": "node", }\n  }\n}\n');
    await f.until(() => f.problems.length > 0, 'the problem to be reported');
    expect(f.problems[0]![0]).toMatch(/^mcp-servers\.json: line 3, column \d+: .* — the last good config stays in force\.$/);
    expect(f.notices[0]).toBe(f.problems[0]![0]);
    expect(f.manager.views().map((v) => v.id)).toEqual(['a', 'b', 'c']);
    expect(f.conns.every((c) => !c.closed)).toBe(true);

    writeFileSync(f.path, JSON.stringify({ mcpServers: { a: { url: 'not a url' } } }));
    await f.until(() => f.problems.length > 1, 'the schema problem');
    expect(f.problems[1]![0]).toMatch(/mcpServers\.a/);
    expect(f.manager.views().map((v) => v.id)).toEqual(['a', 'b', 'c']);
    // The file does not load, so no edit writes it (also one of another entry), and the refusal says where.
    expect(() => f.manager.save({ id: 'z', entry: { transport: 'http', url: 'https://z' } })).toThrow(/mcp-servers\.json: a\.url: .*fix the file first/);
    expect(readFileSync(f.path, 'utf8')).toBe(JSON.stringify({ mcpServers: { a: { url: 'not a url' } } }));

    await f.manager.dispose();
  });

  it('UI edits refuse to overwrite a broken file', async () => {
    const f = await startManager(text);
    writeFileSync(f.path, '{ "mcpServers": { ');
    expect(() => f.manager.save({ id: 'z', entry: { transport: 'http', url: 'https://z' } })).toThrow(/not valid JSON \(line 1, column \d+: .*\); fix the file first/);
    expect(readFileSync(f.path, 'utf8')).toBe('{ "mcpServers": { ');
    await f.manager.dispose();
  });
});
