/**
 * `providers.json` in the user-data folder, plus one provider configured purely from environment
 * variables. Reading never throws for bad configuration: problems come back as readable strings
 * (for the person, as notices) and the rest of the configuration still loads. The Providers
 * screen writes this file back through {@link serializeProvidersFile} (main/llm/registry.ts).
 * The file's schemas and the types it is parsed into: providers-file-model.ts (re-exported here).
 *
 * File format (unknown keys are ignored, and kept — in place, in the file's order — when the console
 * rewrites the file; see providers-file-shape.ts):
 * ```json
 * {
 *   "providers": [
 *     { "id": "anthropic", "kind": "anthropic", "models": ["claude-sonnet-4-5"] },
 *     { "id": "lmstudio", "kind": "openai-compatible", "preset": "lmstudio", "label": "LM Studio",
 *       "baseURL": "http://127.0.0.1:1234/v1", "models": ["llama3.2"],
 *       "modelFacts": { "llama3.2": { "cost": 1, "speed": 3, "intelligence": 2, "tools": "prompt",
 *                                     "images": false, "audio": false, "contextWindow": 8192 } },
 *       "timeouts": { "firstByteMs": 300000 },
 *       "apiKey": "${env:LMSTUDIO_API_KEY}", "headers": { "X-Org": "me" } }
 *   ],
 *   "defaultProvider": "lmstudio",
 *   "defaultModel": "llama3.2",
 *   "families": [{ "pattern": "sonnet", "family": "balanced" }],
 *   "servers": { "everything": { "allowedModels": [{ "providerId": "lmstudio", "modelId": "llama3.2" }],
 *                                "defaultModel": { "providerId": "lmstudio", "modelId": "llama3.2" } } }
 * }
 * ```
 * Kinds: `openai-compatible` (needs `baseURL`), `anthropic`, `openai` (optional `openaiApi`:
 * `responses` | `chat`), `google`; hosted kinds default to their official `baseURL`. `timeouts`
 * (optional, each in ms): `firstByteMs`, `idleMs`, `totalMs` of one call (shared/contract/providers.ts
 * `ProviderTimeoutsSchema`; defaults `DEFAULT_PROVIDER_TIMEOUTS`). API keys are
 * never written in this file: `apiKey` may only be a `${env:NAME}` reference (a literal key is
 * refused); keys entered on the Providers screen live in the secret store. Header values may be
 * literals or `${env:NAME}`; credential-like headers (Authorization, api-key, …) must be references.
 *
 * Environment-only provider (id {@link ENV_PROVIDER_ID}): `OPENAI_COMPATIBLE_BASE_URL`,
 * `OPENAI_COMPATIBLE_MODEL` (one id or a comma-separated list), `OPENAI_COMPATIBLE_API_KEY`.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { DEFAULT_FAMILY_RULES, FamilyRuleSchema, ModelFactsSchema, ProviderTimeoutsSchema, ServerModelSettingsSchema, type FamilyRule, type ProviderSettings, type ServerModelSettings } from '../../shared/contract/providers.js';
import type { ModelRef } from '../../shared/contract/state.js';
import { createProvider } from './create-provider.js';
import { createManualProvider, MANUAL_PROVIDER_ID } from './manual.js';
import { ENV_PROVIDER_ID, ProviderEntrySchema, ProvidersFileSchema, type ConfiguredProvider, type ProviderEntry, type Env, type LoadedProviders, type ProvidersFileModel } from './providers-file-model.js';

export {
  ENV_PROVIDER_ID,
  PROVIDERS_CONFIG_FILE,
  ProviderEntrySchema,
  ProvidersFileSchema,
  type ConfiguredProvider,
  type Env,
  type LoadedProviders,
  type ProviderEntry,
  type ProvidersFileModel,
} from './providers-file-model.js';

/** A `${env:NAME}` reference, the whole value. */
const ENV_REF = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** Header names that look like credentials (their values must be env references). */
const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|cookie/i;

