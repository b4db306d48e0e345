/** API roots of configured providers, without loading any provider's SDK. */
import { defaultBaseURL, type ProviderKind } from '../../shared/contract/providers.js';

/** The resolved API root of a hosted provider config: its `baseURL`, else the kind's official one (trailing slashes removed). */
export function hostedBaseURL(kind: Exclude<ProviderKind, 'manual' | 'openai-compatible'>, config: { baseURL?: string }): string {
  return (config.baseURL ?? defaultBaseURL(kind) ?? '').replace(/(?<!\/)\/+$/, '');
}
