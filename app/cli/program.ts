/**
 * The `mcp-approval-console` command line, parsed by commander: `--help`/`-h` on the command and
 * every subcommand (and `help [command]`), `--version`/`-V`, usage errors on stderr with exit
 * code 2, options before or after operands, `--opt=value`, and `--` ending the options.
 *
 *   bridge <name> | bridge [--name <id>] -- <command> [args…] | bridge [--name <id>] --url <url> [--sse]
 *     (each also with --console <url> [--token <token>]: a team server reviews)
 *   bridge install|uninstall --host <host> --server <name> [--file <path>] [--url-form]
 *   status [--json] | stop [--timeout <s>] | open [--print] | doctor [--json]
 *   serve [--database <url>] [--host <address>] [--port <n>] [--public-url <url>] [--tls-cert <f> --tls-key <f> | --behind-tls-proxy [--trusted-proxy <a>…]]
 *   audit verify [--file <export.jsonl>] [--database <url>] [--anchors <folder>] [--public-key <pem>…] [--json]
 *   audit anchor [--to <folder>] [--database <url>] [--key <pem>] [--json]
 *   users add <name> (--admin | --role <role>) [--servers <a,b>] [--password-stdin] [--oidc-issuer <url> --oidc-subject <sub>] [--database <url>]
 *   users list [--json] | users remove <name> | users set-role <name> <role> [--servers <a,b>] | users passwd <name> [--password-stdin]
 *
 * Everything after `bridge`'s `--` is the server's own command line, untouched (`bridge -- node
 * server.js --help` passes `--help` to the server). Exit codes: {@link EXIT}. The commands'
 * work lives elsewhere (app/bridge/command.ts, ./console-commands.ts, ./doctor.ts, ./audit.ts); this file
 * only says what the words mean. docs/cli.md is the reference for people.
 */
import path from 'node:path';
import type { UsersCommand, UsersContext } from './users.js';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { bridgeArgsFrom } from '../../main/bridge/args.js';
import type { LaunchSpec } from '../../main/bridge/launch.js';
import { ROUTE_HOSTS, type RouteCommand } from '../../main/host-config/route-cli.js';
import type { BridgeLauncher } from '../../main/ports.js';
import { runBridgeTarget, runRoute } from '../bridge/command.js';
import { openCommand, statusCommand, stopCommand, type ConsoleCommandContext } from './console-commands.js';
import { doctorCommand, type DoctorContext } from './doctor.js';
import { auditAnchorCommand, auditVerifyCommand } from './audit.js';
import { EXIT } from './exit-codes.js';
import { DEFAULT_SERVE_HOST, DEFAULT_SERVE_PORT, ListenRefusal, planListening, type ListenPlan } from '../web/listen-policy.js';

export { EXIT } from './exit-codes.js';

/** The command's name, as people type it. */
export const COMMAND_NAME = 'mcp-approval-console';

/** What the command line runs with. */
export interface CliContext extends ConsoleCommandContext, Omit<DoctorContext, keyof ConsoleCommandContext> {
  /** This installation's version (package.json). */
  version: string;
  /** How a host launches this installation's bridge (written by `bridge install`). */
  launcher: BridgeLauncher;
  /** How a bridge starts the console when none runs. */
  consoleLaunch: LaunchSpec;
  /** Folder relative script paths of `bridge -- …` are named from (the bridge's working folder). */
  cwd: string;
  /** How `users` reads a password (default: standard input or a terminal prompt that does not echo). */
  readPassword?: UsersContext['readPassword'];
}

const ROOT_HELP = `
Commands run on the console's data folder: MCP_CONSOLE_USER_DATA, else the per-user default
(~/.config/mcp-approval-console, ~/Library/Application Support/…, %APPDATA%\\…), or --data-dir.

Exit codes: 0 done, 1 failed, 2 usage error, 3 no console is running (status, open).

Examples:
  $ ${COMMAND_NAME} bridge -- npx -y @modelcontextprotocol/server-everything
  $ ${COMMAND_NAME} status
  $ ${COMMAND_NAME} open
  $ ${COMMAND_NAME} stop
  $ ${COMMAND_NAME} doctor
  $ ${COMMAND_NAME} serve --database postgres://console@db/console
  $ ${COMMAND_NAME} audit verify

Reference: docs/cli.md`;

