/**
 * Import from other hosts: find their config files (locations.ts), read them (formats.ts), and
 * show what would be imported — never duplicating: an entry whose name is taken, or whose command
 * line (command + args) or URL is already configured, is skipped with the reason. The import
 * itself re-reads the files (the renderer only names what it picked) and returns the entries to
 * add; the manager writes them in one atomic edit.
 */
import { readFileSync } from 'node:fs';
import { textDigest } from '../../host-config/route.js';
import { describeJsonError, isStdio, type ServerConfig } from '../../config.js';
import { looksLikeSecretName, type ImportCandidate, type ImportOutcome, type ImportScan, type ImportSource } from '../../../shared/contract/servers.js';
import { inputKey, readServers, type RawCandidate } from './formats.js';
import { parseJsonc } from './jsonc.js';
import { guessFormat, standardLocations, type ImportEnvironment, type ImportLocation } from './locations.js';
import { because, english, ui, type UiText } from '../../../shared/contract/ui-text.js';

/** Where to look besides the standard places. */
export interface ScanOptions {
  /** A project folder: its `.vscode/mcp.json` and `.cursor/mcp.json` are read too. */
  workspaceFolder?: string;
  /** One more file the person picked (format guessed from its name and shape). */
  file?: string;
}

/** What scanning needs. */
export interface ImportDeps {
  env: ImportEnvironment;
  /** The entries under `mcpServers` now, as in the file (raw). */
  existing(): Record<string, unknown>;
  /** Reads a file; default fs. Returns undefined when it does not exist. */
  readFile?(path: string): string | undefined;
}

