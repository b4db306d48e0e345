/**
 * "Route through the console" in a host's own config file: the entry launches the bridge, every
 * other byte of the file stays, the previous file is kept, undo restores the original, and the
 * person's file is never written when it is broken or changed meanwhile.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { serverConfigFor } from '../../main/bridge/run.js';
import { isRouted, routedEntry, routedUrlEntry, routeServer, textDigest, unrouteServer } from '../../main/host-config/route.js';

const launcher = { command: '/opt/console/node', args: ['/opt/console/bridge.js'] };
const now = 1_700_000_000_000;

function hostFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'route-')), name);
  writeFileSync(path, text);
  return path;
}

const claude = `{
  "mcpServers": {
    "notes": {
      "command": "uvx",
      "args": ["notes-mcp", "--db", "~/notes.db"],
      "env": { "NOTES_TOKEN": "t0k" }
    },
    "web": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer x" } }
  },
  "globalShortcut": "Ctrl+Space"
}
`;

describe('the routed entry', () => {
  it('a stdio entry: the bridge, then its command line after --; env kept for the host to provide', () => {
    expect(routedEntry({ command: 'uvx', args: ['notes-mcp'], env: { A: '1' }, cwd: '/w' }, launcher)).toEqual({
      command: '/opt/console/node',
      args: ['/opt/console/bridge.js', 'bridge', '--', 'uvx', 'notes-mcp'],
      env: { A: '1' },
      cwd: '/w',
    });
  });

  it('an HTTP entry: --url, its headers in the environment (never on the command line); SSE says so; VS Code entries keep a type (stdio)', () => {
    expect(routedEntry({ type: 'sse', url: 'http://127.0.0.1:9/sse', headers: { 'X-Key': 'k' } }, launcher)).toEqual({
      type: 'stdio',
      command: '/opt/console/node',
      args: ['/opt/console/bridge.js', 'bridge', '--url', 'http://127.0.0.1:9/sse', '--sse'],
      env: { MCP_CONSOLE_BRIDGE_HEADERS: '{"X-Key":"k"}' },
    });
    // The bridge reads them back for the HTTP transport.
    expect(serverConfigFor({ kind: 'url', url: 'http://127.0.0.1:9/sse', sse: true }, '/nowhere', { MCP_CONSOLE_BRIDGE_HEADERS: '{"X-Key":"k"}' })).toEqual({ url: 'http://127.0.0.1:9/sse', type: 'sse', headers: { 'X-Key': 'k' } });
    expect(() => serverConfigFor({ kind: 'url', url: 'http://x', sse: false }, '/nowhere', { MCP_CONSOLE_BRIDGE_HEADERS: '[1]' })).toThrow(/JSON object/);
  });

  it('an entry already routed, or with nothing to run, is refused', () => {
    const routed = routedEntry({ command: 'x' }, launcher);
    expect(isRouted(routed)).toBe(true);
    expect(() => routedEntry(routed, launcher)).toThrow(/already launches/);
    expect(() => routedEntry({ args: [] }, launcher)).toThrow(/neither "command" nor "url"/);
  });
});

describe('routing in the host file', () => {
  it('rewrites only the entry (other servers, other keys, formatting kept), keeps a backup and the mode; undo restores the file exactly', () => {
    const path = hostFile('claude_desktop_config.json', claude);
    chmodSync(path, 0o640);
    const record = routeServer({ path, format: 'claude-desktop', name: 'notes', launcher, seen: textDigest(claude), now });
    const after = readFileSync(path, 'utf8');
    const data = JSON.parse(after);
    expect(data.mcpServers.notes.args).toEqual(['/opt/console/bridge.js', 'bridge', '--', 'uvx', 'notes-mcp', '--db', '~/notes.db']);
    expect(data.mcpServers.notes.env).toEqual({ NOTES_TOKEN: 't0k' });
    expect(after).toContain('"web": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer x" } }');
    expect(after.endsWith('  "globalShortcut": "Ctrl+Space"\n}\n')).toBe(true);
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(claude);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(record).toMatchObject({ name: 'notes', original: { command: 'uvx' }, at: now });
    unrouteServer(record);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(JSON.parse(claude));
  });

  it('a VS Code mcp.json keeps its comments', () => {
    const text = `{
  // my servers
  "servers": {
    "files": { "type": "stdio", "command": "npx", "args": ["-y", "@mcp/files"] } // the file server
  },
  "inputs": []
}
`;
    const path = hostFile('mcp.json', text);
    routeServer({ path, format: 'vscode', name: 'files', launcher, now });
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('// my servers');
    expect(after).toContain('// the file server');
    expect(after).toContain('"bridge"');
  });

  it('a broken file is never written; a file changed since it was shown is refused; an unknown entry is not found', () => {
    const broken = hostFile('claude_desktop_config.json', '{ "mcpServers": { "a": { "command": "x" }, }');
    expect(() => routeServer({ path: broken, format: 'claude-desktop', name: 'a', launcher, now })).toThrow(/cannot be read as JSON/);
    expect(readFileSync(broken, 'utf8')).toBe('{ "mcpServers": { "a": { "command": "x" }, }');
    const path = hostFile('claude_desktop_config.json', claude);
    expect(() => routeServer({ path, format: 'claude-desktop', name: 'notes', launcher, seen: textDigest('{}'), now })).toThrow(/changed since it was shown/);
    expect(readFileSync(path, 'utf8')).toBe(claude);
    expect(() => routeServer({ path, format: 'claude-desktop', name: 'nope', launcher, now })).toThrow(/no server "nope"/);
  });

  it('undo refuses when the person edited the routed entry meanwhile, and keeps their edit', () => {
    const path = hostFile('claude_desktop_config.json', claude);
    const record = routeServer({ path, format: 'claude-desktop', name: 'notes', launcher, now });
    const edited = readFileSync(path, 'utf8').replace('"--db"', '"--database"');
    writeFileSync(path, edited);
    expect(() => unrouteServer(record)).toThrow(/was edited since the console wrote it/);
    expect(readFileSync(path, 'utf8')).toBe(edited);
  });
});

describe('the URL form (hosts whose file takes URLs with headers)', () => {
  const target = { base: 'http://127.0.0.1:47615', token: 'a'.repeat(64), served: (name: string) => name === 'files' || name === 'notes' };
  const headers = { Authorization: `Bearer ${'a'.repeat(64)}` };

  it('per host format: VS Code and Claude Code say type http, Cursor takes url, Windsurf serverUrl; Claude Desktop and unknown names are refused', () => {
    expect(routedUrlEntry('vscode', 'files', target)).toEqual({ type: 'http', url: 'http://127.0.0.1:47615/mcp/files', headers });
    expect(routedUrlEntry('claude-code', 'files', target)).toEqual({ type: 'http', url: 'http://127.0.0.1:47615/mcp/files', headers });
    expect(routedUrlEntry('cursor', 'files', target)).toEqual({ url: 'http://127.0.0.1:47615/mcp/files', headers });
    expect(routedUrlEntry('windsurf', 'files', target)).toEqual({ serverUrl: 'http://127.0.0.1:47615/mcp/files', headers });
    expect(isRouted(routedUrlEntry('cursor', 'files', target))).toBe(true);
    expect(isRouted(routedUrlEntry('windsurf', 'files', target))).toBe(true);
    expect(() => routedUrlEntry('claude-desktop', 'files', target)).toThrow(/takes only commands/);
    expect(() => routedUrlEntry('cursor', 'other', target)).toThrow(/console has no server "other"/);
  });

  it('a VS Code mcp.json: comments kept, a backup, undo restores the entry (comments still there); a routed entry is not routed again', () => {
    const text = `{
  // my servers
  "servers": {
    "files": { "type": "stdio", "command": "npx", "args": ["-y", "@mcp/files"] } // the file server
  },
  "inputs": []
}
`;
    const path = hostFile('mcp.json', text);
    const record = routeServer({ path, format: 'vscode', name: 'files', how: 'url', url: target, seen: textDigest(text), now });
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('// my servers');
    expect(after).toContain('// the file server');
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(text);
    expect(record.routed).toEqual({ type: 'http', url: 'http://127.0.0.1:47615/mcp/files', headers });
    expect(() => routeServer({ path, format: 'vscode', name: 'files', how: 'url', url: target, now })).toThrow(/already launches/);
    expect(() => routeServer({ path, format: 'vscode', name: 'files', launcher, now })).toThrow(/already launches/);
    unrouteServer(record);
    const restored = readFileSync(path, 'utf8');
    expect(restored).toContain('// the file server');
    expect(parseJsonc(restored)).toEqual(parseJsonc(text));
  });

  it('refused when the file changed since it was shown, or when the console does not serve', () => {
    const text = '{ "mcpServers": { "notes": { "command": "uvx" } } }';
    const path = hostFile('mcp.json', text);
    expect(() => routeServer({ path, format: 'cursor', name: 'notes', how: 'url', url: target, seen: textDigest('{}'), now })).toThrow(/changed since it was shown/);
    expect(() => routeServer({ path, format: 'cursor', name: 'notes', how: 'url', now })).toThrow(/does not serve bridged servers/);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});