const BRIDGE_HELP = `
An agent host (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf…) launches this in place
of an MCP server. Toward the host it is that server; the server's sampling requests (and its
elicitation and roots requests, unless the host handles them) wait in the console's queue for a
person. Everything else passes through unchanged. When no console runs, one is started headless
(its address: \`${COMMAND_NAME} status\`).

Everything after -- is the server's own command line, passed as it is.
The server's name in the console (queue, rules, limits, History) is <name>, --name, or derived:
the package (npx/uvx/node_modules), the module (python -m), the script or its folder, or the
URL's host name.

With --console <url>, a team server (\`${COMMAND_NAME} serve\`) reviews the requests instead of
the console on this machine; the bridge authenticates with a gateway token made there (--token, or
MCP_CONSOLE_TOKEN, which keeps it out of the process list) and reconnects when the server's
instance changes. Nothing is started on this machine then.

Environment: MCP_CONSOLE_USER_DATA (data folder), MCP_CONSOLE_BRIDGE_NO_LAUNCH=1 (never start
the console), MCP_CONSOLE_BRIDGE_HEADERS (JSON headers for --url), MCP_CONSOLE_TOKEN (--token).

Examples:
  $ ${COMMAND_NAME} bridge github
  $ ${COMMAND_NAME} bridge -- npx -y @modelcontextprotocol/server-everything
  $ ${COMMAND_NAME} bridge --name weather -- uv run --directory ~/weather server.py
  $ ${COMMAND_NAME} bridge --url https://mcp.example.com/mcp
  $ MCP_CONSOLE_TOKEN=mcpgw_… ${COMMAND_NAME} bridge --console https://console.example.com -- npx -y @modelcontextprotocol/server-everything
  $ ${COMMAND_NAME} bridge install --host claude-desktop --server github`;

/** Writes commander's output where the context says, and makes it throw instead of exiting. */
function configure(cmd: Command, ctx: CliContext): Command {
  return cmd
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s) })
    .showHelpAfterError(`(see ${COMMAND_NAME} ${cmd.name() === COMMAND_NAME ? '' : `${commandPath(cmd)} `}--help)`);
}

/** `bridge install` for `install` under `bridge`. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c && c.name() !== COMMAND_NAME; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A usage error raised from an action: stderr, exit 2, like commander's own. */
function usageError(cmd: Command, message: string): never {
  cmd.error(`error: ${message}`, { exitCode: EXIT.usage, code: 'mcp-approval-console.usage' });
}

/** What the raw arguments hold after `bridge`'s first `--`: the server's command line (undefined when there is no `--`). */
function serverLineOf(raw: readonly string[]): string[] | undefined {
  const at = raw.indexOf('bridge');
  const dashes = raw.indexOf('--', at + 1);
  return at >= 0 && dashes >= 0 ? raw.slice(dashes + 1) : undefined;
}