/**
 * Resolves a `${env:NAME}` reference.
 * @returns `{name, value}` (value undefined when the variable is unset or empty), or undefined
 *   when `text` is not a reference.
 */
export function resolveEnvReference(text: string, env: Env): { name: string; value: string | undefined } | undefined {
  const m = ENV_REF.exec(text.trim());
  if (!m?.[1]) return undefined;
  const value = env[m[1]];
  return { name: m[1], value: value === '' ? undefined : value };
}

/** 1-based line and column of a 0-based character offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** Where a JSON.parse SyntaxError points, from its "position N" (or Node 22's "line L column C"), if stated. */
function jsonErrorLocation(text: string, error: Error): { line: number; column: number } | undefined {
  const lc = /line (\d+) column (\d+)/.exec(error.message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(error.message);
  if (pos) return lineAndColumn(text, Number(pos[1]));
  if (/Unexpected end of JSON input/i.test(error.message)) return lineAndColumn(text, text.length);
  return undefined;
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`).join('; ');
}

/**
 * The provider configured by OPENAI_COMPATIBLE_BASE_URL / _MODEL / _API_KEY, if any.
 * @returns the entry (undefined when neither BASE_URL nor MODEL is set, or one is missing) and problems.
 */
export function providerFromEnv(env: Env): { entry?: ConfiguredProvider; problems: string[] } {
  const baseURL = env.OPENAI_COMPATIBLE_BASE_URL?.trim();
  const models = (env.OPENAI_COMPATIBLE_MODEL ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (!baseURL && models.length === 0) return { problems: [] };
  if (!baseURL) return { problems: ['OPENAI_COMPATIBLE_MODEL is set but OPENAI_COMPATIBLE_BASE_URL is not: set it to the API root, e.g. http://127.0.0.1:1234/v1'] };
  if (!z.url({ protocol: /^https?$/ }).safeParse(baseURL).success) return { problems: [`OPENAI_COMPATIBLE_BASE_URL is not an http(s) URL: "${baseURL}"`] };
  if (models.length === 0) return { problems: ['OPENAI_COMPATIBLE_BASE_URL is set but OPENAI_COMPATIBLE_MODEL is not: set it to a model id (or a comma-separated list)'] };
  const apiKey = env.OPENAI_COMPATIBLE_API_KEY || undefined;
  const settings: ProviderSettings = { id: ENV_PROVIDER_ID, kind: 'openai-compatible', label: 'OpenAI-compatible (environment)', baseURL, models };
  return { entry: { settings, source: 'env', ...(apiKey ? { apiKey } : {}) }, problems: [] };
}

/**
 * The settings of a valid entry: model facts and time limits that do not fit their schemas are
 * left out (their defaults apply), each with a problem naming `where`.
 */
function settingsOf(e: ProviderEntry, where: string, problems: string[]): ProviderSettings {
  const modelFacts: NonNullable<ProviderSettings['modelFacts']> = {};
  for (const [model, facts] of Object.entries(e.modelFacts ?? {})) {
    const f = ModelFactsSchema.safeParse(facts);
    if (f.success) modelFacts[model] = f.data;
    else problems.push(`${where}: modelFacts for "${model}" ignored (${issuesText(f.error)}); using the defaults`);
  }
  const timeouts = e.timeouts === undefined ? undefined : ProviderTimeoutsSchema.safeParse(e.timeouts);
  if (timeouts && !timeouts.success) problems.push(`${where}: timeouts ignored (${issuesText(timeouts.error)}); using the defaults`);
  return {
    id: e.id,
    kind: e.kind,
    models: e.models,
    ...(e.label ? { label: e.label } : {}),
    ...(e.preset ? { preset: e.preset } : {}),
    ...(e.baseURL ? { baseURL: e.baseURL } : {}),
    ...(Object.keys(modelFacts).length ? { modelFacts } : {}),
    ...(e.openaiApi ? { openaiApi: e.openaiApi } : {}),
    ...(timeouts?.success && Object.keys(timeouts.data).length ? { timeouts: timeouts.data } : {}),
  };
}

/** Validates one `providers[i]` entry and resolves its env references. Never echoes a literal key. */
function parseEntry(raw: unknown, index: number, where: string, env: Env, problems: string[]): ConfiguredProvider | undefined {
  const parsed = ProviderEntrySchema.safeParse(raw);
  const name = typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' ? `"${raw.id}"` : `#${index + 1}`;
  if (!parsed.success) {
    problems.push(`${where}: provider ${name} skipped: ${issuesText(parsed.error)}`);
    return undefined;
  }
  const e = parsed.data;
  const settings = settingsOf(e, `${where}: provider ${name}`, problems);
  const entry: ConfiguredProvider = { settings, source: 'console' };
  if (e.apiKey !== undefined) {
    const ref = resolveEnvReference(e.apiKey, env);
    if (!ref) {
      problems.push(
        `${where}: provider ${name} skipped: "apiKey" must be a reference to an environment variable such as "\${env:OPENAI_API_KEY}" — ` +
          'API keys are never stored in plain text in config files; enter the key on the Providers screen (it goes to the secret store) or reference an environment variable',
      );
      return undefined;
    }
    entry.apiKeyRef = e.apiKey.trim();
    if (ref.value === undefined) problems.push(`${where}: provider ${name}: environment variable ${ref.name} (its apiKey) is not set; requests will be sent without an API key unless one is entered on the Providers screen`);
    else entry.apiKey = ref.value;
  }
  if (e.headers) {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(e.headers)) {
      const ref = resolveEnvReference(value, env);
      if (ref) {
        if (ref.value === undefined) problems.push(`${where}: provider ${name}: environment variable ${ref.name} (header ${key}) is not set; header not sent`);
        else headers[key] = ref.value;
      } else if (CREDENTIAL_HEADER.test(key)) {
        problems.push(`${where}: provider ${name} skipped: header "${key}" looks like a credential and must be written as "\${env:NAME}", not in plain text`);
        return undefined;
      } else headers[key] = value;
    }
    entry.headersRaw = e.headers;
    if (Object.keys(headers).length > 0) entry.headers = headers;
  }
  return entry;
}

