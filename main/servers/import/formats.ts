/**
 * Reading other hosts' config files into candidate `mcpServers` entries:
 * - Claude Desktop, Claude Code, Windsurf and Cursor: `{"mcpServers": {NAME: {command, args, env, cwd} |
 *   {url, headers, type}}}` (Windsurf names the URL `serverUrl`). Claude Desktop does not expand
 *   variables (strings are taken as written); Claude Code expands `${VAR}` and `${VAR:-default}`
 *   from the environment; Cursor and Windsurf expand `${env:NAME}`, `${userHome}`,
 *   `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}`.
 * - VS Code: `{"servers": {NAME: {type: "stdio"|"http"|"sse", command, args, env, envFile, cwd, url,
 *   headers}}, "inputs": [{type: "promptString", id, description, password}]}` (JSONC). Variables
 *   as Cursor's plus `${input:ID}`, which the person supplies before import.
 *
 * A variable that cannot be resolved here is never kept as literal text: `${input:…}` is asked
 * for, anything else (an unset `${env:…}`, `${config:…}`, `${command:…}`) makes the entry
 * not importable, with the reason.
 */
import path from 'node:path';
import { z } from 'zod';
import type { ImportFormat, ImportInput } from '../../../shared/contract/servers.js';
import { ServerConfigSchema, type ServerConfig } from '../../config.js';
import { ui, type UiText } from '../../../shared/contract/ui-text.js';
import { isRouted } from '../../host-config/route.js';

/** What variable expansion needs. */
export interface ExpandContext {
  home: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  workspaceFolder?: string;
  /** The file the entry comes from (keys of `${input:…}` values). */
  path: string;
  /** Values of `${input:ID}` by {@link inputKey}. */
  inputValues?: Record<string, string>;
}

/** The key of an `${input:ID}` value: inputs belong to their file. */
export const inputKey = (filePath: string, id: string): string => `${filePath}::${id}`;

/** One entry read from a file: the entry to write (if it could be built) and what stands in the way. */
export interface RawCandidate {
  name: string;
  /** The `mcp-servers.json` entry, when valid (inputs may still be missing). */
  config?: ServerConfig;
  /** Why it cannot be imported (invalid entry, unresolvable variable). */
  invalid?: UiText;
  /** For display while `config` cannot be built yet (inputs missing): the transport and command line / URL. */
  shown: { transport: 'stdio' | 'http' | 'sse'; target: string };
  /** The entry launches the console's bridge already (main/host-config/route.ts). */
  routed?: boolean;
  inputs: ImportInput[];
  /** Variables that cannot be resolved here. */
  unresolved: string[];
  warnings: string[];
}

const StringMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));
const RawEntrySchema = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  env: StringMap.optional(),
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  /** Windsurf's name for a remote server's URL. */
  serverUrl: z.string().optional(),
  headers: StringMap.optional(),
});
const McpServersFileSchema = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()) });
const VsCodeFileSchema = z.looseObject({
  servers: z.record(z.string(), z.unknown()).default({}),
  inputs: z.array(z.looseObject({ id: z.string(), type: z.string().optional(), description: z.string().optional(), password: z.boolean().optional() })).default([]),
});

/**
 * Claude Code's expansion in one string: `${VAR}` and `${VAR:-default}` from the environment; a
 * variable that is unset and has no default is recorded as unresolved.
 */
function expandClaudeCode(value: string, ctx: ExpandContext, found: { unresolved: Set<string> }): string {
  return value.replace(/\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => {
    const v = ctx.env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    found.unresolved.add(whole);
    return whole;
  });
}

/** Expands `${…}` in one string; records inputs used and variables it cannot resolve. */
function expand(value: string, ctx: ExpandContext, declared: Map<string, ImportInput>, found: { inputs: Map<string, ImportInput>; unresolved: Set<string> }): string {
  const sep = ctx.platform === 'win32' ? '\\' : '/';
  return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name.startsWith('input:')) {
      const id = name.slice('input:'.length);
      const input = declared.get(id) ?? { id, password: false };
      found.inputs.set(id, input);
      const v = ctx.inputValues?.[inputKey(ctx.path, id)];
      return v !== undefined && v !== '' ? v : whole;
    }
    if (name.startsWith('env:')) {
      const v = ctx.env[name.slice('env:'.length)];
      if (v !== undefined) return v;
    } else if (name === 'userHome') return ctx.home;
    else if (name === 'pathSeparator' || name === '/') return sep;
    else if (name === 'workspaceFolder' && ctx.workspaceFolder) return ctx.workspaceFolder;
    else if (name === 'workspaceFolderBasename' && ctx.workspaceFolder) return (ctx.platform === 'win32' ? path.win32 : path.posix).basename(ctx.workspaceFolder);
    found.unresolved.add(whole);
    return whole;
  });
}