/** Adds `bridge` with `install` and `uninstall`; `result` receives the exit code. */
function addBridge(program: Command, ctx: CliContext, result: { code: number }, argv: readonly string[]): void {
  const bridgeOpts = { userDataDir: ctx.userDataDir, launcher: ctx.launcher, consoleLaunch: ctx.consoleLaunch, env: ctx.env, print: (line: string) => ctx.out(`${line}\n`) };
  const bridge = configure(program.command('bridge'), ctx)
    .summary('run an MCP server through the console (what an agent host launches)')
    .description('Run an MCP server through MCP Approval Console, so a person reviews what it asks of the model.')
    .usage(`[options] <name>\n       ${COMMAND_NAME} bridge [options] -- <command> [args...]\n       ${COMMAND_NAME} bridge [options] --url <url> [--sse]\n       ${COMMAND_NAME} bridge install|uninstall --host <host> --server <name> [--file <path>]`)
    .argument('[name]', "a server of the console's mcp-servers.json")
    .option('--name <id>', 'the server\'s name in the console (default: <name>, or derived from the command or URL)')
    .option('--url <url>', 'a Streamable HTTP server at this http(s) URL')
    .option('--sse', 'with --url: the legacy HTTP+SSE transport')
    .addOption(new Option('--sampling <who>', 'who answers sampling: the console (a person reviews), or a host that declares sampling').choices(['console', 'host']))
    .option('--console <url>', 'a team server (mcp-approval-console serve) reviews instead of the console on this machine')
    .option('--token <token>', 'with --console: a gateway token made on the team server (default: MCP_CONSOLE_TOKEN)')
    .allowExcessArguments()
    .helpCommand(false)
    .addHelpText('after', BRIDGE_HELP)
    .action(async (_name: string | undefined, opts: { name?: string; url?: string; sse?: boolean; sampling?: 'console' | 'host'; console?: string; token?: string }, cmd: Command) => {
      const serverLine = serverLineOf(argv);
      const operands = serverLine ? cmd.args.slice(0, cmd.args.length - serverLine.length) : cmd.args;
      if (opts.name !== undefined && !opts.name.trim()) usageError(cmd, '--name needs a name');
      let args: ReturnType<typeof bridgeArgsFrom>;
      try {
        // The environment's token only goes with --console (it may be set for every bridge of a host).
        const token = opts.token ?? (opts.console !== undefined ? ctx.env.MCP_CONSOLE_TOKEN : undefined);
        args = bridgeArgsFrom({ ...opts, ...(token !== undefined && { token }), operands, ...(serverLine && { serverLine }), cwd: ctx.cwd });
      } catch (err) {
        usageError(cmd, (err as Error).message);
      }
      result.code = await runBridgeTarget(args, bridgeOpts);
    });
  for (const action of ['install', 'uninstall'] as const) {
    const sub = configure(bridge.command(action), ctx)
      .summary(action === 'install' ? "route a server of an agent host's config through the console" : 'undo `bridge install`')
      .description(
        action === 'install'
          ? "Route a server of an agent host's config file through the console: its entry then launches this bridge (the file is backed up to <file>.bak)."
          : "Put a routed entry of an agent host's config file back as it was.",
      )
      .addOption(new Option('--host <host>', "the agent host whose config file holds the server").choices(ROUTE_HOSTS).makeOptionMandatory())
      .requiredOption('--server <name>', "the server's name in that file")
      .option('--file <path>', "the host's config file (default: the host's standard file on this machine)");
    if (action === 'install') sub.option('--url-form', "write the console's loopback URL for the server instead of the bridge command");
    else sub.addOption(new Option('--url-form').hideHelp()); // accepted and ignored, as it always was
    sub.action(async (opts: { host: RouteCommand['host']; server: string; file?: string; urlForm?: boolean }) => {
      const command: RouteCommand = { action, host: opts.host, server: opts.server, ...(opts.file && { file: opts.file }), ...(opts.urlForm && action === 'install' && { how: 'url' as const }) };
      result.code = await runRoute(command, bridgeOpts);
    });
  }
}

