/** The bridge's command line and the names it gives bridged servers. */
import { describe, expect, it } from 'vitest';
import { bridgeArgsFrom, formerNameFromCommand, nameFromCommand } from '../../main/bridge/args.js';
import { bridgeCapabilities, hostAnswers } from '../../main/bridge/routing.js';

describe('bridge arguments', () => {
  it('bridge <name>: the entry of mcp-servers.json, named as it is', () => {
    expect(bridgeArgsFrom({ operands: ['github'] })).toEqual({ target: { kind: 'named', name: 'github' }, serverId: 'github' });
  });

  it('bridge -- <command> <args…>: the whole command line after --, named after the package or script', () => {
    expect(bridgeArgsFrom({ operands: [], serverLine: ['npx', '-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'] })).toEqual({
      target: { kind: 'command', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'] },
      serverId: 'server-everything',
    });
    expect(bridgeArgsFrom({ name: 'mine', operands: [], serverLine: ['node', 'dist/index.js', '--flag'] })).toEqual({ target: { kind: 'command', command: 'node', args: ['dist/index.js', '--flag'] }, serverId: 'mine' });
  });

  it('--sampling host|console is kept', () => {
    expect(bridgeArgsFrom({ sampling: 'host', operands: ['github'] })).toEqual({ target: { kind: 'named', name: 'github' }, serverId: 'github', samplingTo: 'host' });
    expect(bridgeArgsFrom({ sampling: 'host', operands: [], serverLine: ['uvx', 'x'] }).samplingTo).toBe('host');
    // The host answers sampling only when chosen and declared.
    expect(hostAnswers('sampling/createMessage', {}, { sampling: {} })).toBe(false);
    expect(hostAnswers('sampling/createMessage', {}, { sampling: {} }, 'host')).toBe(true);
    expect(hostAnswers('sampling/createMessage', {}, {}, 'host')).toBe(false);
  });

  it('--console <url> and a token: a team server reviews; https unless it is this machine', () => {
    expect(bridgeArgsFrom({ console: 'https://console.example.com/', token: ' mcpgw_x ', operands: ['github'] })).toEqual({
      target: { kind: 'named', name: 'github' },
      serverId: 'github',
      remote: { url: 'https://console.example.com', token: 'mcpgw_x' },
    });
    expect(bridgeArgsFrom({ console: 'http://127.0.0.1:47620', token: 't', operands: ['github'] }).remote).toEqual({ url: 'http://127.0.0.1:47620', token: 't' });
    expect(bridgeArgsFrom({ console: 'http://localhost:47620', token: 't', operands: ['github'] }).remote?.url).toBe('http://localhost:47620');
    expect(() => bridgeArgsFrom({ console: 'http://console.example.com', token: 't', operands: ['g'] })).toThrow(/must be https to reach another machine/);
    expect(() => bridgeArgsFrom({ console: 'http://127.evil.example', token: 't', operands: ['g'] })).toThrow(/must be https/);
    expect(() => bridgeArgsFrom({ console: 'ws://console.example.com', token: 't', operands: ['g'] })).toThrow(/https address/);
    expect(() => bridgeArgsFrom({ console: 'not an address', token: 't', operands: ['g'] })).toThrow(/invalid --console address/);
    expect(() => bridgeArgsFrom({ console: 'https://console.example.com', token: '  ', operands: ['g'] })).toThrow(/needs a token/);
    expect(() => bridgeArgsFrom({ token: 't', operands: ['g'] })).toThrow(/--token goes with --console/);
  });

  it('bridge --url <url> [--sse]: named after the host', () => {
    expect(bridgeArgsFrom({ url: 'https://mcp.example.com/mcp', operands: [] })).toEqual({ target: { kind: 'url', url: 'https://mcp.example.com/mcp', sse: false }, serverId: 'mcp.example.com' });
    expect(bridgeArgsFrom({ url: 'http://127.0.0.1:9000/sse', sse: true, name: 'local', operands: [] }).target).toEqual({ kind: 'url', url: 'http://127.0.0.1:9000/sse', sse: true });
  });

  it('says what is wrong in one line', () => {
    expect(() => bridgeArgsFrom({ operands: [] })).toThrow(/name a server/);
    expect(() => bridgeArgsFrom({ operands: ['a', 'b'] })).toThrow(/one server name expected/);
    expect(() => bridgeArgsFrom({ operands: [], serverLine: [] })).toThrow(/nothing after --/);
    expect(() => bridgeArgsFrom({ url: 'ftp://x', operands: [] })).toThrow(/http or https/);
    expect(() => bridgeArgsFrom({ sse: true, operands: ['x'] })).toThrow(/--sse goes with --url/);
  });
});

describe('the name a bridged server gets from its command line', () => {
  const everything = '/home/ann/project/node_modules/@modelcontextprotocol/server-everything/dist/index.js';

  it.each([
    // a package in node_modules: the package, scoped or not
    [['node', everything, 'stdio'], 'server-everything', 'index'],
    [['node', '/srv/app/node_modules/weather-mcp/build/main.js'], 'weather-mcp', 'main'],
    [['node', 'C:\\Users\\ann\\node_modules\\@acme\\notes\\dist\\index.js'], 'notes', 'index'],
    [['/srv/app/node_modules/.bin/mcp-server-time'], 'mcp-server-time', 'mcp-server-time'],
    // a package runner: the package
    [['npx', '-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'], 'server-everything', 'server-everything'],
    [['uvx', 'mcp-server-fetch'], 'mcp-server-fetch', 'mcp-server-fetch'],
    [['uvx', '--from', 'git+https://github.com/acme/notes', 'notes-mcp'], 'notes-mcp', 'notes'],
    [['pnpm', 'dlx', 'server-x@1'], 'server-x', 'server-x'],
    [['docker', 'run', '-i', '--rm', '-e', 'TOKEN=x', 'ghcr.io/github/github-mcp-server:latest'], 'github-mcp-server', 'TOKEN-x'],
    // python -m: the module's first telling part
    [['python', '-m', 'mcp_server_git'], 'mcp_server_git', 'mcp_server_git'],
    [['python3', '-m', 'weather.server'], 'weather', 'weather.server'],
    // a script: its own name, or its folder when the name says nothing
    [['python', '/srv/weather/server.py'], 'weather', 'server'],
    [['node', '/home/ann/calendar/dist/index.js'], 'calendar', 'index'],
    [['uv', 'run', 'weather.py'], 'weather', 'weather'],
    [['uv', 'run', '--directory', '/home/ann/mcp/notes', 'main.py'], 'notes', 'notes'],
    [['deno', 'run', '-A', 'jsr:@acme/notes-mcp'], 'notes-mcp', 'notes-mcp'],
    [['python', '/home/ann/server.py'], 'server', 'server'],
    [['/usr/local/bin/my-server'], 'my-server', 'my-server'],
  ])('%j → %s (formerly %s)', (line, name, former) => {
    const [command, ...args] = line as [string, ...string[]];
    expect(nameFromCommand(command, args)).toBe(name);
    expect(formerNameFromCommand(command, args)).toBe(former);
    const parsed = bridgeArgsFrom({ operands: [], serverLine: line as string[] });
    expect(parsed.serverId).toBe(name);
    expect(parsed.formerly).toEqual(name === former ? undefined : [former]);
  });

  it('a relative script is named from the folder it runs in', () => {
    expect(nameFromCommand('node', ['dist/index.js'], '/home/ann/weather')).toBe('weather');
    expect(nameFromCommand('python', ['server.py'], '/home/ann')).toBe('server');
  });
});

describe('bridge routing', () => {
  it('declares sampling (tools), elicitation (form, url) and roots on top of the host, without tasks', () => {
    expect(bridgeCapabilities({ experimental: { x: {} }, tasks: { requests: {} }, roots: { listChanged: true } })).toEqual({
      experimental: { x: {} },
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
    });
    expect(bridgeCapabilities(undefined).roots).toEqual({ listChanged: true }); // the console's roots, whose changes the bridge announces
  });

  it('elicitation goes to the host only in a mode it declared; roots when it declared roots; sampling never', () => {
    expect(hostAnswers('elicitation/create', { mode: 'form' }, { elicitation: {} })).toBe(true);
    expect(hostAnswers('elicitation/create', { mode: 'url' }, { elicitation: {} })).toBe(false);
    expect(hostAnswers('elicitation/create', { mode: 'url' }, { elicitation: { url: {} } })).toBe(true);
    expect(hostAnswers('elicitation/create', {}, { elicitation: { url: {} } })).toBe(false);
    expect(hostAnswers('elicitation/create', {}, {})).toBe(false);
    expect(hostAnswers('roots/list', {}, { roots: {} })).toBe(true);
    expect(hostAnswers('roots/list', {}, {})).toBe(false);
    expect(hostAnswers('sampling/createMessage', {}, { sampling: {} })).toBe(false);
  });
});
