/**
 * The console's policy: per-server auto-approve rules (shared/domain/rules-engine.ts), the
 * global pause switch, rate limits and budgets (./limits.ts) with model prices, redaction
 * (shared/domain/sensitive-data.ts, shared/domain/redaction.ts) and what history keeps of unredacted originals (./history-scrub.ts), and the
 * per-server elicitation policy (always ask / always decline). It plugs into the sampling
 * pipeline's {@link SamplingPolicy} seam and the elicitation queue's `decide` hook, publishes the
 * `policy` state slice, and serves the rules API.
 */
import { ApiError } from '../../shared/contract/api.js';
import { costOfUsage, type ModelPrice } from '../../shared/domain/model-prices.js';
import { requestTexts } from '../../shared/domain/redaction.js';
import { type DetectOptions } from '../../shared/domain/sensitive-data.js';
import { evaluateElicitation, serverPolicyOf, type PolicyView, type RulesFile } from '../../shared/contract/rules.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { HistoryEntry, ModelRef, SamplingItemView } from '../../shared/contract/state.js';
import type { ElicitationDecision } from '../elicitation/queue.js';
import { BIG_PAYLOAD, type Offload } from '../offload/offload.js';
import type { Logger } from '../ports.js';
import type { HistorySink, PolicyAction, PolicyFacts, SamplingPolicy } from '../sampling/types.js';
import type { StateHub } from '../state-hub.js';
import type { UsageRow } from '../store/usage.js';
import { decideSampling } from './decide.js';
import { createDetectCache, type DetectCache } from './detect-cache.js';
import { createHistoryScrubber } from './history-scrub.js';
import { createLimiter, limitsFor, utcDayOf, utcDayStart, type DayUsage, type Limiter, type Today } from './limits.js';
import { rulesFileFor } from './former-names.js';
import { openFileRuleBook, type RuleBookStore } from './rule-book.js';
import { RULES_FILE } from './rules-store.js';
import { decideShared, type SharedLimits } from './shared-limits.js';
import type { DecideContext } from './decide.js';
import { ui } from '../../shared/contract/ui-text.js';
import { personActing } from '../audit/actor.js';
import type { AuditRecorder } from '../audit/trail.js';
import { rulesChangeRecord, type RulesChangeHow } from './rules-audit.js';

/** What the policy needs. */
export interface PolicyDeps {
  /** The user-data folder holding `rules.json`. */
  dir: string;
  hub: StateHub;
  logger: Logger;
  /** Clock, epoch ms. */
  now: () => number;
  /** The price of a model in USD per million tokens; undefined when unknown (cost conditions then never hold). */
  priceOf?: (model: ModelRef) => ModelPrice | undefined;
  /**
   * History's token usage since a time (epoch ms), read once at start so today's (UTC) token and
   * spend totals survive a restart (a store's read resolves later: {@link PolicyService.ready}).
   * Absent: the totals start at zero.
   */
  usageSince?: (from: number) => UsageRow[] | Promise<UsageRow[]>;
  /** Watch the rules file for hand edits (default true). */
  watch?: boolean;
  /** Where big texts are scanned (main/offload); absent: inline, when first needed. */
  offload?: Offload;
  /** Names a server was known by before (main/policy/former-names.ts): their rules and limits apply to it. */
  formerNames?(serverId: string): readonly string[];
  /** Where the rule book lives (a team's database: main/team/policy-rules.ts); absent: `rules.json` in `dir`. The service closes it. */
  ruleBook?: RuleBookStore;
  /**
   * Limits and budgets shared with other consoles (a team's database: main/team/policy-limits.ts):
   * each decision then waits for one call to them, and `usageSince` is not read (the shared
   * counters outlive every console). Absent: in memory, decided without waiting. The service closes it.
   */
  sharedLimits?: SharedLimits;
  /**
   * Where rule book changes are recorded (main/audit): this console's saves, imports and pauses
   * (whichever book it keeps), and hand edits of `rules.json`; a team book's change made by
   * another instance is recorded there. Absent: not recorded.
   */
  audit?: AuditRecorder;
}

/** Texts at least this long (characters) are scanned on the offload worker by `prepare`: 64 KiB. */
const SCAN_OFFLOAD_CHARS = BIG_PAYLOAD / 16;

