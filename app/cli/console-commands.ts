/**
 * `mcp-approval-console status|stop|open`: the console running on a data folder, asked over the
 * bridge channel's owner-only socket (main/bridge/control.ts). A console that holds the data
 * folder (console.lock) but does not answer there is reported as such, and `stop` then sends its
 * process SIGTERM — the same graceful shutdown.
 */
import type { ConsoleStatus } from '../../shared/contract/bridge-protocol.js';
import { askConsole, ConsoleNotRunning } from '../../main/bridge/control.js';
import { folderLockHolder } from '../../main/console/folder-lock.js';
import { systemProcessProbe, type ProcessProbe } from '../../main/servers/leftover-processes.js';
import { EXIT } from './exit-codes.js';

/** What the console commands run with. */
export interface ConsoleCommandContext {
  /** The console's data folder. */
  userDataDir: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Where output for the person goes (stdout). */
  out(text: string): void;
  /** Where problems go (stderr). */
  err(text: string): void;
  /** Opens `url` in the person's browser; resolves false when there is no browser to open here. */
  openUrl(url: string): Promise<boolean>;
  /** How the OS is asked whether a process still runs (default: this machine's). */
  probe?: ProcessProbe;
}

/** Whether process `pid` runs (signal 0; EPERM: someone else's, alive). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The console's status, `not running`, or a console that holds the folder but does not answer (pid and why). */
type Asked = { kind: 'running'; status: ConsoleStatus } | { kind: 'not_running' } | { kind: 'silent'; pid?: number; why: string };

/** Asks the console on the data folder (see {@link askConsole}), telling "not running" from "running but not answering". */
async function ask(ctx: ConsoleCommandContext, action: 'status' | 'stop' | 'show'): Promise<Asked> {
  try {
    return { kind: 'running', status: await askConsole(ctx.userDataDir, action, { platform: ctx.platform }) };
  } catch (err) {
    const pid = folderLockHolder(ctx.userDataDir, ctx.probe ?? systemProcessProbe(ctx.platform));
    if (err instanceof ConsoleNotRunning && pid === undefined) return { kind: 'not_running' };
    return { kind: 'silent', ...(pid !== undefined && { pid }), why: (err as Error).message };
  }
}

/** "3 requests", "1 request". */
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The status for a person, one fact a line. */
function statusLines(s: ConsoleStatus): string {
  const host = s.host === 'electron' ? 'desktop app' : s.host === 'web' ? 'browser host' : s.host;
  const servers = s.servers.map((v) => (v.source === 'bridge' ? `${v.id} (through the bridge${v.via ? `, from ${v.via}` : ''})` : `${v.id} (${v.status})`));
  return [
    `MCP Approval Console is running (pid ${s.pid}, ${host}, since ${new Date(s.startedAt).toLocaleString()})`,
    `  data folder  ${s.dataDir}`,
    `  page         ${s.address ?? (s.host === 'electron' ? 'the desktop app\'s window' : 'not served yet (the renderer is being built)')}`,
    `  waiting      ${plural(s.waiting, 'request')} for a person`,
    ...(s.gateway ? [`  gateway      ${s.gateway}`] : []),
    `  servers      ${servers.length > 0 ? servers.join(', ') : 'none'}`,
  ].join('\n');
}

/** The status as JSON for scripts: `running`, and the console's facts when it runs. */
function statusJson(asked: Asked, dataDir: string): string {
  if (asked.kind === 'running') {
    const { type: _type, stopping: _stopping, shown: _shown, ...facts } = asked.status;
    return JSON.stringify({ running: true, ...facts }, null, 2);
  }
  if (asked.kind === 'silent') return JSON.stringify({ running: true, answering: false, dataDir, ...(asked.pid !== undefined && { pid: asked.pid }), error: asked.why }, null, 2);
  return JSON.stringify({ running: false, dataDir }, null, 2);
}

