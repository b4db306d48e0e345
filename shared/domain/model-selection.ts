/**
 * Explainable model choice from a request's `modelPreferences` (the MCP sampling spec, "Model
 * preferences": hints are substrings matched against model names, evaluated in order, the first
 * that matches an available model wins; hints are advisory and MAY map to a comparable model of
 * another provider; priorities 0..1 steer the choice when no hint matches; the human sees and can
 * change the choice).
 *
 * {@link selectModel} ranks every model the server may use and says why, in one line each:
 * 1. a hint that is a substring of the model id (hints in order) — "hint 'sonnet' matched …";
 * 2. a hint whose name words all appear in the model id, other version numbers allowed —
 *    "hint 'claude-3-sonnet' matched 'claude-sonnet-4-5' (same name, other version)";
 * 3. a hint whose family (the editable family table) is the model's family — the cross-provider
 *    mapping, used only when no model matches any hint directly;
 * 4. otherwise the priorities (cost / speed / intelligence against the model's tiers) or, with no
 *    priorities, the server's default model, then the console's default.
 * Within one level, priorities break ties. Models that cannot take the request (audio, images,
 * image size, tools, context window: shared/domain/capabilities.ts) rank last with score 0 and are only
 * chosen when no model can. Models outside the server's allowed list are never candidates. The
 * manual provider ("Write the response myself") is never matched by a hint; it is always the last
 * candidate, and chosen when it is the default or when no model is configured.
 *
 * Pure: no Node, DOM or Electron.
 */
import { capabilityIssues, factsFor, requestNeeds } from './capabilities.js';
import { DEFAULT_FAMILY_RULES, familyOf, type FamilyRule, type ModelFacts, type ServerModelSettings } from '../contract/providers.js';
import type { CreateMessageParams, ModelPreferences } from '../contract/sampling.js';
import type { ModelCandidate, ModelChoice, ModelRef, ProviderView } from '../contract/state.js';
import { because, english, ui, type UiText } from '../contract/ui-text.js';

/** Every selectable model of every provider, in provider order. */
export function listModels(providers: readonly ProviderView[]): ModelRef[] {
  return providers.flatMap((p) => p.models.map((modelId) => ({ providerId: p.id, modelId })));
}

/** What {@link selectModel} needs. Only `prefs`, `providers` and `fallback` are required. */
export interface SelectionInput {
  /** The request's `modelPreferences` (may be undefined). */
  prefs: ModelPreferences | undefined;
  /** Configured providers, in the order the person arranged them (ties go to the earlier one). Facts come from `modelFacts`. */
  providers: readonly ProviderView[];
  /** The console's default model. */
  fallback: ModelRef;
  /** The requesting server's settings: allowed models (others are never candidates) and its default model. */
  server?: ServerModelSettings;
  /** The family table for cross-provider hint mapping; default {@link DEFAULT_FAMILY_RULES}. */
  families?: readonly FamilyRule[];
  /** The request, for capability checks (audio, images, tools, context); none when absent. */
  params?: CreateMessageParams;
}

/** The choice and every candidate, best first (the choice is among them). */
export interface ModelSelection {
  choice: ModelChoice;
  candidates: ModelCandidate[];
}

const same = (a: ModelRef | undefined, b: ModelRef): boolean => !!a && a.providerId === b.providerId && a.modelId === b.modelId;
const round1 = (n: number): number => Math.round(n * 10) / 10;

/** Name words of a model id or hint: lower-case runs of letters, and runs of digits that are not pure version numbers are dropped. */
function nameWords(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^a-z0-9]+|(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])/)
    .filter((w) => w !== '' && !/^[0-9]+$/.test(w));
}

type Level = 'substring' | 'words' | 'family';
interface Scored {
  ref: ModelRef;
  label: string;
  facts: ModelFacts;
  issues: UiText[];
  match?: { level: Level; hint: string; index: number; family?: { family: string; pattern: string } };
  fit?: number;
  isDefault: boolean;
  score: number;
  order: number;
}

