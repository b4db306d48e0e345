import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { defaultUserDataDir, parseWebCliOptions, WEB_USAGE } from '../../app/web/options.js';
import { RUNNING_LINE_PREFIX, runWebConsole } from '../../app/web/run.js';
import type { ConsolePorts } from '../../main/ports.js';
import { rendererCsp } from '../../app/csp.js';
import { createFakeService } from '../support/fake-service.js';
import { get, makeStaticDir } from './helpers.js';

describe('web CLI options', () => {
  it('defaults the user-data folder per OS like Electron', () => {
    expect(defaultUserDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config/mcp-approval-console');
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ann')).toBe('/xdg/mcp-approval-console');
    expect(defaultUserDataDir('darwin', {}, '/Users/ann')).toBe('/Users/ann/Library/Application Support/mcp-approval-console');
    expect(defaultUserDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\mcp-approval-console',
    );
  });

  it('reads port and folder from env and arguments (arguments win)', () => {
    expect(parseWebCliOptions([], {}, 'linux', '/h')).toEqual({ port: 0, userDataDir: '/h/.config/mcp-approval-console' });
    expect(parseWebCliOptions([], { MCP_CONSOLE_PORT: '4100', MCP_CONSOLE_USER_DATA: '/data/c' }, 'linux', '/h')).toEqual({
      port: 4100,
      userDataDir: '/data/c',
    });
    expect(parseWebCliOptions(['--port', '4200'], { MCP_CONSOLE_PORT: '4100' }, 'linux', '/h').port).toBe(4200);
    expect(parseWebCliOptions(['--port=0'], {}, 'linux', '/h').port).toBe(0);
    expect(path.isAbsolute(parseWebCliOptions([], { MCP_CONSOLE_USER_DATA: 'rel/dir' }, 'linux', '/h').userDataDir)).toBe(true);
  });

  it('--help and -h ask for the help; the usage names --port', () => {
    expect(parseWebCliOptions(['--help'], {}, 'linux', '/h').help).toBe(true);
    expect(parseWebCliOptions(['-h', '--port', '3'], {}, 'linux', '/h')).toMatchObject({ help: true, port: 3 });
    expect(WEB_USAGE).toMatch(/--port <n>/);
  });

  it.each([[['--port']], [['--port', 'abc']], [['--port', '70000']], [['--port', '-1']], [['--port', '1.5']], [['--open']], [['extra']]])(
    'refuses %j',
    (argv) => {
      expect(() => parseWebCliOptions(argv, {}, 'linux', '/h')).toThrow();
    },
  );
});

describe('runWebConsole', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('creates the console as the web host, prints the URL line, serves, and disposes on stop', async () => {
    const dir = makeStaticDir();
    const userDataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcp-console-ud-')), 'nested');
    cleanups.push(() => dir.cleanup(), () => rmSync(path.dirname(userDataDir), { recursive: true, force: true }));
    const fake = createFakeService();
    let ports: ConsolePorts | null = null;
    let disposed = 0;
    const lines: string[] = [];
    const running = await runWebConsole({
      userDataDir,
      port: 0,
      staticDir: dir.staticDir,
      print: (l) => lines.push(l),
      createConsole: async (p) => {
        ports = p;
        return { service: fake.service, items: () => [], ready: Promise.resolve(), dispose: async () => void disposed++ };
      },
    });
    expect(ports).toMatchObject({ host: 'web', userDataDir, nodeRuntime: { command: process.execPath } });
    expect(existsSync(userDataDir)).toBe(true);
    expect(lines).toHaveLength(1);
    const m = /^MCP Approval Console is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43}))$/.exec(lines[0]!);
    expect(m).not.toBeNull();
    expect(lines[0]!.startsWith(RUNNING_LINE_PREFIX)).toBe(true);
    const port = Number(m![2]);
    expect((await get(port, `/?token=${m![3]}`)).status).toBe(200);

    const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${m![3]}`, { origin: `http://127.0.0.1:${port}` });
    const reply = new Promise<unknown>((resolve) => ws.on('message', (d) => resolve(JSON.parse(String(d)))));
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'getState', input: {} })));
    expect(await reply).toMatchObject({ id: 1, reply: { ok: true } });

    await Promise.all([running.stop(), running.stop()]);
    expect(disposed).toBe(1);
    await expect(get(port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('fails clearly when the renderer is not built, before creating the console', async () => {
    let created = false;
    await expect(
      runWebConsole({
        userDataDir: os.tmpdir(),
        port: 0,
        staticDir: path.join(os.tmpdir(), 'definitely-not-built'),
        print: () => {},
        createConsole: async () => {
          created = true;
          throw new Error('unreachable');
        },
      }),
    ).rejects.toThrow(/npm run build/);
    expect(created).toBe(false);
  });

  it('without a built renderer but able to build it: the console starts first (bridges reach its queue), the page once built', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-unbuilt-'));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const staticDir = path.join(base, 'renderer');
    const fake = createFakeService();
    const steps: string[] = [];
    const lines: string[] = [];
    let ports: ConsolePorts | undefined;
    const running = await runWebConsole({
      userDataDir: path.join(base, 'data'),
      port: 0,
      staticDir,
      print: (l) => lines.push(l),
      note: (l) => steps.push(`note: ${l}`),
      createConsole: async (p) => {
        ports = p;
        steps.push('console');
        return { service: fake.service, items: () => [], ready: Promise.resolve(), dispose: async () => void steps.push('disposed') };
      },
      buildRenderer: async () => {
        steps.push(`build (page address: ${ports!.pageAddress!() ?? 'none yet'})`);
        mkdirSync(staticDir, { recursive: true });
        writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>built</title>');
      },
    });
    cleanups.push(() => running.stop());
    expect(steps).toEqual(['console', expect.stringMatching(/^note: The renderer is not built yet/), 'build (page address: none yet)', 'note: The renderer is built.']);
    expect(ports!.pageAddress!()).toBe(running.host.url);
    expect(lines).toEqual([`${RUNNING_LINE_PREFIX}${running.host.url}`]);
    expect((await get(running.host.port, `/?token=${new URL(running.host.url).searchParams.get('token')}`)).body).toContain('built');
  });

  it('a failed build disposes the console and says to run npm run build; an aborted start disposes it too', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-unbuilt-'));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const fake = createFakeService();
    let disposed = 0;
    const start = (buildRenderer: (signal: AbortSignal) => Promise<void>, signal?: AbortSignal) =>
      runWebConsole({
        userDataDir: base,
        port: 0,
        staticDir: path.join(base, 'renderer'),
        print: () => {},
        buildRenderer,
        ...(signal && { signal }),
        createConsole: async () => ({ service: fake.service, items: () => [], ready: Promise.resolve(), dispose: async () => void disposed++ }),
      });
    await expect(start(async () => Promise.reject(new Error('vite build exited with 1')))).rejects.toThrow(/building it failed \(vite build exited with 1\): run `npm run build`/);
    expect(disposed).toBe(1);
    const aborter = new AbortController();
    const aborted = start((signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('the renderer build was stopped')))), aborter.signal);
    await new Promise((r) => setTimeout(r, 10));
    aborter.abort();
    await expect(aborted).rejects.toThrow(/stopped/);
    expect(disposed).toBe(2);
  });

  it('disposes the console when the port is taken', async () => {
    const dir = makeStaticDir();
    cleanups.push(() => dir.cleanup());
    const fake = createFakeService();
    const first = await runWebConsole({
      userDataDir: os.tmpdir(),
      port: 0,
      staticDir: dir.staticDir,
      print: () => {},
      createConsole: async () => ({ service: fake.service, items: () => [], ready: Promise.resolve(), dispose: async () => {} }),
    });
    cleanups.push(() => first.stop());
    let disposed = false;
    await expect(
      runWebConsole({
        userDataDir: os.tmpdir(),
        port: first.host.port,
        staticDir: dir.staticDir,
        print: () => {},
        createConsole: async () => ({ service: fake.service, items: () => [], ready: Promise.resolve(), dispose: async () => void (disposed = true) }),
      }),
    ).rejects.toThrow(/EADDRINUSE/);
    expect(disposed).toBe(true);
  });
});

describe('rendererCsp', () => {
  it('refuses sources that could inject directives', () => {
    expect(() => rendererCsp(["ws://x; script-src 'unsafe-inline'"])).toThrow();
    expect(() => rendererCsp(['a b'])).toThrow();
    expect(rendererCsp()).toContain("connect-src 'self';");
  });
});
