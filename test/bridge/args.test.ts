/** The bridge's command line and the names it gives bridged servers. */
import { describe, expect, it } from 'vitest';
import { nameFromCommand, parseBridgeArgs } from '../../main/bridge/args.js';
import { bridgeCapabilities, hostAnswers } from '../../main/bridge/routing.js';

describe('bridge arguments', () => {
  it('bridge <name>: the entry of mcp-servers.json, named as it is', () => {
    expect(parseBridgeArgs(['github'])).toEqual({ target: { kind: 'named', name: 'github' }, serverId: 'github' });
  });

  it('bridge -- <command> <args…>: the whole command line after --, named after the package or script', () => {
    expect(parseBridgeArgs(['--', 'npx', '-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'])).toEqual({
      target: { kind: 'command', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'] },
      serverId: 'server-everything',
    });
    expect(parseBridgeArgs(['--name', 'mine', '--', 'node', 'dist/index.js', '--flag']).serverId).toBe('mine');
    expect(nameFromCommand('uvx', ['mcp-server-fetch'])).toBe('mcp-server-fetch');
    expect(nameFromCommand('/usr/local/bin/my-server', [])).toBe('my-server');
    expect(nameFromCommand('node', ['/srv/weather/server.mjs'])).toBe('server');
    expect(nameFromCommand('uv', ['run', 'weather.py'])).toBe('weather');
  });

  it('--sampling host|console chooses who answers sampling; anything else is refused', () => {
    expect(parseBridgeArgs(['--sampling', 'host', 'github'])).toEqual({ target: { kind: 'named', name: 'github' }, serverId: 'github', samplingTo: 'host' });
    expect(parseBridgeArgs(['--sampling', 'host', '--', 'uvx', 'x']).samplingTo).toBe('host');
    expect(() => parseBridgeArgs(['--sampling', 'nobody', 'github'])).toThrow(/console or host/);
    // The host answers sampling only when chosen and declared.
    expect(hostAnswers('sampling/createMessage', {}, { sampling: {} })).toBe(false);
    expect(hostAnswers('sampling/createMessage', {}, { sampling: {} }, 'host')).toBe(true);
    expect(hostAnswers('sampling/createMessage', {}, {}, 'host')).toBe(false);
  });

  it('bridge --url <url> [--sse]: named after the host', () => {
    expect(parseBridgeArgs(['--url', 'https://mcp.example.com/mcp'])).toEqual({ target: { kind: 'url', url: 'https://mcp.example.com/mcp', sse: false }, serverId: 'mcp.example.com' });
    expect(parseBridgeArgs(['--url', 'http://127.0.0.1:9000/sse', '--sse', '--name', 'local']).target).toEqual({ kind: 'url', url: 'http://127.0.0.1:9000/sse', sse: true });
  });

  it('says what is wrong in one line', () => {
    expect(() => parseBridgeArgs([])).toThrow(/usage/);
    expect(() => parseBridgeArgs(['a', 'b'])).toThrow(/one server name expected/);
    expect(() => parseBridgeArgs(['--'])).toThrow(/nothing after --/);
    expect(() => parseBridgeArgs(['--url'])).toThrow(/--url needs a value/);
    expect(() => parseBridgeArgs(['--url', 'ftp://x'])).toThrow(/http or https/);
    expect(() => parseBridgeArgs(['--bogus'])).toThrow(/unknown option/);
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