/** Adds `status`, `stop`, `open` and `doctor`; `result` receives the exit code. */
function addConsoleCommands(program: Command, ctx: CliContext, result: { code: number }): void {
  const dataDir = () => new Option('--data-dir <path>', 'the data folder of the console (default: MCP_CONSOLE_USER_DATA, else the per-user default)');
  const withDir = <T extends { dataDir?: string }>(opts: T) => ({ ...ctx, ...(opts.dataDir && { userDataDir: path.resolve(ctx.cwd, opts.dataDir) }) });
  configure(program.command('status'), ctx)
    .summary('is a console running: its pid, page address, servers, requests waiting')
    .description('Say whether a console runs on the data folder: its pid, page address (with its token), servers and requests waiting. Exit 0 running, 3 not running, 1 running but not answering.')
    .option('--json', 'print the status as JSON')
    .addOption(dataDir())
    .action(async (opts: { json?: boolean; dataDir?: string }) => {
      result.code = await statusCommand(withDir(opts), { json: opts.json ?? false });
    });
  configure(program.command('stop'), ctx)
    .summary('stop the running console (as SIGTERM) and wait until it has exited')
    .description('Stop the console running on the data folder as SIGTERM would (requests under review are answered, servers closed), and wait until it has exited. Exit 0 stopped or none running, 1 it did not exit in time.')
    .option('--timeout <seconds>', 'how long to wait for it to exit', parseSeconds, 10)
    .addOption(dataDir())
    .action(async (opts: { timeout: number; dataDir?: string }) => {
      result.code = await stopCommand(withDir(opts), { timeoutMs: opts.timeout * 1000 });
    });
  configure(program.command('open'), ctx)
    .summary("open the running console's page in the browser")
    .description("Open the running console's page in the browser (or show the desktop app's window), and print its address. Exit 0 opened, 3 no console runs, 1 its page is not ready.")
    .option('--print', 'only print the address; open no browser')
    .addOption(dataDir())
    .action(async (opts: { print?: boolean; dataDir?: string }) => {
      result.code = await openCommand(withDir(opts), { print: opts.print ?? false });
    });
  configure(program.command('doctor'), ctx)
    .summary('check what the console needs on this machine, with what to do')
    .description('Check what the console needs: Node.js version, the renderer built, the data folder writable, the gateway port free, the secret store readable; each problem with what to do. Exit 0 all fine (warnings allowed), 1 a check failed.')
    .option('--json', 'print the checks as JSON')
    .addOption(dataDir())
    .action(async (opts: { json?: boolean; dataDir?: string }) => {
      result.code = await doctorCommand(withDir(opts), { json: opts.json ?? false });
    });
}

const AUDIT_HELP = `
The audit trail is kept in audit.db in the data folder, or in the team database (--database, else
MCP_CONSOLE_DATABASE_URL). Anchors: --anchors/--to, else anchorFolder in audit-settings.json or
MCP_CONSOLE_AUDIT_ANCHORS. Reference: docs/audit.md

Examples:
  $ ${COMMAND_NAME} audit verify
  $ ${COMMAND_NAME} audit verify --file mcp-history-2026-05-01T10-00-00Z.jsonl --anchors /mnt/anchors --public-key audit-public-key.pem
  $ ${COMMAND_NAME} audit anchor --to /mnt/anchors`;

