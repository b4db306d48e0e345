/**
 * `mcp-approval-console serve`: one instance of a team server, run until SIGINT/SIGTERM or
 * `mcp-approval-console stop --data-dir <its folder>` (app/web/serve.ts does the work). Loaded
 * only when `serve` runs, so a bridge's start never loads the console.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createConsole } from '../../main/console.js';
import { bundledWorkerSpec } from '../../main/offload/offload.js';
import { stderrLogger } from '../../main/ports.js';
import { bridgeLauncher, installRoot, rendererDir, webSecretStore } from '../web/host-setup.js';
import type { OidcSettings } from '../../main/team/oidc.js';
import type { ListenPlan } from '../web/listen-policy.js';
import { buildRenderer, rendererBuildOf } from '../web/renderer-build.js';
import { runTeamServer, type RunningTeamServer } from '../web/serve.js';
import type { ConsoleCommandContext } from './console-commands.js';
import { EXIT } from './exit-codes.js';

/** How long a stop may take before the process exits anyway, in ms. */
const STOP_TIMEOUT_MS = 5_000;

/** What `serve` was asked, checked by the command line. */
export interface ServeRequest {
  databaseUrl: string;
  plan: ListenPlan;
  userDataDir: string;
  /** Single sign-on (`--oidc-issuer`, `--oidc-client-id`, the secret from the environment). */
  oidc?: OidcSettings;
}

/**
 * Runs the instance until it is stopped.
 * @returns 0 once stopped cleanly; 1 when it could not start (said on stderr) or stopping failed
 */
export async function serveCommand(ctx: ConsoleCommandContext, request: ServeRequest): Promise<number> {
  const staticDir = rendererDir(ctx.env);
  try {
    await ensureRenderer(ctx, staticDir);
  } catch (err) {
    ctx.err(`mcp-approval-console serve: ${(err as Error).message}\n`);
    return EXIT.failure;
  }
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const started: { running?: RunningTeamServer } = {};
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    ctx.err(`${why}: shutting down\n`);
    setTimeout(() => finish(EXIT.failure), STOP_TIMEOUT_MS).unref();
    if (!started.running) return; // still starting: stopped once started
    void started.running.stop().then(
      () => finish(EXIT.ok),
      (err: unknown) => {
        ctx.err(`shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`);
        finish(EXIT.failure);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    started.running = await runTeamServer({
      ...request,
      staticDir,
      ...(ctx.env.MCP_CONSOLE_ADMIN_TOKEN && { adminToken: ctx.env.MCP_CONSOLE_ADMIN_TOKEN }),
      createConsole,
      print: (line) => ctx.out(`${line}\n`),
      logger: stderrLogger,
      ports: {
        secrets: webSecretStore(request.userDataDir),
        offloadWorker: bundledWorkerSpec(import.meta.url),
        bridgeLauncher: bridgeLauncher(),
        // The loopback gateway of this instance's own servers: any free port unless set (several instances may share a machine).
        env: { ...ctx.env, MCP_CONSOLE_GATEWAY_PORT: ctx.env.MCP_CONSOLE_GATEWAY_PORT ?? '0' },
        stop: () => stop('stop asked'),
      },
    });
    if (stopping) {
      stopping = false; // a signal came while starting: stop now
      stop('stopped while starting');
    }
  } catch (err) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    ctx.err(`mcp-approval-console serve: could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failure;
  }
  const code = await finished;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return code;
}

/** Builds this installation's renderer when it is missing (as the web host does). @throws Error when it is missing and cannot be built */
async function ensureRenderer(ctx: ConsoleCommandContext, staticDir: string): Promise<void> {
  const index = path.join(staticDir, 'index.html');
  if (existsSync(index)) return;
  const build = ctx.env.MCP_CONSOLE_STATIC_DIR ? undefined : rendererBuildOf(installRoot);
  if (!build) throw new Error(`the renderer is not built (${index} is missing): run \`npm run build\``);
  ctx.err(`The renderer is not built yet (${index}): building it now…\n`);
  await buildRenderer(build, staticDir, new AbortController().signal);
}
