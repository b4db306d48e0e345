import { describe, expect, it } from 'vitest';
import { findSystemNode, resolveNodeRuntime } from '../../app/electron/node-runtime.js';

const only = (...files: string[]) => (file: string) => files.includes(file);

describe('node runtime for "command": "node" servers', () => {
  it('unpackaged: Electron runs as Node (the runAsNode fuse is only flipped in release builds)', () => {
    const choice = resolveNodeRuntime({ isPackaged: false, execPath: '/dev/electron', env: {}, platform: 'linux', home: '/home/a', exists: () => false });
    expect(choice).toEqual({ runtime: { command: '/dev/electron', env: { ELECTRON_RUN_AS_NODE: '1' } }, source: 'electron-as-node' });
  });

  it('packaged: never ELECTRON_RUN_AS_NODE; the first node on PATH', () => {
    const choice = resolveNodeRuntime({
      isPackaged: true,
      execPath: '/opt/MCP Approval Console/mcp-approval-console',
      env: { PATH: 'relative/bin:/usr/bin:/home/a/.nvm/versions/node/v22/bin' },
      platform: 'linux',
      home: '/home/a',
      exists: only('/home/a/.nvm/versions/node/v22/bin/node', '/usr/local/bin/node'),
    });
    expect(choice).toEqual({ runtime: { command: '/home/a/.nvm/versions/node/v22/bin/node' }, source: 'system' });
    expect(JSON.stringify(choice)).not.toContain('ELECTRON_RUN_AS_NODE');
  });

  it('packaged macOS: finds Homebrew node that a GUI session PATH lacks', () => {
    expect(findSystemNode({ env: { PATH: '/usr/bin:/bin' }, platform: 'darwin', home: '/Users/a', exists: only('/opt/homebrew/bin/node') })).toBe('/opt/homebrew/bin/node');
  });

  it('packaged Windows: node.exe on Path, else the installer folder', () => {
    expect(findSystemNode({ env: { Path: 'C:\\Tools;C:\\nodejs' }, platform: 'win32', home: 'C:\\Users\\a', exists: only('C:\\nodejs\\node.exe') })).toBe('C:\\nodejs\\node.exe');
    expect(findSystemNode({ env: { Path: '', ProgramFiles: 'C:\\Program Files' }, platform: 'win32', home: 'C:\\Users\\a', exists: only('C:\\Program Files\\nodejs\\node.exe') })).toBe(
      'C:\\Program Files\\nodejs\\node.exe',
    );
  });

  it('packaged with no Node anywhere: says so plainly, and still does not fall back to Electron', () => {
    const choice = resolveNodeRuntime({ isPackaged: true, execPath: '/opt/app/app', env: { PATH: '/usr/bin' }, platform: 'linux', home: '/home/a', exists: () => false });
    expect(choice.runtime).toEqual({ command: 'node' });
    expect(choice.problem).toMatch(/No Node\.js was found.*Install Node\.js 22/);
  });
});