/** Adds `audit verify` and `audit anchor`; `result` receives the exit code. */
function addAudit(program: Command, ctx: CliContext, result: { code: number }): void {
  const dataDir = () => new Option('--data-dir <path>', 'the data folder of the console (default: MCP_CONSOLE_USER_DATA, else the per-user default)');
  const database = () => new Option('--database <url>', 'the team database (postgres://…; default: MCP_CONSOLE_DATABASE_URL)');
  const withDir = (opts: { dataDir?: string }) => ({ ...ctx, ...(opts.dataDir && { userDataDir: path.resolve(ctx.cwd, opts.dataDir) }) });
  const abs = (p: string | undefined) => (p === undefined ? undefined : path.resolve(ctx.cwd, p));
  const audit = configure(program.command('audit'), ctx)
    .summary('verify or anchor the audit trail')
    .description('Verify the audit trail, or anchor its head outside the database.')
    .addHelpText('after', AUDIT_HELP);
  configure(audit.command('verify'), ctx)
    .summary('walk the audit trail and name the first record edited, inserted or removed')
    .description('Walk the audit trail, recompute every hash, and check it against its head and its signed anchors. Names the first record that was edited, inserted or removed, and anchors that are forged. Exit 0 intact, 1 tampered or unreadable.')
    .option('--file <path>', 'verify a History JSONL export instead of a database')
    .addOption(database())
    .option('--anchors <folder>', 'the folder of anchors (default: the configured one)')
    .option('--public-key <pem>', 'a public key trusted to sign anchors (repeatable; default: the keys in the anchor folder and the data folder\'s signing key)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--json', 'print the report as JSON')
    .addOption(dataDir())
    .action(async (opts: { file?: string; database?: string; anchors?: string; publicKey: string[]; json?: boolean; dataDir?: string }) => {
      const file = abs(opts.file);
      const anchors = abs(opts.anchors);
      result.code = await auditVerifyCommand(withDir(opts), { json: opts.json ?? false, ...(file && { file }), ...(opts.database && { database: opts.database }), ...(anchors && { anchors }), publicKeys: opts.publicKey.map((k) => path.resolve(ctx.cwd, k)) });
    });
  configure(audit.command('anchor'), ctx)
    .summary("sign the audit trail's head and write it to the anchor folder")
    .description("Verify the audit trail since the newest anchor, then sign its head with the server's Ed25519 key and write the anchor to the anchor folder. Exit 0 written, 1 the trail does not verify (nothing written) or a failure, 2 no anchor folder.")
    .option('--to <folder>', 'the anchor folder (default: the configured one)')
    .addOption(database())
    .option('--key <pem>', 'the signing key (default: the configured one, else audit-signing-key.pem in the data folder, made on first use)')
    .option('--json', 'print the anchor as JSON')
    .addOption(dataDir())
    .action(async (opts: { to?: string; database?: string; key?: string; json?: boolean; dataDir?: string }) => {
      const to = abs(opts.to);
      const key = abs(opts.key);
      result.code = await auditAnchorCommand(withDir(opts), { json: opts.json ?? false, ...(to && { to }), ...(key && { key }), ...(opts.database && { database: opts.database }) });
    });
}

const SERVE_HELP = `
A team's console: the web UI, the provider gateway (/openai/v1, /anthropic) and the bridges'
channel (/bridge) on one address, with History, the gateway's tokens and sign-in sessions in
PostgreSQL. Run several instances on one database behind a load balancer. Servers the instance
runs itself come from its own data folder's mcp-servers.json; provider keys from its secret store
or environment (never the database).

Loopback is the default. Another address needs TLS: --tls-cert and --tls-key, or a TLS proxy in
front (--behind-tls-proxy: plain HTTP only from --trusted-proxy, default this machine, with
X-Forwarded-Proto: https) — and --public-url, the address people open.

Sign in with the team's admin token: MCP_CONSOLE_ADMIN_TOKEN, else one is generated at the first
start and printed once.

Environment: MCP_CONSOLE_DATABASE_URL (--database), MCP_CONSOLE_ADMIN_TOKEN, MCP_CONSOLE_USER_DATA
(data folder), MCP_CONSOLE_SECRET_PASSPHRASE (key of the API-key store).

Examples:
  $ MCP_CONSOLE_DATABASE_URL=postgres://console@db/console ${COMMAND_NAME} serve
  $ ${COMMAND_NAME} serve --host 0.0.0.0 --port 8443 --public-url https://console.example.com --tls-cert cert.pem --tls-key key.pem
  $ ${COMMAND_NAME} serve --port 8081 --behind-tls-proxy --public-url https://console.example.com --data-dir /var/lib/console-a

Reference: docs/team-server.md`;

