/**
 * Explainable model choice from a request's `modelPreferences` (SPEC-SAMPLING.md "Model
 * preferences": hints are substrings matched against model names, evaluated in order; the first
 * that matches an available model wins; hints are advisory).
 *
 * This is the skeleton's rule set: hints, then the default model. Priorities are shown to the
 * person but only steer the choice once per-model facts exist (providers issue).
 * Pure: no Node, DOM or Electron.
 */
import type { ModelPreferences } from './sampling.js';
import type { ModelChoice, ModelRef, ProviderView } from './state.js';

/** Every selectable model of every provider, in provider order. */
export function listModels(providers: readonly ProviderView[]): ModelRef[] {
  return providers.flatMap((p) => p.models.map((modelId) => ({ providerId: p.id, modelId })));
}

/**
 * Chooses the model for a sampling request.
 *
 * @param prefs the request's `modelPreferences` (may be undefined)
 * @param providers configured providers; the manual provider is never matched by a hint
 * @param fallback the console's default model, used when no hint matches
 * @returns the chosen model with a one-line reason, e.g. "hint 'gpt' matched 'gpt-4o-mini'" or
 *   "no hint matched 'claude'; using the default model (Write the response myself)". Never throws.
 */
export function chooseModel(
  prefs: ModelPreferences | undefined,
  providers: readonly ProviderView[],
  fallback: ModelRef,
): ModelChoice {
  const hints = (prefs?.hints ?? []).map((h) => h.name?.trim()).filter((n): n is string => !!n);
  const candidates = providers.filter((p) => p.kind !== 'manual');
  for (const hint of hints) {
    const needle = hint.toLowerCase();
    for (const p of candidates) {
      const modelId = p.models.find((m) => m.toLowerCase().includes(needle));
      if (modelId) return { providerId: p.id, modelId, reason: `hint '${hint}' matched '${modelId}' (${p.label})` };
    }
  }
  const label = providers.find((p) => p.id === fallback.providerId)?.label ?? fallback.providerId;
  const known = providers.some((p) => p.id === fallback.providerId && p.models.includes(fallback.modelId));
  const target = known ? fallback : firstModel(providers) ?? fallback;
  const what = known ? `the default model (${label})` : `the first configured model`;
  const reason = hints.length
    ? `no configured model matched the hints ${hints.map((h) => `'${h}'`).join(', ')}; using ${what}`
    : `the request names no model hints; using ${what}`;
  return { ...target, reason };
}

function firstModel(providers: readonly ProviderView[]): ModelRef | undefined {
  return listModels(providers)[0];
}
