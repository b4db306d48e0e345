import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServersConfig, parseServersConfig } from '../../main/config.js';

describe('servers config (mcpServers format)', () => {
  it('creates the embedded default (server-everything over stdio from node_modules) when missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const loaded = loadServersConfig(dir);
    expect(loaded.createdDefault).toBe(true);
    const everything = loaded.servers.everything as { command: string; args: string[] };
    expect(everything.command).toBe('node');
    expect(everything.args[0]).toMatch(/node_modules\/@modelcontextprotocol\/server-everything\/dist\/index\.js$/);
    expect(everything.args[1]).toBe('stdio');
    expect(JSON.parse(readFileSync(loaded.path, 'utf8'))).toEqual({ mcpServers: loaded.servers });
    expect(loadServersConfig(dir).createdDefault).toBe(false);
  });

  it('accepts Claude Desktop entries (command/args/env/cwd) and url entries', () => {
    const { servers, problems } = parseServersConfig(
      JSON.stringify({ mcpServers: { a: { command: 'npx', args: ['-y', 'x'], env: { K: 'v' }, cwd: '/tmp' }, b: { url: 'http://127.0.0.1:3000/mcp', headers: { A: 'b' } }, c: { type: 'sse', url: 'https://example.com/sse' } } }),
      'f.json',
    );
    expect(problems).toEqual([]);
    expect(Object.keys(servers)).toEqual(['a', 'b', 'c']);
  });

  it('a broken file is reported with its line, never overwritten, and starts no servers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n';
    writeFileSync(join(dir, 'mcp-servers.json'), text);
    const loaded = loadServersConfig(dir);
    expect(loaded.servers).toEqual({});
    expect(loaded.problems[0]).toMatch(/mcp-servers\.json: line 3/);
    expect(readFileSync(join(dir, 'mcp-servers.json'), 'utf8')).toBe(text);
  });

  it('schema problems name the field', () => {
    const { problems } = parseServersConfig(JSON.stringify({ mcpServers: { a: { url: 'ftp://x' } } }), 'f.json');
    expect(problems.join('\n')).toMatch(/f\.json: mcpServers\.a/);
  });
});
