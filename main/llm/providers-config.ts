/**
 * `providers.json` in the user-data folder, plus one provider configured purely from environment
 * variables. Never throws for bad configuration: problems come back as readable strings (for the
 * person, e.g. as notices) and the rest of the configuration still loads.
 *
 * File format (unknown keys are ignored):
 * ```json
 * {
 *   "providers": [
 *     { "id": "lmstudio", "kind": "openai-compatible", "label": "LM Studio",
 *       "baseURL": "http://127.0.0.1:1234/v1", "models": ["llama3.2"],
 *       "apiKey": "${env:LMSTUDIO_API_KEY}", "headers": { "X-Org": "me" } }
 *   ],
 *   "defaultProvider": "lmstudio",
 *   "defaultModel": "llama3.2"
 * }
 * ```
 * API keys may only be written as `${env:NAME}`: a literal key is refused (keys never live in
 * plaintext config). Header values may be literals or `${env:NAME}`; credential-like headers
 * (Authorization, api-key, …) must be references too.
 *
 * Environment-only provider (id {@link ENV_PROVIDER_ID}): `OPENAI_COMPATIBLE_BASE_URL`,
 * `OPENAI_COMPATIBLE_MODEL` (one id or a comma-separated list), `OPENAI_COMPATIBLE_API_KEY`.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import type { ModelRef } from '../../shared/state.js';
import { createManualProvider, MANUAL_PROVIDER_ID } from './manual.js';
import { createOpenAICompatibleProvider, type OpenAICompatibleConfig } from './openai-compatible.js';
import type { LlmProvider } from './provider.js';

/** Environment variables, as `process.env` holds them. Passed in, never read globally. */
export type Env = Record<string, string | undefined>;

/** The result of loading: every provider (configured ones first, manual last), the default model, and problems found. */
export interface LoadedProviders {
  providers: LlmProvider[];
  defaultModel: ModelRef;
  /** Readable problems, each naming the file (or the environment variable) and what is wrong. */
  problems: string[];
}

/** File name of the providers configuration inside the user-data folder. */
export const PROVIDERS_CONFIG_FILE = 'providers.json';

/** Id of the provider configured from OPENAI_COMPATIBLE_* environment variables. */
export const ENV_PROVIDER_ID = 'openai-compatible-env';

const ENV_REF = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|cookie/i;

/** One entry of `providers` (structure only; API-key and header rules are checked after). */
export const ProviderEntrySchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, ".", "_" or "-"'),
  kind: z.literal('openai-compatible'),
  label: z.string().min(1).optional(),
  baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as "http://127.0.0.1:1234/v1"' }),
  models: z.array(z.string().min(1)).min(1, 'list at least one model id'),
  apiKey: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type ProviderEntry = z.infer<typeof ProviderEntrySchema>;

/** The top level of `providers.json`; entries are validated one by one so one bad entry does not hide the others. */
export const ProvidersFileSchema = z.looseObject({
  providers: z.array(z.unknown()).optional(),
  defaultProvider: z.string().optional(),
  defaultModel: z.string().optional(),
});

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
 * Builds the provider configured by OPENAI_COMPATIBLE_BASE_URL / _MODEL / _API_KEY, if any.
 * @returns the config (undefined when neither BASE_URL nor MODEL is set, or one is missing) and problems.
 */
export function providerFromEnv(env: Env): { config?: OpenAICompatibleConfig; problems: string[] } {
  const baseURL = env.OPENAI_COMPATIBLE_BASE_URL?.trim();
  const models = (env.OPENAI_COMPATIBLE_MODEL ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (!baseURL && models.length === 0) return { problems: [] };
  if (!baseURL) return { problems: ['OPENAI_COMPATIBLE_MODEL is set but OPENAI_COMPATIBLE_BASE_URL is not: set it to the API root, e.g. http://127.0.0.1:1234/v1'] };
  if (!z.url({ protocol: /^https?$/ }).safeParse(baseURL).success) return { problems: [`OPENAI_COMPATIBLE_BASE_URL is not an http(s) URL: "${baseURL}"`] };
  if (models.length === 0) return { problems: ['OPENAI_COMPATIBLE_BASE_URL is set but OPENAI_COMPATIBLE_MODEL is not: set it to a model id (or a comma-separated list)'] };
  const apiKey = env.OPENAI_COMPATIBLE_API_KEY || undefined;
  return {
    config: { id: ENV_PROVIDER_ID, label: 'OpenAI-compatible (environment)', baseURL, models, ...(apiKey ? { apiKey } : {}) },
    problems: [],
  };
}

/** Validates one `providers[i]` entry and resolves its secrets. Never echoes a literal key. */
function entryToConfig(raw: unknown, index: number, where: string, env: Env, problems: string[]): OpenAICompatibleConfig | undefined {
  const parsed = ProviderEntrySchema.safeParse(raw);
  const name = typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' ? `"${raw.id}"` : `#${index + 1}`;
  if (!parsed.success) {
    problems.push(`${where}: provider ${name} skipped: ${issuesText(parsed.error)}`);
    return undefined;
  }
  const entry = parsed.data;
  const config: OpenAICompatibleConfig = { id: entry.id, label: entry.label ?? entry.id, baseURL: entry.baseURL, models: entry.models };
  if (entry.apiKey !== undefined) {
    const ref = resolveEnvReference(entry.apiKey, env);
    if (!ref) {
      problems.push(
        `${where}: provider ${name} skipped: "apiKey" must be a reference to an environment variable such as "\${env:OPENAI_API_KEY}" — ` +
          'API keys are never stored in plain text in config files; put the key in an environment variable and reference it',
      );
      return undefined;
    }
    if (ref.value === undefined) problems.push(`${where}: provider ${name}: environment variable ${ref.name} (its apiKey) is not set; requests will be sent without an API key`);
    else config.apiKey = ref.value;
  }
  if (entry.headers) {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(entry.headers)) {
      const ref = resolveEnvReference(value, env);
      if (ref) {
        if (ref.value === undefined) problems.push(`${where}: provider ${name}: environment variable ${ref.name} (header ${key}) is not set; header not sent`);
        else headers[key] = ref.value;
      } else if (CREDENTIAL_HEADER.test(key)) {
        problems.push(`${where}: provider ${name} skipped: header "${key}" looks like a credential and must be written as "\${env:NAME}", not in plain text`);
        return undefined;
      } else headers[key] = value;
    }
    if (Object.keys(headers).length > 0) config.headers = headers;
  }
  return config;
}

