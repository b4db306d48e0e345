/** API roots of configured providers, without loading any provider's SDK. */
import { defaultBaseURL, type ProviderKind } from '../../shared/contract/providers.js';

/** `url` without its trailing slashes (`http://h/v1/` → `http://h/v1`; a bare `/` stays): the form API roots are kept and shown in. */
export function apiRoot(url: string): string {
  return url.replace(/(?<!\/)\/+$/, '');
}

/** The resolved API root of a hosted provider config: its `baseURL`, else the kind's official one (trailing slashes removed). */
export function hostedBaseURL(kind: Exclude<ProviderKind, 'manual' | 'openai-compatible'>, config: { baseURL?: string }): string {
  return apiRoot(config.baseURL ?? defaultBaseURL(kind) ?? '');
}
