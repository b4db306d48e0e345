/**
 * The console's sampling policy (issue 5): per-server auto-approve rules (shared/rules.ts engine),
 * the global pause switch, rate limits and budgets (./limits.ts), redaction (shared/redaction.ts)
 * and what history keeps of unredacted originals. It plugs into the pipeline's
 * {@link SamplingPolicy} seam, publishes the `policy` state slice, and serves the rules API.
 */
import { ApiError } from '../../shared/api.js';
import { detectInRequest, redactRequest, scrubJson, type DetectOptions } from '../../shared/redaction.js';
import {
  estimateCostUsd,
  evaluateRules,
  requestFacts,
  serverPolicyOf,
  type ModelPrice,
  type PolicyView,
  type RulesFile,
} from '../../shared/rules.js';
import type { HistoryEntry, ModelRef } from '../../shared/state.js';
import type { Logger } from '../ports.js';
import type { HistorySink, PolicyAction, SamplingPolicy } from '../sampling/types.js';
import type { StateHub } from '../state-hub.js';
import { createLimiter } from './limits.js';
import { openRulesStore, RULES_FILE } from './rules-store.js';

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
  /** Watch the rules file for hand edits (default true). */
  watch?: boolean;
}

/** The policy service: the pipeline seam, the history filter, and the API methods it serves. */
export interface PolicyService {
  policy: SamplingPolicy;
  /** Wraps history so unredacted originals are kept only where the person chose to keep them. */
  historySink(inner: HistorySink): HistorySink;
  /** True for a refusal message that came from a limit (counted in the UI; no notice needed). */
  isLimitRefusal(message: string): boolean;
  /** Saves the whole rules file (versions bumped for changed rules). @throws ApiError invalid_input */
  saveRules(rules: unknown): RulesFile;
  setPaused(paused: boolean): void;
  /** The rules file as text, for export. */
  exportRules(): { fileName: string; text: string };
  /** Replaces the rules with an exported file's text. @throws ApiError invalid_input with the line */
  importRules(text: string): RulesFile;
  /** Keeps (or stops keeping) the unredacted original of one request in history. */
  setKeepOriginal(itemId: string, keep: boolean): void;
  close(): void;
}

/** Creates the policy service and publishes the first `policy` slice. */
export function createPolicyService(deps: PolicyDeps): PolicyService {
  const limiter = createLimiter();
  const keep = new Set<string>();
  let publishQueued = false;

  const store = openRulesStore(deps.dir, { logger: deps.logger, onChange: () => publish(), watch: deps.watch });
  const detectOptions = (file: RulesFile = store.current()): DetectOptions => ({ patterns: file.redaction.patterns, phoneRegion: file.redaction.phoneRegion });

  const view = (): PolicyView => ({
    rules: store.current(),
    path: store.path,
    problems: store.problems(),
    counters: limiter.counters(),
    globalRateLimited: limiter.globalRateLimited(),
    pricesKnown: deps.priceOf !== undefined,
  });
  /** Publishes the slice at most once per tick (a flood changes counters 1,000 times). */
  function publish(): void {
    if (publishQueued) return;
    publishQueued = true;
    queueMicrotask(() => {
      publishQueued = false;
      deps.hub.set('policy', view());
    });
  }
  deps.hub.set('policy', view());

  const policy: SamplingPolicy = {
    admit(serverId) {
      const verdict = limiter.admit(serverId, store.current(), deps.now());
      publish();
      return verdict;
    },

    decide({ serverId, item, params, model, now }) {
      const file = store.current();
      const findings = detectInRequest(params, detectOptions(file));
      const price = deps.priceOf?.(model);
      const local = new Date(now);
      const decision = evaluateRules(serverId, serverPolicyOf(file, serverId), {
        ...requestFacts(params, item.association.calls.map((c) => c.name), model),
        estimatedCostUsd: price ? estimateCostUsd(params, price) : undefined,
        local: { weekday: local.getDay(), minutes: local.getHours() * 60 + local.getMinutes() },
        sensitiveCount: findings.length,
      });
      const { action, rule } = decision;
      let out: PolicyAction;
      switch (action.kind) {
        case 'ask':
          out = decision.isDefault ? { kind: 'ask' } : { kind: 'ask', rule };
          break;
        case 'reject':
          limiter.countAuto(serverId, 'rejected', now);
          out = { kind: 'reject', rule, reason: action.reason };
          break;
        case 'approve_request':
        case 'approve_all':
          out = file.paused ? { kind: 'ask' } : { kind: action.kind, rule };
          break;
        case 'redact':
          out = file.paused ? { kind: 'ask' } : { kind: action.then, rule, params: redactRequest(params, findings) };
          break;
      }
      if (file.paused && out.kind === 'ask' && action.kind !== 'ask') {
        deps.logger.info('auto-approval paused: asking the person', { serverId, rule: rule.ruleId, version: rule.version });
      }
      publish();
      return out;
    },

    settled(serverId, item) {
      if (item.origin !== 'server') return;
      const now = deps.now();
      const usage = item.response?.usage;
      const tokens = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
      const price = deps.priceOf?.(item.model);
      const costUsd = price ? ((usage?.inputTokens ?? 0) * price.inputPerMTok + (usage?.outputTokens ?? 0) * price.outputPerMTok) / 1_000_000 : null;
      limiter.settled(serverId, { tokens, costUsd }, now);
      if (item.auto) limiter.countAuto(serverId, 'approved', now);
      keep.delete(item.id);
      publish();
    },
  };

  /** The original with the sensitive data that was not sent replaced by placeholders. */
  const scrub = (entry: HistoryEntry): HistoryEntry => {
    const file = store.current();
    if (file.redaction.keepOriginals || keep.has(entry.id)) return entry;
    const sent = JSON.stringify(entry.sent ?? null);
    const notSent = (f: { value: string }) => !sent.includes(JSON.stringify(f.value).slice(1, -1));
    const original = scrubJson(entry.original, notSent, detectOptions(file));
    if (original === entry.original) return entry;
    return { ...entry, original, preview: String(scrubJson(entry.preview, notSent, detectOptions(file))) };
  };

  return {
    policy,
    historySink: (inner) => ({ save: (entry) => inner.save(scrub(entry)) }),
    isLimitRefusal: (message) => /^limit\.[a-z.]+: Rate limited/.test(message),
    saveRules(rules) {
      const saved = store.save(rules);
      publish();
      return saved;
    },
    setPaused(paused) {
      store.save({ ...store.current(), paused });
      publish();
    },
    exportRules: () => ({ fileName: RULES_FILE, text: `${JSON.stringify(store.current(), null, 2)}\n` }),
    importRules(text) {
      const parsed = store.parse(text, 'imported file');
      if (!parsed.ok) throw new ApiError('invalid_input', `Nothing was imported: ${parsed.problems.join('; ')}`);
      const saved = store.save(parsed.rules);
      publish();
      return saved;
    },
    setKeepOriginal(itemId, value) {
      if (value) keep.add(itemId);
      else keep.delete(itemId);
    },
    close: () => store.close(),
  };
}