/** Picks the default model: `defaultProvider`/`defaultModel` when valid, else the first configured provider's first model, else manual. */
function chooseDefault(configs: OpenAICompatibleConfig[], file: { defaultProvider?: string; defaultModel?: string }, where: string, problems: string[]): ModelRef {
  const manual: ModelRef = { providerId: MANUAL_PROVIDER_ID, modelId: MANUAL_PROVIDER_ID };
  const first = configs[0];
  const fallback: ModelRef = first?.models[0] ? { providerId: first.id, modelId: first.models[0] } : manual;
  const { defaultProvider, defaultModel } = file;
  if (defaultProvider !== undefined) {
    if (defaultProvider === MANUAL_PROVIDER_ID) return manual;
    const p = configs.find((c) => c.id === defaultProvider);
    if (!p) {
      problems.push(`${where}: defaultProvider "${defaultProvider}" is not a configured provider; using ${fallback.providerId}/${fallback.modelId}`);
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
 * Pure core of {@link loadProvidersConfig}: `text` is the file content, or undefined when the file
 * does not exist. Broken JSON or a bad top level gives the defaults plus a problem naming the file
 * (with line and column for syntax errors); a bad entry is skipped with a problem.
 */
export function parseProvidersConfig(text: string | undefined, filePath: string, env: Env): LoadedProviders {
  const problems: string[] = [];
  const where = `${basename(filePath)} (${filePath})`;
  let file: z.infer<typeof ProvidersFileSchema> = {};
  if (text !== undefined && text.trim() !== '') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      const loc = jsonErrorLocation(text, e);
      const message = e.message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
      problems.push(`${where}: invalid JSON${loc ? ` at line ${loc.line}, column ${loc.column}` : ''}: ${message}. The file was ignored`);
      json = undefined;
    }
    if (json !== undefined) {
      const top = ProvidersFileSchema.safeParse(json);
      if (top.success) file = top.data;
      else problems.push(`${where}: ${issuesText(top.error)}. The file was ignored`);
    }
  }

  const configs: OpenAICompatibleConfig[] = [];
  const addConfig = (config: OpenAICompatibleConfig, source: string): void => {
    if (config.id === MANUAL_PROVIDER_ID || configs.some((c) => c.id === config.id)) {
      problems.push(`${source}: provider id "${config.id}" is ${config.id === MANUAL_PROVIDER_ID ? 'reserved' : 'used twice'}; this provider was skipped`);
    } else configs.push(config);
  };
  (file.providers ?? []).forEach((raw, i) => {
    const config = entryToConfig(raw, i, where, env, problems);
    if (config) addConfig(config, where);
  });
  const fromEnv = providerFromEnv(env);
  problems.push(...fromEnv.problems);
  if (fromEnv.config) addConfig(fromEnv.config, 'environment');

  const defaultModel = chooseDefault(configs, file, where, problems);
  return { providers: [...configs.map(createOpenAICompatibleProvider), createManualProvider()], defaultModel, problems };
}

/**
 * Loads `providers.json` from `filePath` (usually `join(userDataDir, PROVIDERS_CONFIG_FILE)`) and
 * the environment (`ports.env ?? process.env`), synchronously (it runs once at startup). A missing
 * file means defaults, without a problem. Never throws for configuration errors; an unreadable
 * file (permissions, a directory) is a problem too.
 */
export function loadProvidersConfig(filePath: string, env: Env): LoadedProviders {
  let text: string | undefined;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    if (code !== 'ENOENT') {
      const result = parseProvidersConfig(undefined, filePath, env);
      result.problems.unshift(`${basename(filePath)} (${filePath}): cannot be read (${error instanceof Error ? error.message : String(error)}). The file was ignored`);
      return result;
    }
  }
  return parseProvidersConfig(text, filePath, env);
}