/**
 * The default model: `defaultProvider`/`defaultModel` when valid, else the first configured
 * provider's first model, else manual. Problems name what was ignored.
 */
export function chooseDefaultModel(entries: readonly ConfiguredProvider[], file: { defaultProvider?: string; defaultModel?: string }, where: string, problems: string[]): ModelRef {
  const manual: ModelRef = { providerId: MANUAL_PROVIDER_ID, modelId: MANUAL_PROVIDER_ID };
  const configs = entries.map((e) => e.settings);
  const first = configs.find((c) => c.models.length > 0);
  const fallback: ModelRef = first?.models[0] ? { providerId: first.id, modelId: first.models[0] } : manual;
  const { defaultProvider, defaultModel } = file;
  if (defaultProvider !== undefined) {
    if (defaultProvider === MANUAL_PROVIDER_ID) return manual;
    const p = configs.find((c) => c.id === defaultProvider);
    if (!p || p.models.length === 0) {
      problems.push(`${where}: defaultProvider "${defaultProvider}" is not a configured provider with models; using ${fallback.providerId}/${fallback.modelId}`);
      return fallback;
    }
    if (defaultModel !== undefined && !p.models.includes(defaultModel)) {
      problems.push(`${where}: defaultModel "${defaultModel}" is not in the models of provider "${p.id}"; using "${p.models[0]}"`);
    }
    return { providerId: p.id, modelId: defaultModel !== undefined && p.models.includes(defaultModel) ? defaultModel : (p.models[0] as string) };
  }
  if (defaultModel !== undefined) {
    if (defaultModel === MANUAL_PROVIDER_ID) return manual;
    const p = configs.find((c) => c.models.includes(defaultModel));
    if (p) return { providerId: p.id, modelId: defaultModel };
    problems.push(`${where}: defaultModel "${defaultModel}" is not offered by any configured provider; using ${fallback.providerId}/${fallback.modelId}`);
  }
  return fallback;
}

