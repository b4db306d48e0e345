/**
 * `mcp-approval-console bridge install|uninstall` as a person runs it: the real command (the
 * package's script) against a Claude Desktop file in a temp HOME, then undone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve(import.meta.dirname, '../../scripts/mcp-approval-console.mjs');

describe('bridge install / uninstall', () => {
  it('routes the entry in the host file found in HOME, and puts it back', () => {
    const home = mkdtempSync(join(tmpdir(), 'route-cli-'));
    const file = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    const text = JSON.stringify({ mcpServers: { notes: { command: 'uvx', args: ['notes-mcp'] } } }, null, 2);
    writeFileSync(file, text);
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), MCP_CONSOLE_USER_DATA: join(home, 'console') };
    const run = (...args: string[]) => execFileSync(process.execPath, [script, 'bridge', ...args, '--host', 'claude-desktop', '--server', 'notes'], { env, encoding: 'utf8' });
    expect(run('install')).toMatch(/now runs through MCP Approval Console/);
    const routed = JSON.parse(readFileSync(file, 'utf8')).mcpServers.notes;
    expect(routed.command).toBe(process.execPath);
    expect(routed.args).toEqual([script, 'bridge', '--', 'uvx', 'notes-mcp']);
    expect(run('uninstall')).toMatch(/back to its original entry/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(text));
  }, 60_000);
});

describe('bridge install --url-form', () => {
  it("writes the console's URL for its own server, with the token, at the configured gateway port; uninstall puts the entry back", () => {
    const home = mkdtempSync(join(tmpdir(), 'route-cli-url-'));
    const data = join(home, 'console');
    mkdirSync(data);
    writeFileSync(join(data, 'mcp-servers.json'), JSON.stringify({ mcpServers: { notes: { command: 'uvx', args: ['notes-mcp'] } } }));
    writeFileSync(join(data, 'gateway.json'), JSON.stringify({ port: 48000, tokens: [] }));
    const file = join(home, 'mcp.json');
    const text = JSON.stringify({ mcpServers: { notes: { command: 'uvx', args: ['notes-mcp'] } } }, null, 2);
    writeFileSync(file, text);
    const env = { ...process.env, HOME: home, MCP_CONSOLE_USER_DATA: data, MCP_CONSOLE_GATEWAY_PORT: '' };
    const run = (...args: string[]) => execFileSync(process.execPath, [script, 'bridge', ...args, '--host', 'cursor', '--server', 'notes', '--file', file], { env, encoding: 'utf8' });
    expect(run('install', '--url-form')).toMatch(/now runs through MCP Approval Console/);
    const token = readFileSync(join(data, 'bridge-http-token'), 'utf8').trim();
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers.notes).toEqual({ url: 'http://127.0.0.1:48000/mcp/notes', headers: { Authorization: `Bearer ${token}` } });
    expect(run('uninstall')).toMatch(/back to its original entry/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(text));
  }, 60_000);
});