const defaultRead = (p: string): string | undefined => {
  try {
    return readFileSync(p, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
};

/** What identifies a server regardless of its name: its command line, or its URL. */
export function serverIdentity(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  if (typeof e.command === 'string') return `stdio:${JSON.stringify([e.command, ...(Array.isArray(e.args) ? e.args.map(String) : [])])}`;
  if (typeof e.url === 'string') {
    try {
      const u = new URL(e.url);
      return `url:${u.href.replace(/\/$/, '')}`;
    } catch {
      return `url:${e.url}`;
    }
  }
  return undefined;
}

function targetOf(config: ServerConfig | undefined, shown: RawCandidate['shown']): { transport: ImportCandidate['transport']; target: string; maskedKeys: string[] } {
  if (!config) return { ...shown, maskedKeys: [] };
  if (isStdio(config)) {
    const maskedKeys = Object.keys(config.env ?? {}).filter(looksLikeSecretName).map((k) => `env.${k}`);
    return { transport: 'stdio', target: [config.command, ...(config.args ?? [])].join(' '), maskedKeys };
  }
  const maskedKeys = Object.keys(config.headers ?? {}).filter(looksLikeSecretName).map((k) => `headers.${k}`);
  return { transport: config.type === 'sse' ? 'sse' : 'http', target: config.url, maskedKeys };
}

/** Reads one location into a source with raw candidates. */
function readLocation(loc: ImportLocation, deps: ImportDeps, inputValues?: Record<string, string>): { source: Omit<ImportSource, 'candidates'>; raw: RawCandidate[] } {
  const read = deps.readFile ?? defaultRead;
  let text: string | undefined;
  try {
    text = read(loc.path);
  } catch (err) {
    return { source: { ...loc, found: true, ...sourceError(ui('import.unreadable', { why: (err as Error).message })) }, raw: [] };
  }
  if (text === undefined) return { source: { ...loc, found: false }, raw: [] };
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (err) {
    return { source: { ...loc, found: true, ...sourceError(ui('import.notJson', { why: describeJsonError(text, err) })) }, raw: [] };
  }
  const format = loc.format;
  const { candidates, error } = readServers(format, json, { ...deps.env, workspaceFolder: loc.workspaceFolder, path: loc.path, inputValues });
  return { source: { format, label: loc.label, ...(loc.labelUi && { labelUi: loc.labelUi }), path: loc.path, found: true, digest: textDigest(text), ...(error && sourceError(error)) }, raw: candidates };
}

/** Every location to look at for these options. */
function locations(opts: ScanOptions, deps: ImportDeps): ImportLocation[] {
  const list = standardLocations(deps.env, opts.workspaceFolder);
  if (opts.file && !list.some((l) => l.path === opts.file)) {
    let json: unknown;
    try {
      json = parseJsonc((deps.readFile ?? defaultRead)(opts.file) ?? '{}');
    } catch {
      json = {};
    }
    const format = guessFormat(opts.file, json);
    list.push({ format, label: english(ui('import.chosenFile')), labelUi: ui('import.chosenFile'), path: opts.file, workspaceFolder: opts.workspaceFolder });
  }
  return list;
}


/** `{ error, errorUi }` of a source from a message code. */
function sourceError(why: UiText): { error: string; errorUi: UiText } {
  return { error: english(why), errorUi: why };
}

/** Judges candidates in order against the existing entries and each other (first one wins). */
function judge(raw: RawCandidate[], existing: Record<string, unknown>, taken: { names: Map<string, string>; identities: Map<string, string> }, sourceLabel: string): ImportCandidate[] {
  return raw.map((c) => {
    const shown = targetOf(c.config, c.shown);
    const inputs = c.inputs.map((i) => ({ ...i }));
    const base = { name: c.name, ...shown, inputs, unresolved: c.unresolved, warnings: c.warnings, ...(c.routed && { routed: true }) };
    if (c.routed) return { ...base, status: 'duplicate' as const, ...because(ui('import.routed')) };
    if (c.invalid) return { ...base, status: 'invalid' as const, ...because(c.invalid) };
    const identity = serverIdentity(c.config);
    const sameName = c.name in existing ? ui('import.nameConfigured') : taken.names.has(c.name) ? ui('import.nameTaken', { source: taken.names.get(c.name)! }) : undefined;
    const sameTarget = identity && (taken.identities.get(identity) ?? Object.entries(existing).find(([, e]) => serverIdentity(e) === identity)?.[0]);
    if (sameName) return { ...base, status: 'duplicate' as const, ...because(sameName) };
    if (sameTarget) return { ...base, status: 'duplicate' as const, ...because(ui(shown.transport === 'stdio' ? 'import.sameCommand' : 'import.sameUrl', { name: sameTarget })) };
    taken.names.set(c.name, sourceLabel);
    if (identity) taken.identities.set(identity, c.name);
    return { ...base, status: 'new' as const };
  });
}

/** Finds and reads every config file; nothing is written. */
export function scanImports(opts: ScanOptions, deps: ImportDeps): ImportScan {
  const existing = deps.existing();
  const taken = { names: new Map<string, string>(), identities: new Map<string, string>() };
  const sources = locations(opts, deps).map((loc) => {
    const { source, raw } = readLocation(loc, deps);
    const candidates = judge(raw, existing, taken, source.label).map((c) => ({
      ...c,
      inputs: c.inputs.map((i) => ({ ...i, key: inputKey(source.path, i.id) })),
    }));
    return { ...source, candidates };
  });
  return { sources };
}

/**
 * Works out what to add for the person's selection (`path` + `name` of each picked candidate),
 * with `${input:…}` values by key. Re-reads the files; each pick is judged again against the file
 * and against the picks before it.
 * @returns the entries to add, in order, and the picks skipped with their reason
 */
export function planImport(
  opts: ScanOptions,
  selections: Array<{ path: string; name: string }>,
  inputValues: Record<string, string>,
  deps: ImportDeps,
): { add: Array<[string, ServerConfig]>; skipped: ImportOutcome['skipped'] } {
  const existing = deps.existing();
  const taken = { names: new Map<string, string>(), identities: new Map<string, string>() };
  const add: Array<[string, ServerConfig]> = [];
  const skipped: ImportOutcome['skipped'] = [];
  const byPath = new Map(locations(opts, deps).map((l) => [l.path, l]));
  for (const pick of selections) {
    const loc = byPath.get(pick.path);
    if (!loc) {
      skipped.push({ name: pick.name, ...because(ui('import.notScanned', { path: pick.path })) });
      continue;
    }
    const { source, raw } = readLocation(loc, deps, inputValues);
    const candidate = raw.find((c) => c.name === pick.name);
    if (!candidate) {
      skipped.push({ name: pick.name, ...because(source.errorUi ?? ui('import.gone', { name: pick.name, path: pick.path })) });
      continue;
    }
    const missing = candidate.inputs.filter((i) => !inputValues[inputKey(pick.path, i.id)]);
    if (missing.length) {
      skipped.push({ name: pick.name, ...because(ui('import.needsValue', { names: missing.map((i) => `\${input:${i.id}}`).join(', ') })) });
      continue;
    }
    const [judged] = judge([candidate], existing, taken, source.label);
    if (judged!.status !== 'new' || !candidate.config) {
      skipped.push({ name: pick.name, ...because(judged!.reasonUi ?? ui('import.cannot')) });
      continue;
    }
    add.push([pick.name, candidate.config]);
  }
  return { add, skipped };
}