/**
 * The policy service: the pipeline seam, the elicitation hook, the history filter, and the API
 * methods it serves. `A` is what a decision returns: the action itself with limits in memory (the
 * desktop), a promise of it with shared limits (a team).
 */
export interface PolicyService<A extends PolicyAction | Promise<PolicyAction> = PolicyAction | Promise<PolicyAction>> {
  policy: Omit<SamplingPolicy, 'decide'> & { decide(facts: PolicyFacts): A };
  /**
   * Resolves once the rule book is read and today's totals are seeded from history (at once when
   * `usageSince` answered synchronously or is absent; a failed read of history is logged and the
   * totals start at zero). Rejects only when a team's rule book cannot be read at start. Await it
   * before requests can arrive.
   */
  ready: Promise<void>;
  /** The elicitation queue's `decide` hook: `decline` when the server's elicitation policy says so, else `ask`. */
  decideElicitation(serverId: string): ElicitationDecision;
  /**
   * Wraps history so unredacted originals are kept only where the person chose to keep them.
   * When `inner` has `saveSoon` (the history store), saves go through it: the saves a request
   * makes in one go (queued, then approved by a rule and generating) share one commit, made before
   * anything that follows the save reaches a server or a window (main/store/history-store.ts).
   * An entry holding what the person typed (`draft`) is still saved at once, so it is committed
   * when `save` returns and a failure to write it reaches the person's action.
   */
  historySink(inner: HistorySink & { saveSoon?(entry: HistoryEntry): void }): HistorySink;
  /**
   * Saves the whole rule book (versions bumped for changed rules). `baseRevision`: the revision the
   * edit started from (main/policy/rule-book.ts).
   * @throws (rejects) ApiError invalid_input; invalid_state when the stored book is broken or changed since `baseRevision`
   */
  saveRules(rules: unknown, baseRevision?: number): Promise<RulesFile>;
  /** The pause switch of the newest book. @throws (rejects) as {@link PolicyService.saveRules} */
  setPaused(paused: boolean): Promise<void>;
  /** The rules file as text, for export. */
  exportRules(): { fileName: string; text: string };
  /** Replaces the rule book with an exported file's text. @throws (rejects) ApiError invalid_input with the line */
  importRules(text: string): Promise<RulesFile>;
  /** Keeps (or stops keeping) the unredacted original of one request in history. */
  setKeepOriginal(itemId: string, keep: boolean): void;
  /** Closes the rule book and the shared limits (sending what they keep). */
  close(): Promise<void>;
}

/**
 * Today's usage per server from history rows: recorded costs, plus unrecorded usage priced now
 * (tokens whose model has no known price are counted apart).
 */
export function dayUsageOf(rows: readonly UsageRow[], priceOf: PolicyDeps['priceOf']): Record<string, DayUsage> {
  const out: Record<string, DayUsage> = {};
  for (const r of rows) {
    const u = (out[r.serverId] ??= { tokens: 0, costUsd: 0, unpricedTokens: 0 });
    u.tokens += r.inputTokens + r.outputTokens;
    u.costUsd += r.costUsd;
    const unpriced = r.unpricedInputTokens + r.unpricedOutputTokens;
    if (unpriced === 0) continue;
    const price = r.providerId && r.model ? priceOf?.({ providerId: r.providerId, modelId: r.model }) : undefined;
    if (price) u.costUsd += costOfUsage({ inputTokens: r.unpricedInputTokens, outputTokens: r.unpricedOutputTokens }, price);
    else u.unpricedTokens += unpriced;
  }
  return out;
}