/**
 * Parses the file text (undefined = no file) into the structured model. Broken JSON or a bad top
 * level gives an empty model plus a problem naming the file (with line and column for syntax
 * errors); a bad entry, family row or server setting is skipped with a problem.
 */
export function parseProvidersFile(text: string | undefined, filePath: string, env: Env): { file: ProvidersFileModel; problems: string[] } {
  const problems: string[] = [];
  const where = `${basename(filePath)} (${filePath})`;
  const { top, broken } = readTop(text, where, problems);
  const { entries, skipped, envEntry } = collectEntries(top, where, env, problems);
  const families = top.families ? parseFamilies(top.families, where, problems) : undefined;
  const servers = parseServers(top.servers ?? {}, where, problems);
  const file: ProvidersFileModel = {
    entries,
    servers,
    skipped,
    ...(broken ? { broken } : {}),
    ...(envEntry ? { envEntry } : {}),
    ...(top.defaultProvider !== undefined ? { defaultProvider: top.defaultProvider } : {}),
    ...(top.defaultModel !== undefined ? { defaultModel: top.defaultModel } : {}),
    ...(families ? { families } : {}),
  };
  return { file, problems };
}

/** The file's top level as the schema reads it; empty, and `broken` with a problem, when the text is not JSON or the top level does not fit. No text (or blank): empty, not broken. */
function readTop(text: string | undefined, where: string, problems: string[]): { top: z.infer<typeof ProvidersFileSchema>; broken: boolean } {
  if (text === undefined || text.trim() === '') return { top: {}, broken: false };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const loc = jsonErrorLocation(text, e);
    const message = e.message.replace(/(?<!\s)\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
    problems.push(`${where}: invalid JSON${loc ? ` at line ${loc.line}, column ${loc.column}` : ''}: ${message}. The file was ignored`);
    return { top: {}, broken: true };
  }
  const parsed = ProvidersFileSchema.safeParse(json);
  if (parsed.success) return { top: parsed.data, broken: false };
  problems.push(`${where}: ${issuesText(parsed.error)}. The file was ignored`);
  return { top: {}, broken: true };
}

/** Adds `entry` unless its id is manual's or already taken (then a problem from `source` says it was skipped). */
function addEntry(entries: ConfiguredProvider[], problems: string[], entry: ConfiguredProvider, source: string): void {
  const id = entry.settings.id;
  if (id === MANUAL_PROVIDER_ID || entries.some((c) => c.settings.id === id)) {
    problems.push(`${source}: provider id "${id}" is ${id === MANUAL_PROVIDER_ID ? 'reserved' : 'used twice'}; this provider was skipped`);
  } else entries.push(entry);
}

/**
 * The file's providers in order (an entry that cannot be used is kept raw in `skipped`), and the
 * provider the environment configures (`envEntry`, unless its id is taken by a file entry).
 */
function collectEntries(top: z.infer<typeof ProvidersFileSchema>, where: string, env: Env, problems: string[]): { entries: ConfiguredProvider[]; skipped: unknown[]; envEntry: ConfiguredProvider | undefined } {
  const entries: ConfiguredProvider[] = [];
  const skipped: unknown[] = [];
  (top.providers ?? []).forEach((raw, i) => {
    const entry = parseEntry(raw, i, where, env, problems);
    if (entry) addEntry(entries, problems, entry, where);
    else skipped.push(raw);
  });
  const fromEnv = providerFromEnv(env);
  problems.push(...fromEnv.problems);
  let envEntry: ConfiguredProvider | undefined;
  if (fromEnv.entry) {
    const before = entries.length;
    addEntry(entries, problems, fromEnv.entry, 'environment');
    if (entries.length > before) envEntry = entries.pop();
  }
  return { entries, skipped, envEntry };
}

/** The family rows that fit {@link FamilyRuleSchema}; each other row is ignored with a problem. */
function parseFamilies(rows: readonly unknown[], where: string, problems: string[]): FamilyRule[] {
  const families: FamilyRule[] = [];
  rows.forEach((row, i) => {
    const r = FamilyRuleSchema.safeParse(row);
    if (r.success) families.push(r.data);
    else problems.push(`${where}: families[${i}] ignored: ${issuesText(r.error)}`);
  });
  return families;
}

