/**
 * The contract's smallest words, in a leaf module every other shared module may import without
 * closing an import cycle: the protocol era, provider kinds, model and rule references, token
 * usage. ./state.ts and ./providers.ts re-export them.
 */

/** Protocol era of a connection: `legacy` = ≤ 2025-11-25 push, `modern` = 2026-07-28 (MRTR). */
export type ProtocolEra = 'legacy' | 'modern';

/** Provider kinds. `manual` = the person writes the response; the others go through the AI SDK. */
export const PROVIDER_KINDS = ['manual', 'openai-compatible', 'anthropic', 'openai', 'google'] as const;
/** A provider kind. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
/** Id (and only model id) of the built-in "write the response myself" provider. */
export const MANUAL_PROVIDER_ID = 'manual';

/** A model of a configured provider. */
export interface ModelRef {
  providerId: string;
  modelId: string;
}

/** Token counts reported by the provider. */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** A reference to the exact rule (and its version) that decided, so history can say why. */
export interface RuleRef {
  serverId: string;
  ruleId: string;
  /** The rule's version when it decided; bumped on every edit. */
  version: number;
  name: string;
}