function priorities(prefs: ModelPreferences | undefined): { cost: number; speed: number; intelligence: number; total: number } {
  const cost = prefs?.costPriority ?? 0;
  const speed = prefs?.speedPriority ?? 0;
  const intelligence = prefs?.intelligencePriority ?? 0;
  return { cost, speed, intelligence, total: cost + speed + intelligence };
}

/** How well tiers fit the priorities, 0..1 (undefined when no priority is above 0). */
function fitOf(f: ModelFacts, p: ReturnType<typeof priorities>): number | undefined {
  if (p.total <= 0) return undefined;
  return (p.cost * ((5 - f.cost) / 4) + p.speed * ((f.speed - 1) / 4) + p.intelligence * ((f.intelligence - 1) / 4)) / p.total;
}

function matchOf(modelId: string, hints: string[], rules: readonly FamilyRule[]): Scored['match'] {
  const id = modelId.toLowerCase();
  const words = new Set(nameWords(modelId));
  for (const [index, hint] of hints.entries()) {
    if (id.includes(hint.toLowerCase())) return { level: 'substring', hint, index };
    // Two or more name words, all present: "claude-3-sonnet" ~ "claude-sonnet-4-5" (but "gpt-5" is not "gpt-4.1").
    const hw = nameWords(hint);
    if (hw.length >= 2 && hw.every((w) => words.has(w))) return { level: 'words', hint, index };
  }
  const modelFamily = familyOf(modelId, rules);
  if (!modelFamily) return undefined;
  for (const [index, hint] of hints.entries()) {
    const hf = familyOf(hint, rules);
    if (hf && hf.family === modelFamily.family) return { level: 'family', hint, index, family: { family: hf.family, pattern: hf.rule.pattern } };
  }
  return undefined;
}

function baseScore(s: Scored, anyDirect: boolean): number {
  const tie = (s.fit ?? 0) * 1.5 + (s.isDefault ? 0.4 : 0);
  const i = Math.min(s.match?.index ?? 0, 6);
  if (s.match?.level === 'substring') return 90 - 5 * i + tie;
  if (s.match?.level === 'words') return 87.5 - 5 * i + tie;
  // Family mapping only stands in when no model matches a hint directly.
  if (s.match?.level === 'family' && !anyDirect) return 50 - 5 * i + tie;
  if (s.fit !== undefined) return s.fit * 15 + (s.isDefault ? 0.5 : 0);
  return s.isDefault ? 10 : 5;
}

const DIMENSIONS = [
  { key: 'intelligence', label: 'model.mostCapable', better: (a: ModelFacts, b: ModelFacts) => a.intelligence - b.intelligence },
  { key: 'speed', label: 'model.fastest', better: (a: ModelFacts, b: ModelFacts) => a.speed - b.speed },
  { key: 'cost', label: 'model.cheapest', better: (a: ModelFacts, b: ModelFacts) => b.cost - a.cost },
] as const;

const tiersText = (f: ModelFacts): UiText => ui('model.tiers', { cost: f.cost, speed: f.speed, intelligence: f.intelligence });
const quoted = (hints: string[]): string => hints.map((h) => `'${h}'`).join(', ');
/** "no <scope> model matched the hints …" or "the request names no model hints". */
const noMatch = (hints: string[], scope: UiText): UiText => (hints.length ? ui('model.noHintsMatched', { scope, hints: quoted(hints) }) : ui('model.noHints'));

interface ReasonContext {
  hints: string[];
  anyDirect: boolean;
  p: ReturnType<typeof priorities>;
  pool: Scored[];
  scope: UiText;
  defaultWhat: UiText;
}