/** The per-server model settings that fit {@link ServerModelSettingsSchema}, by server id; each other one is ignored with a problem. */
function parseServers(raw: Record<string, unknown>, where: string, problems: string[]): Record<string, ServerModelSettings> {
  const servers: Record<string, ServerModelSettings> = {};
  for (const [id, settings] of Object.entries(raw)) {
    const r = ServerModelSettingsSchema.safeParse(settings);
    if (r.success) servers[id] = r.data;
    else problems.push(`${where}: servers.${id} ignored: ${issuesText(r.error)}`);
  }
  return servers;
}

/** All configured providers in order: the file's, then the environment's. */
export const allEntries = (file: ProvidersFileModel): ConfiguredProvider[] => [...file.entries, ...(file.envEntry ? [file.envEntry] : [])];

function build(parsed: { file: ProvidersFileModel; problems: string[] }, filePath: string): LoadedProviders {
  const { file, problems } = parsed;
  const families = file.families ?? DEFAULT_FAMILY_RULES;
  const entries = allEntries(file);
  const defaultModel = chooseDefaultModel(entries, file, `${basename(filePath)} (${filePath})`, problems);
  return { providers: [...entries.map((e) => createProvider(e, families)), createManualProvider()], defaultModel, problems, file };
}

/**
 * Pure core of {@link loadProvidersConfig}: `text` is the file content, or undefined when the file
 * does not exist. Providers get only their `${env:…}` keys here (the registry adds the secret store's).
 */
export function parseProvidersConfig(text: string | undefined, filePath: string, env: Env): LoadedProviders {
  return build(parseProvidersFile(text, filePath, env), filePath);
}

/** Reads and parses the file; a read failure other than "missing" becomes the first problem. Never throws. */
export function readProvidersFile(filePath: string, env: Env): { file: ProvidersFileModel; problems: string[] } {
  let text: string | undefined;
  let readProblem: string | undefined;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    if (code !== 'ENOENT') readProblem = `${basename(filePath)} (${filePath}): cannot be read (${error instanceof Error ? error.message : String(error)}). The file was ignored`;
  }
  const parsed = parseProvidersFile(text, filePath, env);
  if (readProblem) {
    parsed.problems.unshift(readProblem);
    parsed.file.broken = true;
  }
  return parsed;
}

/**
 * Loads `providers.json` from `filePath` (usually `join(userDataDir, PROVIDERS_CONFIG_FILE)`) and
 * the environment (`ports.env ?? process.env`), synchronously (it runs once at startup). A missing
 * file means defaults, without a problem. Never throws for configuration errors; an unreadable
 * file (permissions, a directory) is a problem too.
 */
export function loadProvidersConfig(filePath: string, env: Env): LoadedProviders {
  return build(readProvidersFile(filePath, env), filePath);
}

/**
 * The file's JSON text for a model (2-space indent, trailing newline). Keys are never included:
 * only `${env:…}` references that were already in the file. Skipped (invalid) entries are written
 * back verbatim after the others. The environment provider is not written; the family table only
 * once the person has edited it.
 */
export function serializeProvidersFile(file: ProvidersFileModel): string {
  const providers: unknown[] = file.entries.map((e) => ({
    ...e.settings,
    ...(e.apiKeyRef ? { apiKey: e.apiKeyRef } : {}),
    ...(e.headersRaw ? { headers: e.headersRaw } : {}),
  }));
  providers.push(...file.skipped);
  const out = {
    providers,
    ...(file.defaultProvider !== undefined ? { defaultProvider: file.defaultProvider } : {}),
    ...(file.defaultModel !== undefined ? { defaultModel: file.defaultModel } : {}),
    ...(file.families ? { families: file.families } : {}),
    ...(Object.keys(file.servers).length ? { servers: file.servers } : {}),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
