/**
 * Pure helpers of the provider editor: the form's draft, made from a preset or an existing
 * provider, and turned back into the {@link ProviderSettings} the API takes. The typed API key is
 * kept in the editor's local state only until it is sent; it never enters the store.
 */
import { defaultModelFacts, PROVIDER_PRESETS, type FamilyRule, type ModelFacts, type OpenAIApi, type ProviderKind, type ProviderPreset, type ProviderSettings } from '../../../shared/contract/providers';
import type { ProviderView } from '../../../shared/contract/state';

/** The editor's form state. `facts` holds the facts of models the person edited (the rest are defaults). */
export interface ProviderDraft {
  id: string;
  kind: Exclude<ProviderKind, 'manual'>;
  label: string;
  preset?: string;
  baseURL: string;
  models: string[];
  facts: Record<string, ModelFacts>;
  openaiApi: OpenAIApi;
}

/** A free id based on `base` ("ollama", "ollama-2", …). */
export function freeId(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base}-${i}`)) return `${base}-${i}`;
}

/** A new provider's draft from a preset. */
export function draftFromPreset(preset: ProviderPreset, taken: readonly string[]): ProviderDraft {
  return { id: freeId(preset.id, [...taken, 'manual']), kind: preset.kind, label: preset.label, preset: preset.id, baseURL: preset.baseURL ?? '', models: [], facts: {}, openaiApi: 'responses' };
}

/** The draft of an existing provider (facts: only the ones the person set). */
export function draftFromView(view: ProviderView): ProviderDraft {
  const custom = new Set(view.customFacts ?? []);
  const facts: Record<string, ModelFacts> = {};
  for (const [m, f] of Object.entries(view.modelFacts ?? {})) if (custom.has(m)) facts[m] = f;
  return {
    id: view.id,
    kind: view.kind === 'manual' ? 'openai-compatible' : view.kind,
    label: view.label,
    ...(view.preset ? { preset: view.preset } : {}),
    baseURL: view.baseURL ?? '',
    models: [...view.models],
    facts,
    openaiApi: view.openaiApi ?? 'responses',
  };
}

/** The facts shown for a model: the person's, else the view's (registry defaults), else computed defaults. */
export function shownFacts(draft: ProviderDraft, view: ProviderView | undefined, modelId: string, families: readonly FamilyRule[] | undefined): ModelFacts {
  return draft.facts[modelId] ?? view?.modelFacts?.[modelId] ?? defaultModelFacts(draft.kind, modelId, families);
}

/** The settings the API takes. An empty base URL of a hosted kind means its official one. */
export function settingsOf(draft: ProviderDraft): ProviderSettings {
  const facts = Object.fromEntries(Object.entries(draft.facts).filter(([m]) => draft.models.includes(m)));
  const baseURL = draft.baseURL.trim();
  return {
    id: draft.id.trim(),
    kind: draft.kind,
    ...(draft.label.trim() ? { label: draft.label.trim() } : {}),
    ...(draft.preset ? { preset: draft.preset } : {}),
    ...(baseURL ? { baseURL } : {}),
    models: draft.models,
    ...(Object.keys(facts).length ? { modelFacts: facts } : {}),
    ...(draft.kind === 'openai' ? { openaiApi: draft.openaiApi } : {}),
  };
}

/**
 * A problem that blocks saving: `code` names the sentence (locale key `providers:problems.<code>`),
 * `id` is the taken id for `idTaken`.
 */
export type DraftProblem = { code: 'badId' } | { code: 'idTaken'; id: string } | { code: 'baseUrlMissing' } | { code: 'baseUrlScheme' };

/** Problems that block saving (empty when the draft can be saved); the editor words them. */
export function draftProblems(draft: ProviderDraft, taken: readonly string[]): DraftProblem[] {
  const out: DraftProblem[] = [];
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(draft.id.trim())) out.push({ code: 'badId' });
  if (taken.includes(draft.id.trim())) out.push({ code: 'idTaken', id: draft.id.trim() });
  if (draft.kind === 'openai-compatible' && !draft.baseURL.trim()) out.push({ code: 'baseUrlMissing' });
  if (draft.baseURL.trim() && !/^https?:\/\/\S+$/.test(draft.baseURL.trim())) out.push({ code: 'baseUrlScheme' });
  return out;
}

/** The preset list, for the "Add provider" choices. */
export const PRESETS = PROVIDER_PRESETS;