/** Adds `serve`; `result` receives the exit code. */
function addServe(program: Command, ctx: CliContext, result: { code: number }): void {
  configure(program.command('serve'), ctx)
    .summary("run a team's console on PostgreSQL: web UI, provider gateway and bridges on one address")
    .description("Run one instance of a team's console (headless) on a PostgreSQL database, serving the web UI, the provider gateway and developers' bridges on one address.")
    .option('--database <url>', 'the team database, postgres://… (default: MCP_CONSOLE_DATABASE_URL)')
    .option('--host <address>', `the address to listen on (default ${DEFAULT_SERVE_HOST}, this machine only; 0.0.0.0 or :: for every interface)`)
    .option('--port <n>', `the port to listen on (default ${DEFAULT_SERVE_PORT}; 0: any free port)`)
    .option('--public-url <url>', 'the address people and programs use, https://… (needed beyond loopback and behind a proxy)')
    .option('--tls-cert <file>', 'serve TLS with this certificate chain (PEM)')
    .option('--tls-key <file>', "the certificate's private key (PEM)")
    .option('--behind-tls-proxy', 'plain HTTP behind a reverse proxy that holds the certificate')
    .option('--trusted-proxy <address>', 'with --behind-tls-proxy: an address or CIDR range the proxy connects from (repeatable; default 127.0.0.1 and ::1)', (value: string, list: string[] = []) => [...list, value])
    .option('--data-dir <path>', "this instance's data folder (default: MCP_CONSOLE_USER_DATA, else the per-user default)")
    .option('--oidc-issuer <url>', 'single sign-on: the OpenID provider (default: MCP_CONSOLE_OIDC_ISSUER); the client secret comes from MCP_CONSOLE_OIDC_CLIENT_SECRET')
    .option('--oidc-client-id <id>', "single sign-on: this console's client id at the provider (default: MCP_CONSOLE_OIDC_CLIENT_ID)")
    .addOption(new Option('--oidc-match <claim>', 'single sign-on: a first sign-in finds the person an admin added by this claim (then linked)').choices(['email', 'preferred_username']))
    .addHelpText('after', SERVE_HELP)
    .action(async (opts: { database?: string; host?: string; port?: string; publicUrl?: string; tlsCert?: string; tlsKey?: string; behindTlsProxy?: boolean; trustedProxy?: string[]; dataDir?: string; oidcIssuer?: string; oidcClientId?: string; oidcMatch?: 'email' | 'preferred_username' }, cmd: Command) => {
      const databaseUrl = opts.database ?? ctx.env.MCP_CONSOLE_DATABASE_URL;
      if (!databaseUrl) usageError(cmd, 'serve needs the team database: --database postgres://… or MCP_CONSOLE_DATABASE_URL');
      if (!/^postgres(?:ql)?:\/\//.test(databaseUrl)) usageError(cmd, 'the database must be a postgres:// URL');
      let plan: ListenPlan;
      try {
        plan = planListening({
          ...(opts.host !== undefined && { host: opts.host }),
          ...(opts.port !== undefined && { port: opts.port }),
          ...(opts.publicUrl !== undefined && { publicUrl: opts.publicUrl }),
          ...(opts.tlsCert !== undefined && { tlsCert: path.resolve(ctx.cwd, opts.tlsCert) }),
          ...(opts.tlsKey !== undefined && { tlsKey: path.resolve(ctx.cwd, opts.tlsKey) }),
          ...(opts.behindTlsProxy && { behindTlsProxy: true }),
          ...(opts.trustedProxy && { trustedProxies: opts.trustedProxy }),
        });
      } catch (err) {
        if (!(err instanceof ListenRefusal)) throw err;
        usageError(cmd, err.message);
      }
      const issuer = opts.oidcIssuer ?? (ctx.env.MCP_CONSOLE_OIDC_ISSUER?.trim() || undefined);
      const clientId = opts.oidcClientId ?? (ctx.env.MCP_CONSOLE_OIDC_CLIENT_ID?.trim() || undefined);
      if (Boolean(issuer) !== Boolean(clientId)) usageError(cmd, 'single sign-on needs both --oidc-issuer and --oidc-client-id');
      if (issuer && !URL.canParse(issuer)) usageError(cmd, `--oidc-issuer is not a URL: ${issuer}`);
      const secret = ctx.env.MCP_CONSOLE_OIDC_CLIENT_SECRET?.trim() || undefined;
      const oidc = issuer && clientId ? { issuer, clientId, ...(secret && { clientSecret: secret }), ...(opts.oidcMatch && { matchBy: opts.oidcMatch }) } : undefined;
      const { serveCommand } = await import('./serve-command.js');
      result.code = await serveCommand(ctx, { databaseUrl, plan, userDataDir: opts.dataDir ? path.resolve(ctx.cwd, opts.dataDir) : ctx.userDataDir, ...(oidc && { oidc }) });
    });
}

const USERS_HELP = `
A team server's people, on the team database (--database, else MCP_CONSOLE_DATABASE_URL). Roles:
admin (everything, people included), reviewer (decides; --servers limits them to some servers),
auditor (reads History and the audit trail, decides nothing). A password is asked on the terminal
without echo, or read from standard input with --password-stdin (at least 12 characters); a person
who signs in through single sign-on needs none (--oidc-issuer and --oidc-subject).

Examples:
  $ ${COMMAND_NAME} users add --admin ana
  $ printf '%s' "$PASSWORD" | ${COMMAND_NAME} users add bo --role reviewer --servers github,jira --password-stdin
  $ ${COMMAND_NAME} users add cy --role auditor --oidc-issuer https://accounts.google.com --oidc-subject 1234567890
  $ ${COMMAND_NAME} users set-role bo admin
  $ ${COMMAND_NAME} users remove bo

Reference: docs/team-server.md`;

/** `--servers a,b`: server ids. */
const serverList = (value: string): string[] => {
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new InvalidArgumentError('expected server names separated by commas');
  return list;
};

/** Adds `users`; `result` receives the exit code. */
function addUsers(program: Command, ctx: CliContext, result: { code: number }): void {
  const database = () => new Option('--database <url>', 'the team database (postgres://…; default: MCP_CONSOLE_DATABASE_URL)');
  const users = configure(program.command('users'), ctx)
    .summary("manage a team server's people: add, list, set a role, set a password, remove")
    .description("Manage the people who sign in to a team server (mcp-approval-console serve).")
    .addHelpText('after', USERS_HELP);
  const runUsers = async (cmd: Command, opts: { database?: string }, command: UsersCommand) => {
    const url = opts.database ?? ctx.env.MCP_CONSOLE_DATABASE_URL;
    if (!url) usageError(cmd, 'users needs the team database: --database postgres://… or MCP_CONSOLE_DATABASE_URL');
    if (!/^postgres(?:ql)?:\/\//.test(url)) usageError(cmd, 'the database must be a postgres:// URL');
    const { usersCommand, readPasswordFromProcess } = await import('./users.js');
    result.code = await usersCommand({ env: ctx.env, out: ctx.out, err: ctx.err, readPassword: ctx.readPassword ?? readPasswordFromProcess }, url, command);
  };
  const role = (cmd: Command, value: string) => {
    if (!(['admin', 'reviewer', 'auditor'] as const).includes(value as 'admin')) usageError(cmd, `the role must be admin, reviewer or auditor, not ${value}`);
    return value as 'admin' | 'reviewer' | 'auditor';
  };
  configure(users.command('add'), ctx)
    .summary('add a person (the first admin: users add --admin <name>)')
    .argument('<name>', 'the name they sign in with')
    .option('--admin', 'make them an admin (same as --role admin)')
    .option('--role <role>', 'admin, reviewer or auditor')
    .option('--servers <a,b>', 'a reviewer decides only on these servers (default: every server)', serverList)
    .option('--password-stdin', 'read the password from standard input instead of asking')
    .option('--oidc-issuer <url>', 'single sign-on: their OpenID provider (with --oidc-subject)')
    .option('--oidc-subject <sub>', "single sign-on: their subject (the ID token's sub) at that provider")
    .addOption(database())
    .action(async (name: string, opts: { admin?: boolean; role?: string; servers?: string[]; passwordStdin?: boolean; oidcIssuer?: string; oidcSubject?: string; database?: string }, cmd: Command) => {
      if (opts.admin && opts.role && opts.role !== 'admin') usageError(cmd, '--admin and --role disagree');
      if (!opts.admin && !opts.role) usageError(cmd, 'say the role: --admin or --role admin|reviewer|auditor');
      if (Boolean(opts.oidcIssuer) !== Boolean(opts.oidcSubject)) usageError(cmd, '--oidc-issuer and --oidc-subject go together');
      const oidc = opts.oidcIssuer && opts.oidcSubject ? { issuer: opts.oidcIssuer, subject: opts.oidcSubject } : undefined;
      const passwordFrom = opts.passwordStdin ? ('stdin' as const) : oidc ? undefined : ('prompt' as const);
      await runUsers(cmd, opts, { action: 'add', name, role: opts.admin ? 'admin' : role(cmd, opts.role!), ...(opts.servers && { servers: opts.servers }), ...(passwordFrom && { passwordFrom }), ...(oidc && { oidc }) });
    });
  configure(users.command('list'), ctx)
    .summary('list the people: name, role, servers (* all), single sign-on')
    .option('--json', 'print them as JSON')
    .addOption(database())
    .action(async (opts: { json?: boolean; database?: string }, cmd: Command) => runUsers(cmd, opts, { action: 'list', json: opts.json ?? false }));
  configure(users.command('remove'), ctx)
    .summary('remove a person: their sessions end and their connections close at once')
    .argument('<name>')
    .addOption(database())
    .action(async (name: string, opts: { database?: string }, cmd: Command) => runUsers(cmd, opts, { action: 'remove', name }));
  configure(users.command('set-role'), ctx)
    .summary("change a person's role (and a reviewer's servers)")
    .argument('<name>')
    .argument('<role>', 'admin, reviewer or auditor')
    .option('--servers <a,b>', 'a reviewer decides only on these servers (default: every server)', serverList)
    .addOption(database())
    .action(async (name: string, value: string, opts: { servers?: string[]; database?: string }, cmd: Command) => runUsers(cmd, opts, { action: 'set-role', name, role: role(cmd, value), ...(opts.servers && { servers: opts.servers }) }));
  configure(users.command('passwd'), ctx)
    .summary("set a person's password")
    .argument('<name>')
    .option('--password-stdin', 'read the password from standard input instead of asking')
    .addOption(database())
    .action(async (name: string, opts: { passwordStdin?: boolean; database?: string }, cmd: Command) => runUsers(cmd, opts, { action: 'passwd', name, passwordFrom: opts.passwordStdin ? 'stdin' : 'prompt' }));
}

/** `--timeout`'s value: a positive number of seconds. */
function parseSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return n;
}

/** The program with every command, for the command line `argv`; `result` receives the exit code of the command run. */
export function createProgram(ctx: CliContext, result: { code: number }, argv: readonly string[]): Command {
  const program = configure(new Command(COMMAND_NAME), ctx)
    .description('MCP Approval Console: a person reviews every request MCP servers and programs make of a model.')
    .version(ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .enablePositionalOptions()
    .addHelpText('after', ROOT_HELP);
  addBridge(program, ctx, result, argv);
  addConsoleCommands(program, ctx, result);
  addServe(program, ctx, result);
  addAudit(program, ctx, result);
  addUsers(program, ctx, result);
  return program;
}

/**
 * Runs the command line `argv` (the words after the program, e.g. `['bridge', '--', 'node', 'x.js']`).
 * @returns the exit code ({@link EXIT}): 0 help, version or done; 2 a usage error (said on
 *   stderr with a pointer to --help); otherwise the command's own
 */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  const result = { code: EXIT.ok };
  const program = createProgram(ctx, result, argv);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return result.code;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
    // `help` asked for: 0; the help shown for want of a command: a usage error.
    if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return EXIT.usage;
  }
}