/** A console holds the folder but does not answer: said on stderr. */
function saySilent(ctx: ConsoleCommandContext, asked: { pid?: number; why: string }): void {
  ctx.err(`A console holds ${ctx.userDataDir}${asked.pid !== undefined ? ` (pid ${asked.pid})` : ''} but does not answer: ${asked.why}\n`);
}

/**
 * `status`: prints whether a console runs on the data folder.
 * @returns 0 running, 3 not running, 1 running but not answering
 */
export async function statusCommand(ctx: ConsoleCommandContext, opts: { json: boolean }): Promise<number> {
  const asked = await ask(ctx, 'status');
  if (opts.json) ctx.out(`${statusJson(asked, ctx.userDataDir)}\n`);
  if (asked.kind === 'running') {
    if (!opts.json) ctx.out(`${statusLines(asked.status)}\n`);
    return EXIT.ok;
  }
  if (asked.kind === 'silent') {
    if (!opts.json) saySilent(ctx, asked);
    return EXIT.failure;
  }
  if (!opts.json) ctx.out(`MCP Approval Console is not running on ${ctx.userDataDir}\n`);
  return EXIT.notRunning;
}

/** Resolves true once `pid` has exited, false when it still runs after `timeoutMs`. */
async function exits(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * `stop`: asks the console to shut down (as on SIGTERM: requests under review are answered,
 * servers closed, console.lock removed) and waits until its process has exited; a console that
 * holds the folder but does not answer is sent SIGTERM.
 * @returns 0 stopped (or none was running), 1 it did not exit within `timeoutMs` or could not be asked
 */
export async function stopCommand(ctx: ConsoleCommandContext, opts: { timeoutMs: number }): Promise<number> {
  const asked = await ask(ctx, 'stop');
  let pid: number;
  if (asked.kind === 'not_running') {
    ctx.out(`MCP Approval Console is not running on ${ctx.userDataDir}\n`);
    return EXIT.ok;
  }
  if (asked.kind === 'silent') {
    if (asked.pid === undefined) {
      saySilent(ctx, asked);
      return EXIT.failure;
    }
    pid = asked.pid;
    ctx.err(`The console (pid ${pid}) does not answer (${asked.why}); sending it SIGTERM\n`);
    process.kill(pid, 'SIGTERM');
  } else pid = asked.status.pid;
  if (!(await exits(pid, opts.timeoutMs))) {
    ctx.err(`The console (pid ${pid}) is still running after ${Math.round(opts.timeoutMs / 1000)} s\n`);
    return EXIT.failure;
  }
  ctx.out(`Stopped MCP Approval Console (pid ${pid})\n`);
  return EXIT.ok;
}

/**
 * `open`: prints the page's address and opens it in the browser (unless `print`, or there is no
 * browser here); the desktop app shows its window instead.
 * @returns 0 opened or shown (or printed), 3 no console runs, 1 its page is not served yet or it does not answer
 */
export async function openCommand(ctx: ConsoleCommandContext, opts: { print: boolean }): Promise<number> {
  const asked = await ask(ctx, opts.print ? 'status' : 'show');
  if (asked.kind === 'not_running') {
    ctx.err(`MCP Approval Console is not running on ${ctx.userDataDir}: start it with \`npm start\` (or let an agent host start it through the bridge)\n`);
    return EXIT.notRunning;
  }
  if (asked.kind === 'silent') {
    saySilent(ctx, asked);
    return EXIT.failure;
  }
  const { address, shown, host } = asked.status;
  if (!address) {
    if (host === 'electron') {
      ctx.out(shown ? 'Showed the desktop app\'s window\n' : 'The console runs as the desktop app: switch to its window\n');
      return EXIT.ok;
    }
    ctx.err('The console is running but its page is not served yet (the renderer is being built); try again in a moment\n');
    return EXIT.failure;
  }
  ctx.out(`${address}\n`);
  if (opts.print) return EXIT.ok;
  if (!(await ctx.openUrl(address))) ctx.err('No browser to open here: open the address above\n');
  return EXIT.ok;
}