function matchReason(s: Scored, m: NonNullable<Scored['match']>, ctx: ReasonContext): UiText {
  let text: UiText;
  if (m.level === 'substring') text = ui('model.hintMatched', { hint: m.hint, model: s.ref.modelId });
  else if (m.level === 'words') text = ui('model.hintMatchedWords', { hint: m.hint, model: s.ref.modelId });
  else {
    const blocked = ctx.pool.find((o) => o.match && o.match.level !== 'family' && o.issues.length > 0);
    const head = blocked
      ? ui('model.hintBlocked', { hint: blocked.match?.hint ?? '', model: blocked.ref.modelId })
      : ui('model.noHintMatch', { scope: ctx.scope, hint: m.hint });
    text = ui('model.family', { head, family: m.family?.family ?? '', pattern: m.family?.pattern ?? '', model: s.ref.modelId });
  }
  const rivals = ctx.pool.filter((o) => o !== s && o.match?.level === m.level && o.match.index === m.index && o.issues.length === 0).length;
  if (rivals > 0 && s.fit !== undefined) text = ui(rivals > 1 ? 'model.rivalsMany' : 'model.rivalsOne', { reason: text, count: rivals });
  return text;
}

function reasonOf(s: Scored, ctx: ReasonContext): UiText {
  const m = s.match;
  if (m && (m.level !== 'family' || !ctx.anyDirect)) return matchReason(s, m, ctx);
  const none = noMatch(ctx.hints, ctx.scope);
  if (s.fit !== undefined) {
    const top = [...DIMENSIONS].sort((a, b) => ctx.p[b.key] - ctx.p[a.key])[0]!;
    const capable = ctx.pool.filter((o) => o.issues.length === 0);
    const best = capable.every((o) => top.better(s.facts, o.facts) >= 0);
    if (best) return ui('model.priorityBest', { none, priority: `${top.key}Priority`, value: ctx.p[top.key], label: ui(top.label), scope: ctx.scope, tiers: tiersText(s.facts) });
    return ui('model.bestFit', { none, cost: ctx.p.cost, speed: ctx.p.speed, intelligence: ctx.p.intelligence, tiers: tiersText(s.facts) });
  }
  if (s.isDefault) return ui('model.usingDefault', { none, what: ctx.defaultWhat });
  return ui('join.semicolon', { a: none, b: tiersText(s.facts) });
}

/** Joins texts with "; " (each translated). */
function joinSemicolon(parts: UiText[]): UiText {
  return parts.slice(1).reduce<UiText>((a, b) => ui('join.semicolon', { a, b }), parts[0]!);
}

/**
 * Ranks the models for one request and chooses one. See the module comment for the rules.
 * @returns the choice (with its one-line reason) and all candidates, best first, each with a score
 *   0..100 (one decimal) and a reason; never throws. With nothing configured the choice is the
 *   manual provider (or `fallback` when it names an unknown provider).
 */
