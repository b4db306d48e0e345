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

/** The environment the next {@link cli} runs with (reset before each test). */
let env: NodeJS.ProcessEnv = {};

/** Runs the command line; what it wrote to stdout and stderr, and its exit code. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    version: '9.8.7',
    userDataDir: '/tmp/no-console-here',
    platform: 'linux',
    env,
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
  env = {};
  ran.bridges.length = 0;
  ran.routes.length = 0;
});

describe('help and version', () => {
  it.each([['--help'], ['-h'], ['help']])('%s on the command lists every command', async (flag) => {
    const { code, out, err } = await cli(flag);
    expect(code).toBe(EXIT.ok);
    expect(err).toBe('');
    expect(out).toMatch(/^Usage: mcp-approval-console \[options\] \[command\]/);
    for (const command of ['bridge', 'status', 'stop', 'open', 'doctor', 'serve', 'audit']) expect(out).toMatch(new RegExp(`\\n  ${command} `));
    expect(out).toMatch(/Exit codes: 0 done, 1 failed, 2 usage error, 3/);
  });

  it.each([['bridge'], ['bridge', 'install'], ['bridge', 'uninstall'], ['status'], ['stop'], ['open'], ['doctor'], ['serve'], ['audit'], ['audit', 'verify'], ['audit', 'anchor']])('--help and -h on %s', async (...words) => {
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
    expect(out).toMatch(/--console <url> +a team server/);
  });

  it('serve --help says what it serves, how beyond loopback, and the environment', async () => {
    const { out } = await cli('serve', '--help');
    for (const option of ['--database <url>', '--host <address>', '--port <n>', '--public-url <url>', '--tls-cert <file>', '--tls-key <file>', '--behind-tls-proxy', '--trusted-proxy <address>', '--data-dir <path>']) expect(out).toContain(option);
    expect(out).toContain('MCP_CONSOLE_DATABASE_URL');
    expect(out).toContain('MCP_CONSOLE_ADMIN_TOKEN');
    expect(out).toContain('docs/team-server.md');
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
    [['bridge', '--console', 'https://console.example.com', 'github'], /--console needs a token: --token <token>, or MCP_CONSOLE_TOKEN/],
    [['bridge', '--console', 'http://console.example.com', '--token', 't', 'github'], /must be https to reach another machine/],
    [['bridge', '--token', 't', 'github'], /--token goes with --console/],
    [['serve'], /serve needs the team database: --database postgres:\/\/… or MCP_CONSOLE_DATABASE_URL/],
    [['serve', '--database', 'mysql://db/x'], /must be a postgres:\/\/ URL/],
    [['serve', '--database', 'postgres://db/x', '--host', '0.0.0.0', '--port', '8080'], /refusing to listen on 0\.0\.0\.0:8080 without TLS/],
    [['serve', '--database', 'postgres://db/x', '--host', '0.0.0.0', '--port', '8080', '--behind-tls-proxy'], /--public-url is needed/],
    [['serve', '--database', 'postgres://db/x', '--tls-cert', 'c.pem'], /--tls-cert and --tls-key go together/],
    [['serve', '--database', 'postgres://db/x', '--trusted-proxy', '10.0.0.1'], /--trusted-proxy goes with --behind-tls-proxy/],
  ])('%j', async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(EXIT.usage);
    expect(out).toBe('');
    expect(err).toMatch(message);
    expect(ran.bridges).toEqual([]);
    expect(ran.routes).toEqual([]);
  });
});

describe('serve', () => {
  it('takes the team database from MCP_CONSOLE_DATABASE_URL when --database is not given, and checks it the same way', async () => {
    env = { MCP_CONSOLE_DATABASE_URL: 'mysql://db/x' };
    expect((await cli('serve')).err).toMatch(/must be a postgres:\/\/ URL/);
    env = { MCP_CONSOLE_DATABASE_URL: 'postgres://db/x' };
    const { code, err } = await cli('serve', '--host', '10.0.0.5', '--port', '8443');
    expect(code).toBe(EXIT.usage);
    expect(err).toMatch(/refusing to listen on 10\.0\.0\.5:8443 without TLS/); // the database was taken; the address refused
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

  it('bridge --console <url>: the token from --token, else MCP_CONSOLE_TOKEN — which is never taken without --console', async () => {
    await cli('bridge', '--console', 'https://console.example.com/', '--token', 'mcpgw_a', 'github');
    env = { MCP_CONSOLE_TOKEN: 'mcpgw_env' };
    await cli('bridge', '--console', 'https://console.example.com', '--', 'node', 'srv.js');
    await cli('bridge', 'github'); // the variable set for every bridge of a host: this one stays local
    expect(ran.bridges).toEqual([
      { target: { kind: 'named', name: 'github' }, serverId: 'github', remote: { url: 'https://console.example.com', token: 'mcpgw_a' } },
      { target: { kind: 'command', command: 'node', args: ['srv.js'] }, serverId: 'srv', remote: { url: 'https://console.example.com', token: 'mcpgw_env' } },
      { target: { kind: 'named', name: 'github' }, serverId: 'github' },
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
