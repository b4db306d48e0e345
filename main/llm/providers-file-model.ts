/**
 * The model of `providers.json` (format: providers-config.ts): the schemas its text is checked
 * with, the types it is parsed into, and its names. providers-config.ts reads it (and re-exports
 * all of this); providers-file-shape.ts writes it.
 */
import { z } from 'zod';
import type { FamilyRule, ServerModelSettings } from '../../shared/contract/providers.js';
import type { ModelRef } from '../../shared/contract/state.js';
import type { ResolvedProvider } from './create-provider.js';
import type { LlmProvider } from './provider.js';

/** Environment variables, as `process.env` holds them. Passed in, never read globally. */
export type Env = Record<string, string | undefined>;

/** One configured provider as the file (or the environment) states it, with env references resolved. */
export interface ConfiguredProvider extends ResolvedProvider {
  /** The `${env:NAME}` text of `apiKey` in the file, kept for rewriting. */
  apiKeyRef?: string;
  /** Headers as written in the file (references unresolved), kept for rewriting. */
  headersRaw?: Record<string, string>;
}

/** Everything the file says, parsed. `families` is absent while the default table is in use. */
export interface ProvidersFileModel {
  entries: ConfiguredProvider[];
  /** The OPENAI_COMPATIBLE_* provider, if configured. */
  envEntry?: ConfiguredProvider;
  defaultProvider?: string;
  defaultModel?: string;
  families?: FamilyRule[];
  servers: Record<string, ServerModelSettings>;
  /** Entries that were skipped (invalid), kept verbatim so rewriting the file never loses them. */
  skipped: unknown[];
  /** The file exists but could not be read or parsed: the console must not overwrite it. */
  broken?: boolean;
}

/** The result of loading: every provider (configured ones first, manual last), the default model, problems found, and the parsed file. */
export interface LoadedProviders {
  providers: LlmProvider[];
  defaultModel: ModelRef;
  /** Readable problems, each naming the file (or the environment variable) and what is wrong. */
  problems: string[];
  file: ProvidersFileModel;
}

/** File name of the providers configuration inside the user-data folder. */
export const PROVIDERS_CONFIG_FILE = 'providers.json';

/** Id of the provider configured from OPENAI_COMPATIBLE_* environment variables. */
export const ENV_PROVIDER_ID = 'openai-compatible-env';


/** One entry of `providers` (structure only; API-key and header rules are checked after). */
export const ProviderEntrySchema = z
  .looseObject({
    id: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, ".", "_" or "-"'),
    kind: z.enum(['openai-compatible', 'anthropic', 'openai', 'google']),
    label: z.string().min(1).optional(),
    preset: z.string().max(50).optional(),
    baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as "http://127.0.0.1:1234/v1"' }).optional(),
    models: z.array(z.string().min(1)).default([]),
    modelFacts: z.record(z.string(), z.unknown()).optional(),
    openaiApi: z.enum(['responses', 'chat']).optional(),
    timeouts: z.unknown().optional(),
    apiKey: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .refine((e) => e.kind !== 'openai-compatible' || e.baseURL !== undefined, { path: ['baseURL'], message: 'an openai-compatible provider needs its baseURL, e.g. "http://127.0.0.1:11434/v1"' });
export type ProviderEntry = z.infer<typeof ProviderEntrySchema>;

/** The top level of `providers.json`; entries are validated one by one so one bad entry does not hide the others. */
export const ProvidersFileSchema = z.looseObject({
  providers: z.array(z.unknown()).optional(),
  defaultProvider: z.string().optional(),
  defaultModel: z.string().optional(),
  families: z.array(z.unknown()).optional(),
  servers: z.record(z.string(), z.unknown()).optional(),
});