/** Creates the policy service and publishes the first `policy` slice. */
export function createPolicyService(deps: PolicyDeps & { sharedLimits?: undefined }): PolicyService<PolicyAction>;
export function createPolicyService(deps: PolicyDeps): PolicyService;
export function createPolicyService(deps: PolicyDeps): PolicyService {
  const st: PolicyState = {
    deps,
    limiter: createLimiter(),
    keep: new Set(),
    // One scan per request text: the history filter's first save and the decision share it.
    detector: createDetectCache(),
    options: undefined,
    publishQueued: false,
    store:
      deps.ruleBook ??
      openFileRuleBook(deps.dir, {
        logger: deps.logger,
        ...(deps.watch !== undefined && { watch: deps.watch }),
        // A hand edit noticed by the console: the console is who tells.
        onFileChange: (before, after) => auditRules(deps, before, after, 'file_edited', { kind: 'console' }),
      }),
  };
  // The store tells only of changes made elsewhere (a hand edit, another console), never while it opens.
  st.store.onChange(() => publish(st));
  deps.sharedLimits?.onChange(() => publish(st));
  const ready = Promise.all([st.store.ready.then(() => publish(st)), deps.sharedLimits ? undefined : seedToday(st)]).then(() => undefined);
  deps.hub.set('policy', policyView(st));

  const shared = deps.sharedLimits;
  const policy: SamplingPolicy = {
    decide: (facts) => (shared ? decideWithShared(st, shared, facts) : decide(st, facts)),
    costOf: (model, usage) => costOf(deps, model, usage) ?? undefined,
    prepare: (_serverId, params) => prepareScan(st, params),
    settled: (serverId, item) => settled(st, serverId, item),
  };

  const scrub = createHistoryScrubber({ file: () => st.store.current(), keeps: (id) => st.keep.has(id), detect: st.detector.detect, optionsOf: (file) => optionsOf(st, file) });

  return {
    policy,
    ready,
    decideElicitation: (serverId) => decideElicitation(st, serverId),
    historySink: (inner) => scrubbingSink(scrub, inner),
    saveRules: (rules, baseRevision) => recorded(st, 'saved', () => st.store.save(rules, { ...(baseRevision !== undefined && { baseRevision }) })),
    setPaused: async (paused) => void (await recorded(st, paused ? 'paused' : 'resumed', () => st.store.setPaused(paused), (before, saved) => ({ ...saved, paused: before.paused }))),
    exportRules: () => ({ fileName: RULES_FILE, text: `${JSON.stringify(st.store.current(), null, 2)}\n` }),
    importRules: (text) => importRules(st, text),
    setKeepOriginal(itemId, value) {
      if (value) st.keep.add(itemId);
      else st.keep.delete(itemId);
    },
    async close() {
      st.store.close();
      await shared?.close();
    },
  };
}

/** Publishes once `change` (a save of the rule book) is done — also when it failed (a hand edit it read counts); resolves or rejects as it does. */
async function published<T>(st: PolicyState, change: Promise<T>): Promise<T> {
  try {
    return await change;
  } finally {
    publish(st);
  }
}

/**
 * Saves the rule book through `change` (published as {@link published}) and records the change in
 * the audit trail as the person acting made it — a book in a file or in a team's database alike.
 * `beforeOf`: the book the record compares the saved one with (default: the book in force when
 * the save started); the pause switch compares only `paused`, so a hand edit read by its save is
 * recorded on its own (`file_edited`), not twice.
 */
async function recorded(st: PolicyState, how: RulesChangeHow, change: () => Promise<RulesFile>, beforeOf: (before: RulesFile, saved: RulesFile) => RulesFile = (before) => before): Promise<RulesFile> {
  const actor = personActing();
  const before = st.store.current();
  const saved = await published(st, change());
  auditRules(st.deps, beforeOf(before, saved), saved, how, actor);
  return saved;
}

/** What one policy service keeps between calls; the steps below read and change it. */
interface PolicyState {
  readonly deps: PolicyDeps;
  readonly limiter: Limiter;
  /** Ids of the requests whose unredacted original the person chose to keep. */
  readonly keep: Set<string>;
  readonly detector: DetectCache;
  /** The detect options of the last rules file asked for (the same object while the file is the same). */
  options: { file: RulesFile; detect: DetectOptions } | undefined;
  /** Set while a publish waits for its microtask. */
  publishQueued: boolean;
  readonly store: RuleBookStore;
}

/** The detect options of a rules file: the same object for the same file, so the detect memos stay valid. */
function optionsOf(st: PolicyState, file: RulesFile): DetectOptions {
  if (st.options?.file !== file) st.options = { file, detect: { patterns: file.redaction.patterns, phoneRegion: file.redaction.phoneRegion } };
  return st.options.detect;
}

/**
 * Starts today's (UTC) totals from history when `usageSince` is given: at once when it answers
 * synchronously, else once its promise resolves (the returned promise). A failure to read it is
 * logged and the totals start at zero.
 */
