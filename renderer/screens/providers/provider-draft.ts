/**
 * Pure helpers of the provider editor: the form's draft, made from a preset or an existing
 * provider, and turned back into the {@link ProviderSettings} the API takes. The typed API key is
 * kept in the editor's local state only until it is sent; it never enters the store.
 */
import { defaultModelFacts, PROVIDER_PRESETS, type FamilyRule, type ModelFacts, type OpenAIApi, type ProviderKind, type ProviderPreset, type ProviderSettings, type ProviderTimeouts, type ProviderTimeoutSettings } from '../../../shared/contract/providers';
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
  /** The time limits as typed, in seconds ('' = the default). */
  limits: LimitsDraft;
}

/** A provider's three time limits (shared/contract/providers.ts `ProviderTimeouts`). */
export type LimitName = keyof ProviderTimeouts;
/** The limits in the order the editor shows them. */
export const LIMIT_NAMES: readonly LimitName[] = ['firstByteMs', 'idleMs', 'totalMs'];
/** The time limits as typed, in seconds; '' leaves a limit at its default. */
export type LimitsDraft = Record<LimitName, string>;

/** Shortest and longest limit the file accepts, in seconds (ProviderTimeoutsSchema: 50 ms … 1 hour). */
const LIMIT_RANGE_S = { min: 0.05, max: 3600 };

/** The typed seconds as ms; undefined for '' (the default); NaN when it is not a number in range. */
function limitMs(typed: string): number | undefined {
  const text = typed.trim();
  if (text === '') return undefined;
  const s = Number(text);
  return Number.isFinite(s) && s >= LIMIT_RANGE_S.min && s <= LIMIT_RANGE_S.max ? Math.round(s * 1000) : Number.NaN;
}

/** The draft of a provider's set limits (ms → seconds as text; unset ones empty). */
function limitsDraft(set: ProviderTimeoutSettings | undefined): LimitsDraft {
  const text = (ms: number | undefined) => (ms === undefined ? '' : String(ms / 1000));
  return { firstByteMs: text(set?.firstByteMs), idleMs: text(set?.idleMs), totalMs: text(set?.totalMs) };
}

/** The limits the person set (ms), without the ones left at their defaults. */
function limitsOf(draft: LimitsDraft): ProviderTimeoutSettings {
  const out: ProviderTimeoutSettings = {};
  for (const name of LIMIT_NAMES) {
    const ms = limitMs(draft[name]);
    if (ms !== undefined && !Number.isNaN(ms)) out[name] = ms;
  }
  return out;
}

/** A free id based on `base` ("ollama", "ollama-2", …). */
export function freeId(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base}-${i}`)) return `${base}-${i}`;
}

/** A new provider's draft from a preset. */
export function draftFromPreset(preset: ProviderPreset, taken: readonly string[]): ProviderDraft {
  return { id: freeId(preset.id, [...taken, 'manual']), kind: preset.kind, label: preset.label, preset: preset.id, baseURL: preset.baseURL ?? '', models: [], facts: {}, openaiApi: 'responses', limits: limitsDraft(undefined) };
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
    limits: limitsDraft(view.timeouts),
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
  const timeouts = limitsOf(draft.limits);
  return {
    id: draft.id.trim(),
    kind: draft.kind,
    ...(draft.label.trim() ? { label: draft.label.trim() } : {}),
    ...(draft.preset ? { preset: draft.preset } : {}),
    ...(baseURL ? { baseURL } : {}),
    models: draft.models,
    ...(Object.keys(facts).length ? { modelFacts: facts } : {}),
    ...(draft.kind === 'openai' ? { openaiApi: draft.openaiApi } : {}),
    ...(Object.keys(timeouts).length ? { timeouts } : {}),
  };
}

/**
 * A problem that blocks saving: `code` names the sentence (locale key `providers:problems.<code>`),
 * `id` is the taken id for `idTaken`.
 */
export type DraftProblem = { code: 'badId' } | { code: 'idTaken'; id: string } | { code: 'baseUrlMissing' } | { code: 'baseUrlScheme' } | { code: 'limitRange' };

/** Problems that block saving (empty when the draft can be saved); the editor words them. */
export function draftProblems(draft: ProviderDraft, taken: readonly string[]): DraftProblem[] {
  const out: DraftProblem[] = [];
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(draft.id.trim())) out.push({ code: 'badId' });
  if (taken.includes(draft.id.trim())) out.push({ code: 'idTaken', id: draft.id.trim() });
  if (draft.kind === 'openai-compatible' && !draft.baseURL.trim()) out.push({ code: 'baseUrlMissing' });
  if (draft.baseURL.trim() && !/^https?:\/\/\S+$/.test(draft.baseURL.trim())) out.push({ code: 'baseUrlScheme' });
  if (LIMIT_NAMES.some((name) => Number.isNaN(limitMs(draft.limits[name])))) out.push({ code: 'limitRange' });
  return out;
}

/** The preset list, for the "Add provider" choices. */
export const PRESETS = PROVIDER_PRESETS;