export function selectModel(input: SelectionInput): ModelSelection {
  const rules = input.families ?? DEFAULT_FAMILY_RULES;
  const hints = (input.prefs?.hints ?? []).map((h) => h.name?.trim()).filter((n): n is string => !!n);
  const allowed = input.server?.allowedModels?.length ? input.server.allowedModels : undefined;
  const scope = ui(allowed ? 'model.scopeAllowed' : 'model.scopeConfigured');
  const needs = input.params ? requestNeeds(input.params) : undefined;
  const p = priorities(input.prefs);
  const manual = input.providers.find((pv) => pv.kind === 'manual');
  const isKnown = (r: ModelRef | undefined): r is ModelRef =>
    !!r && input.providers.some((pv) => pv.id === r.providerId && pv.models.includes(r.modelId)) && (!allowed || allowed.some((a) => same(a, r)) || r.providerId === manual?.id);
  const serverDefault = isKnown(input.server?.defaultModel) ? input.server?.defaultModel : undefined;
  let defaultRef = serverDefault ?? (isKnown(input.fallback) ? input.fallback : undefined);
  const defaultLabel = input.providers.find((pv) => pv.id === defaultRef?.providerId)?.label ?? defaultRef?.providerId;
  let defaultWhat = serverDefault ? ui('model.serverDefault') : ui('model.defaultModel', { label: defaultLabel ?? '' });

  const pool: Scored[] = [];
  for (const pv of input.providers) {
    if (pv.kind === 'manual') continue;
    for (const modelId of pv.models) {
      const ref = { providerId: pv.id, modelId };
      if (allowed && !allowed.some((a) => same(a, ref))) continue;
      const facts = factsFor(pv, modelId, rules);
      const issues = needs ? capabilityIssues(needs, facts, modelId).map((i) => i.ui) : [];
      const match = matchOf(modelId, hints, rules);
      const fit = fitOf(facts, p);
      pool.push({ ref, label: pv.label, facts, issues, ...(match ? { match } : {}), ...(fit !== undefined ? { fit } : {}), isDefault: same(defaultRef, ref), score: 0, order: pool.length });
    }
  }
  const pooledDefault = pool.find((s) => s.isDefault);
  const firstCapable = pool.find((s) => s.issues.length === 0);
  if ((!defaultRef || (pooledDefault?.issues.length && firstCapable)) && pool.length > 0) {
    // No usable default: the first model (that can take the request) stands in for it.
    const first = firstCapable ?? pool[0]!;
    if (pooledDefault) pooledDefault.isDefault = false;
    first.isDefault = true;
    defaultWhat = pooledDefault ? ui('model.firstCapable', { scope, model: pooledDefault.ref.modelId }) : ui('model.first', { scope });
    defaultRef = first.ref;
  }
  const anyDirect = pool.some((s) => s.match && s.match.level !== 'family' && s.issues.length === 0);
  for (const s of pool) s.score = s.issues.length > 0 ? 0 : round1(baseScore(s, anyDirect));
  pool.sort((a, b) => Number(a.issues.length > 0) - Number(b.issues.length > 0) || b.score - a.score || a.order - b.order);

  const ctx: ReasonContext = { hints, anyDirect, p, pool, scope, defaultWhat };
  const candidates: ModelCandidate[] = pool.map((s) => {
    const why = s.issues.length > 0 ? ui('model.butIssues', { reason: reasonOf(s, ctx), issues: joinSemicolon(s.issues) }) : reasonOf(s, ctx);
    const issues = s.issues.length ? { issues: s.issues.map(english), issuesUi: s.issues } : {};
    return { ...s.ref, score: s.score, ...because(why), ...issues };
  });
  const manualRef: ModelRef | undefined = manual ? { providerId: manual.id, modelId: manual.models[0] ?? manual.id } : undefined;
  if (manualRef) candidates.push({ ...manualRef, score: 0, ...because(ui('model.manualCandidate')) });

  const top = pool[0];
  const noPreference = !top?.match || (top.match.level === 'family' && anyDirect);
  const manualIsDefault = !!manualRef && same(defaultRef, manualRef);
  if (!top || (noPreference && top.fit === undefined && manualIsDefault)) {
    const ref = manualRef ?? input.fallback;
    const why = !top ? ui(allowed ? 'model.noAllowed' : 'model.noneConfigured') : ui('model.usingDefault', { none: noMatch(hints, scope), what: defaultWhat });
    return { choice: { ...ref, ...because(why) }, candidates };
  }
  const first = candidates[0]!;
  const why = top.issues.length > 0 ? ui('model.noneCanTake', { reason: first.reasonUi!, scope }) : first.reasonUi!;
  return { choice: { ...top.ref, ...because(why) }, candidates };
}


/**
 * Chooses the model for a sampling request: {@link selectModel}'s choice. Kept for callers that
 * do not need the ranking (the pipeline's original call `chooseModel(prefs, providers, fallback)`).
 * @param extra server settings, family table and the params for capability checks (optional)
 */
export function chooseModel(
  prefs: ModelPreferences | undefined,
  providers: readonly ProviderView[],
  fallback: ModelRef,
  extra: Omit<SelectionInput, 'prefs' | 'providers' | 'fallback'> = {},
): ModelChoice {
  return selectModel({ prefs, providers, fallback, ...extra }).choice;
}