function seedToday(st: PolicyState): Promise<void> {
  const { deps } = st;
  if (!deps.usageSince) return Promise.resolve();
  const start = deps.now();
  const failed = (err: unknown) => deps.logger.warn("could not read today's usage from history; daily totals start at zero", { error: String(err) });
  const seed = (rows: UsageRow[]) => st.limiter.seed(utcDayOf(start), dayUsageOf(rows, deps.priceOf));
  try {
    const rows = deps.usageSince(utcDayStart(start));
    if (!(rows instanceof Promise)) return Promise.resolve(seed(rows));
    return rows.then((r) => {
      seed(r);
      publish(st); // the counters shown start from today's totals
    }, failed);
  } catch (err) {
    failed(err);
    return Promise.resolve();
  }
}

/** The `policy` state slice as it is now. */
function policyView(st: PolicyState): PolicyView {
  const { location } = st.store;
  const limits = st.deps.sharedLimits ?? st.limiter;
  return {
    rules: st.store.current(),
    path: location.kind === 'file' ? location.path : location.target,
    source: location.kind,
    revision: st.store.revision(),
    problems: st.store.problems(),
    notes: st.store.notes(),
    counters: limits.counters(),
    globalRateLimited: limits.globalRateLimited(),
    pricesKnown: st.deps.priceOf !== undefined,
  };
}

/** Publishes the slice at most once per tick (a flood changes counters 1,000 times). */
function publish(st: PolicyState): void {
  if (st.publishQueued) return;
  st.publishQueued = true;
  queueMicrotask(() => {
    st.publishQueued = false;
    st.deps.hub.set('policy', policyView(st));
  });
}

/** USD of a usage at the model's price; null when the price is unknown. */
function costOf(deps: PolicyDeps, model: ModelRef, usage: Parameters<typeof costOfUsage>[0]): number | null {
  const price = deps.priceOf?.(model);
  return price ? costOfUsage(usage, price) : null;
}

/** {@link SamplingPolicy.decide}: limits first, then the rules; counts auto rejections, reserves the estimate of auto approvals, publishes. */
function decide(st: PolicyState, facts: PolicyFacts): PolicyAction {
  const { deps, limiter } = st;
  const current = st.store.current();
  const file = rulesFileFor(current, facts.serverId, deps.formerNames?.(facts.serverId) ?? []);
  // Limits first: a request over one is refused before anything else is weighed.
  const admitted = limiter.admit(facts.serverId, file, facts.now);
  if (!admitted.ok) {
    publish(st);
    return { kind: 'refuse', code: admitted.code, message: admitted.message, rule: admitted.rule };
  }
  const out = decideSampling(facts, contextFor(st, facts, file)(limiter.today(facts.serverId, facts.now), limiter.todayAll(facts.now)));
  if (out.kind === 'reject') limiter.countAuto(facts.serverId, 'rejected', facts.now);
  if (out.kind === 'approve_request' || out.kind === 'approve_all') {
    limiter.reserve(facts.serverId, facts.item.id, { tokens: out.estimate?.tokens ?? 0, costUsd: out.estimate?.costUsd ?? 0 }, facts.now);
  }
  return decided(st, facts, out);
}

/** The decision's context for a rules file, given today's totals (the server's, everyone's). */
function contextFor(st: PolicyState, facts: PolicyFacts, file: RulesFile): (today: Today, todayAll: Today) => DecideContext {
  const current = st.store.current();
  return (today, todayAll) => ({
    file,
    findings: (params) => st.detector.inRequest(params, optionsOf(st, current)),
    price: st.deps.priceOf?.(facts.model),
    today,
    todayAll: () => todayAll,
  });
}

/** Logs a decision an auto approval was held back from, publishes the counters, returns it. */
function decided(st: PolicyState, facts: PolicyFacts, out: PolicyAction): PolicyAction {
  if (out.notes?.some((n) => n.kind !== 'ask_rule' && n.kind !== 'redacted')) {
    st.deps.logger.info('auto-approval held back: asking the person', { serverId: facts.serverId, notes: out.notes.map((n) => n.kind).join(',') });
  }
  publish(st);
  return out;
}