/** Builds the `mcp-servers.json` entry from a raw entry (strings already expanded). */
function toConfig(raw: z.infer<typeof RawEntrySchema>, format: ImportFormat): { config?: ServerConfig; invalid?: UiText } {
  const type = raw.type?.toLowerCase();
  let entry: Record<string, unknown>;
  if (raw.command !== undefined && type !== 'http' && type !== 'sse' && type !== 'streamable-http') {
    entry = { command: raw.command };
    if (raw.args?.length) entry.args = raw.args;
    if (raw.env && Object.keys(raw.env).length) entry.env = raw.env;
    if (raw.cwd) entry.cwd = raw.cwd;
  } else if (raw.url !== undefined) {
    entry = { url: raw.url };
    if (type === 'sse') entry.type = 'sse';
    if (raw.headers && Object.keys(raw.headers).length) entry.headers = raw.headers;
  } else {
    return { invalid: ui(format === 'vscode' ? 'import.noCommandOrUrlVsCode' : 'import.noCommandOrUrl') };
  }
  const parsed = ServerConfigSchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { invalid: ui('import.entryProblem', { path: issue.path.join('.') || 'entry', why: issue.message }) };
  }
  return { config: parsed.data };
}

/** Expands every string of a raw entry in place, in `format`'s variable syntax. */
function expandEntry(raw: z.infer<typeof RawEntrySchema>, ctx: ExpandContext, declared: Map<string, ImportInput>, format: ImportFormat) {
  const found = { inputs: new Map<string, ImportInput>(), unresolved: new Set<string>() };
  const x = (s: string) => (format === 'claude-code' ? expandClaudeCode(s, ctx, found) : expand(s, ctx, declared, found));
  const mapValues = (m?: Record<string, string>) => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)])) : undefined);
  const out = {
    ...raw,
    command: raw.command === undefined ? undefined : x(raw.command),
    args: raw.args?.map(x),
    env: mapValues(raw.env),
    cwd: raw.cwd === undefined ? undefined : x(raw.cwd),
    url: (raw.url ?? raw.serverUrl) === undefined ? undefined : x((raw.url ?? raw.serverUrl)!),
    headers: mapValues(raw.headers),
  };
  return { out, inputs: [...found.inputs.values()], unresolved: [...found.unresolved] };
}

/**
 * Reads the servers of one parsed file.
 * @returns candidates in file order, or `error` when the file's shape is not its format's
 */
export function readServers(format: ImportFormat, json: unknown, ctx: ExpandContext): { candidates: RawCandidate[]; error?: UiText } {
  let entries: Record<string, unknown>;
  const declared = new Map<string, ImportInput>();
  if (format === 'vscode') {
    const file = VsCodeFileSchema.safeParse(json);
    if (!file.success) return { candidates: [], error: ui('import.notVsCode', { path: file.error.issues[0]!.path.join('.'), why: file.error.issues[0]!.message }) };
    entries = file.data.servers;
    for (const i of file.data.inputs) declared.set(i.id, { id: i.id, description: i.description, password: i.password === true });
  } else {
    const file = McpServersFileSchema.safeParse(json);
    if (!file.success) return { candidates: [], error: ui('import.noMcpServers') };
    entries = file.data.mcpServers;
  }
  const candidates = Object.entries(entries).map(([name, value]): RawCandidate => {
    const raw = RawEntrySchema.safeParse(value);
    if (!raw.success) {
      const issue = raw.error.issues[0]!;
      return { name, invalid: ui('import.entryProblem', { path: issue.path.join('.') || 'entry', why: issue.message }), shown: { transport: 'stdio', target: '' }, inputs: [], unresolved: [], warnings: [] };
    }
    const warnings: string[] = [];
    if (raw.data.envFile) warnings.push(`envFile "${raw.data.envFile}" is not imported: add its variables under env by hand`);
    const expanded = format === 'claude-desktop' ? { out: raw.data, inputs: [], unresolved: [] } : expandEntry(raw.data, ctx, declared, format);
    const built = toConfig(expanded.out, format);
    // With inputs still to be typed, the entry cannot be checked yet (e.g. a URL made of an input).
    const missingInputs = expanded.inputs.filter((i) => !ctx.inputValues?.[inputKey(ctx.path, i.id)]);
    const invalid =
      expanded.unresolved.length > 0
        ? ui('import.unresolved', { names: expanded.unresolved.join(', ') })
        : built.invalid && missingInputs.length === 0
          ? built.invalid
          : undefined;
    const o = expanded.out;
    const type = o.type?.toLowerCase();
    const shown =
      o.command !== undefined && type !== 'http' && type !== 'sse'
        ? { transport: 'stdio' as const, target: [o.command, ...(o.args ?? [])].join(' ') }
        : { transport: type === 'sse' ? ('sse' as const) : ('http' as const), target: o.url ?? '' };
    const routed = isRouted(value as Record<string, unknown>);
    return { name, config: built.config, invalid, shown, inputs: expanded.inputs, unresolved: expanded.unresolved, warnings, ...(routed && { routed }) };
  });
  return { candidates };
}
