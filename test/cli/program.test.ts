/**
 * The `mcp-approval-console` command line as people type it: help and version everywhere, usage
 * errors on stderr with exit 2, every form of `bridge` the hosts' configs already hold, and the
 * server's own command line after `--` left alone. The bridge and routing themselves are replaced
 * by recorders here (they have their own tests).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_FILE, openSqliteAuditStore } from '../../main/audit/sqlite-store.js';
import { createAuditTrail } from '../../main/audit/trail.js';
import { silentLogger } from '../../main/logger.js';
import type { BridgeArgs } from '../../main/bridge/args.js';
import type { RouteCommand } from '../../main/host-config/route-cli.js';

const ran = vi.hoisted(() => ({ bridges: [] as unknown[], routes: [] as unknown[] }));
vi.mock('../../app/bridge/command.js', () => ({
  runBridgeTarget: async (args: BridgeArgs) => (ran.bridges.push(args), 0),
  runRoute: async (command: RouteCommand) => (ran.routes.push(command), 0),
}));

const { runCli, EXIT } = await import('../../app/cli/program.js');

/** Runs the command line; what it wrote to stdout and stderr, and its exit code. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    version: '9.8.7',
    userDataDir: '/tmp/no-console-here',
    platform: 'linux',
    env: {},
    cwd: '/work',
    installRoot: '/nowhere',
    nodeVersion: '22.14.0',
    launcher: { command: '/usr/bin/node', args: ['/x/mcp-approval-console.mjs'] },
    consoleLaunch: { command: '/usr/bin/node', args: ['/x/cli.js'] },
    out: (t) => (out += t),
    err: (t) => (err += t),
    openUrl: async () => false,
  });
  return { code, out, err };
}

beforeEach(() => {
  ran.bridges.length = 0;
  ran.routes.length = 0;
});

describe('help and version', () => {
  it.each([['--help'], ['-h'], ['help']])('%s on the command lists every command', async (flag) => {
    const { code, out, err } = await cli(flag);
    expect(code).toBe(EXIT.ok);
    expect(err).toBe('');
    expect(out).toMatch(/^Usage: mcp-approval-console \[options\] \[command\]/);
    for (const command of ['bridge', 'status', 'stop', 'open', 'doctor', 'audit']) expect(out).toMatch(new RegExp(`\\n  ${command} `));
    expect(out).toMatch(/Exit codes: 0 done, 1 failed, 2 usage error, 3/);
  });

  it.each([['bridge'], ['bridge', 'install'], ['bridge', 'uninstall'], ['status'], ['stop'], ['open'], ['doctor'], ['audit'], ['audit', 'verify'], ['audit', 'anchor']])('--help and -h on %s', async (...words) => {
    for (const flag of ['--help', '-h']) {
      const { code, out } = await cli(...words, flag);
      expect(code).toBe(EXIT.ok);
      expect(out).toMatch(new RegExp(`^Usage: mcp-approval-console ${words.join(' ')} `));
    }
    expect((await cli('help', ...words.slice(0, 1))).out).toMatch(new RegExp(`^Usage: mcp-approval-console ${words[0]} `));
    expect(ran.bridges).toEqual([]);
  });

  it('bridge --help names every form and what follows --', async () => {
    const { out } = await cli('bridge', '--help');
    expect(out).toContain('bridge [options] -- <command> [args...]');
    expect(out).toContain('bridge [options] --url <url> [--sse]');
    expect(out).toContain('bridge install|uninstall');
    expect(out).toContain("Everything after -- is the server's own command line");
  });

  it.each([['--version'], ['-V']])('%s prints the version', async (flag) => {
    expect(await cli(flag)).toEqual({ code: EXIT.ok, out: '9.8.7\n', err: '' });
  });
});

describe('usage errors: stderr, exit 2, nothing run', () => {
  it.each([
    [[], /Usage: mcp-approval-console/],
    [['bogus'], /unknown command 'bogus'/],
    [['--bogus'], /unknown option '--bogus'/],
    [['bridge'], /name a server of mcp-servers.json, or give --url or -- <command>/],
    [['bridge', '--bogus', 'x'], /unknown option '--bogus'[\s\S]*see mcp-approval-console bridge --help/],
    [['bridge', 'a', 'b'], /one server name expected, got 2/],
    [['bridge', '--'], /nothing after --/],
    [['bridge', '--name'], /option '--name <id>' argument missing/],
    [['bridge', '--url'], /option '--url <url>' argument missing/],
    [['bridge', '--url', 'ftp://x'], /http or https/],
    [['bridge', '--url', 'https://x.example', 'github'], /--url takes no server name/],
    [['bridge', 'github', '--', 'node', 's.js'], /-- cannot follow --url or a server name/],
    [['bridge', '--sampling', 'nobody', 'github'], /argument 'nobody' is invalid. Allowed choices are console, host/],
    [['bridge', 'install', '--host', 'emacs', '--server', 'x'], /Allowed choices are claude-desktop, claude-code, windsurf, cursor, vscode/],
    [['bridge', 'install', '--host', 'cursor'], /required option '--server <name>' not specified/],
    [['bridge', 'uninstall', '--server', 'x'], /required option '--host <host>' not specified/],
    [['status', 'extra'], /too many arguments/],
    [['stop', '--timeout', '0'], /positive number of seconds/],
  ])('%j', async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(EXIT.usage);
    expect(out).toBe('');
    expect(err).toMatch(message);
    expect(ran.bridges).toEqual([]);
    expect(ran.routes).toEqual([]);
  });
});

describe('bridge: every form hosts already launch', () => {
  it('bridge <name>, with options before or after it', async () => {
    await cli('bridge', 'github');
    await cli('bridge', 'github', '--sampling', 'host');
    await cli('bridge', '--sampling=console', '--name=gh', 'github');
    expect(ran.bridges).toEqual([
      { target: { kind: 'named', name: 'github' }, serverId: 'github' },
      { target: { kind: 'named', name: 'github' }, serverId: 'github', samplingTo: 'host' },
      { target: { kind: 'named', name: 'github' }, serverId: 'gh', samplingTo: 'console' },
    ]);
  });

  it('bridge [--name <id>] -- <command> [args…]: everything after -- is the server\'s, --help and -h included', async () => {
    expect((await cli('bridge', '--', 'node', 'server.js', '--help')).code).toBe(EXIT.ok);
    await cli('bridge', '--name', 'mine', '--sampling', 'host', '--', 'python', '-m', 'srv', '-h', '--version', '--', 'x');
    await cli('bridge', '--', 'bridge', '--name', 'inner');
    expect(ran.bridges).toEqual([
      { target: { kind: 'command', command: 'node', args: ['server.js', '--help'] }, serverId: 'work', formerly: ['server'] }, // a generic script name: its folder (the working folder)
      { target: { kind: 'command', command: 'python', args: ['-m', 'srv', '-h', '--version', '--', 'x'] }, serverId: 'mine', samplingTo: 'host' },
      { target: { kind: 'command', command: 'bridge', args: ['--name', 'inner'] }, serverId: 'bridge' },
    ]);
  });

  it('bridge [--name <id>] --url <url> [--sse]', async () => {
    await cli('bridge', '--url', 'https://mcp.example.com/mcp');
    await cli('bridge', '--url', 'http://127.0.0.1:9000/sse', '--sse', '--name', 'local');
    expect(ran.bridges).toEqual([
      { target: { kind: 'url', url: 'https://mcp.example.com/mcp', sse: false }, serverId: 'mcp.example.com' },
      { target: { kind: 'url', url: 'http://127.0.0.1:9000/sse', sse: true }, serverId: 'local' },
    ]);
  });

  it('bridge install|uninstall --host … --server … [--file …] [--url-form]', async () => {
    await cli('bridge', 'install', '--host', 'claude-desktop', '--server', 'notes');
    await cli('bridge', 'install', '--url-form', '--host', 'cursor', '--server', 'notes', '--file', '/h/mcp.json');
    await cli('bridge', 'uninstall', '--host', 'cursor', '--server', 'notes', '--url-form');
    expect(ran.routes).toEqual([
      { action: 'install', host: 'claude-desktop', server: 'notes' },
      { action: 'install', host: 'cursor', server: 'notes', file: '/h/mcp.json', how: 'url' },
      { action: 'uninstall', host: 'cursor', server: 'notes' },
    ]);
  });
});

describe('audit', () => {
  it('anchor then verify on a data folder; anchor with no folder is a usage error; a missing trail fails verify', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-audit-'));
    try {
      const trail = createAuditTrail(openSqliteAuditStore(join(dir, AUDIT_FILE)), { logger: silentLogger, now: Date.now });
      trail.record({ actor: { kind: 'person' }, kind: 'sampling.request_rejected', subject: 'item:1', details: {} });
      await trail.close();
      const anchors = join(dir, 'anchors');
      expect(await cli('audit', 'anchor', '--data-dir', dir)).toMatchObject({ code: EXIT.usage, err: expect.stringContaining('no anchor folder') });
      expect(await cli('audit', 'anchor', '--to', anchors, '--data-dir', dir)).toMatchObject({ code: EXIT.ok, out: expect.stringContaining('Anchored record 1') });
      const verified = await cli('audit', 'verify', '--anchors', anchors, '--public-key', join(anchors, readdirSync(anchors).find((f) => f.endsWith('.pem'))!), '--data-dir', dir, '--json');
      expect(verified.code).toBe(EXIT.ok);
      expect(JSON.parse(verified.out)).toMatchObject({ intact: true, records: 1, anchors: { checked: 1 } });
      expect(await cli('audit', 'verify', '--data-dir', join(dir, 'elsewhere'))).toMatchObject({ code: EXIT.failure, err: expect.stringContaining('There is no audit trail') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