/** {@link SamplingPolicy.decide} with shared limits: one call to them admits (or refuses) and holds an auto approval's estimate (./shared-limits.ts). */
async function decideWithShared(st: PolicyState, shared: SharedLimits, facts: PolicyFacts): Promise<PolicyAction> {
  const file = rulesFileFor(st.store.current(), facts.serverId, st.deps.formerNames?.(facts.serverId) ?? []);
  const out = await decideShared(facts, contextFor(st, facts, file), shared, limitsFor(file, facts.serverId));
  return decided(st, facts, out);
}

/** {@link SamplingPolicy.prepare}: scans a request's big texts on the offload worker (when there is one) and seeds the detect memo with the findings. */
async function prepareScan(st: PolicyState, params: CreateMessageParams): Promise<void> {
  const { deps } = st;
  if (!deps.offload) return;
  const options = optionsOf(st, st.store.current());
  const texts = requestTexts(params)
    .map((t) => t.text)
    .filter((t) => t.length >= SCAN_OFFLOAD_CHARS);
  if (texts.length === 0) return;
  const found = await deps.offload.run('detectTexts', { texts: texts.map((t) => deps.offload!.textInput(t)), options });
  texts.forEach((text, i) => st.detector.seed(text, options, found[i]!));
}

/** {@link SamplingPolicy.settled}: forgets the keep choice; for a server's request, settles its usage with the limiter and counts an auto approval, then publishes. */
function settled(st: PolicyState, serverId: string, item: SamplingItemView): void {
  st.keep.delete(item.id);
  if (item.origin !== 'server') return;
  const now = st.deps.now();
  const usage = item.response?.usage;
  const tokens = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
  const settledUsage = { tokens, costUsd: costOf(st.deps, item.model, usage), receivedAt: item.receivedAt, id: item.id };
  if (st.deps.sharedLimits) return st.deps.sharedLimits.settled(serverId, settledUsage, item.auto !== undefined, now); // publishes when the counters come back
  st.limiter.settled(serverId, settledUsage, now);
  if (item.auto) st.limiter.countAuto(serverId, 'approved', now);
  publish(st);
}

/** {@link PolicyService.decideElicitation}: a decline is counted and published. */
function decideElicitation(st: PolicyState, serverId: string): ElicitationDecision {
  const file = rulesFileFor(st.store.current(), serverId, st.deps.formerNames?.(serverId) ?? []);
  const { action, rule } = evaluateElicitation(serverId, serverPolicyOf(file, serverId));
  if (action === 'ask') return { kind: 'ask' };
  if (st.deps.sharedLimits) st.deps.sharedLimits.countDeclined(serverId, st.deps.now());
  else st.limiter.countAuto(serverId, 'elicitation_declined', st.deps.now());
  publish(st);
  return { kind: 'decline', rule };
}

/** {@link PolicyService.historySink}: `inner` fed scrubbed entries, through `saveSoon` (when it has one) unless the entry holds a draft. */
function scrubbingSink(scrub: (entry: HistoryEntry) => HistoryEntry, inner: HistorySink & { saveSoon?(entry: HistoryEntry): void }): HistorySink {
  return {
    save: (entry) => {
      const kept = scrub(entry);
      if (inner.saveSoon && kept.draft === undefined) inner.saveSoon(kept);
      else inner.save(kept);
    },
    prepareEntry: async (entry) => inner.prepareEntry?.(scrub(entry)),
  };
}

/** {@link PolicyService.importRules}: parses the text, saves the rules (over whatever is in force) and publishes. @throws (rejects) ApiError invalid_input with the problems */
async function importRules(st: PolicyState, text: string): Promise<RulesFile> {
  const parsed = st.store.parse(text, 'imported file');
  if (!parsed.ok) throw new ApiError('invalid_input', ui('error.nothingImported', { problems: parsed.problems.join('; ') }));
  return recorded(st, 'imported', () => st.store.save(parsed.rules, { how: 'import' }));
}

/** Records the rule book's change in the audit trail (nothing when its content did not change). */
function auditRules(deps: PolicyDeps, before: RulesFile, after: RulesFile, how: RulesChangeHow, actor: Parameters<typeof rulesChangeRecord>[3]): void {
  const record = deps.audit && rulesChangeRecord(before, after, how, actor);
  if (record) deps.audit!.record(record);
}
