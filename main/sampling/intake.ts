/**
 * Intake: everything decided about a sampling request before a person sees it.
 *
 * - validation against the MCP sampling spec (shared/domain/validate-sampling.ts), answered -32602 with the
 *   rule and a readable message, and recorded in history (nothing is lost);
 * - which client request it belongs to (S-ASSOC-1): exact on MRTR, inferred from the calls in
 *   flight on the legacy push path;
 * - which tool loop it continues: a request whose tool_result blocks answer tool_use ids the console
 *   delivered earlier joins that conversation as the next round; past the per-server cap the loop
 *   is ended with {@link ErrorCodes.LOOP_LIMIT} (S-LOOP-1).
 */
import { randomUUID } from 'node:crypto';
import { contentBlocks, ErrorCodes, type CreateMessageParams, type CreateMessageResult } from '../../shared/contract/sampling.js';
import { detailed, type CallRef, type HistoryEntry } from '../../shared/contract/state.js';
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';
import { validateSamplingRequest, type SamplingValidationError, type SamplingValidationResult } from '../../shared/domain/validate-sampling.js';
import { SAMPLING_TOOLS_DECLARED } from '../mcp/protocol.js';
import type { SamplingRefusal } from './types.js';

/** Default cap on rounds of one tool loop (S-LOOP-1); per server via `maxToolRounds` in config. */
export const DEFAULT_MAX_TOOL_ROUNDS = 10;

/** How many delivered tool_use ids are remembered for loop detection. */
const REMEMBERED_TOOL_USES = 5_000;

/**
 * A request that passed intake: the validated params, the client requests it belongs to
 * (S-ASSOC-1: `exact` when there is one), and the tool-loop round it is (S-LOOP-1).
 */
export interface Accepted {
  ok: true;
  params: CreateMessageParams;
  association: { exact: boolean; calls: CallRef[] };
  /** The conversation it continues (its tool_result blocks answer tool_use ids delivered there). */
  conversationId?: string;
  /** 1 for a new conversation. */
  round: number;
}

/** What intake needs. */
export interface IntakeDeps {
  history: { save(entry: HistoryEntry): void };
  now: () => number;
  inFlightCalls(serverId: string): CallRef[];
  onRefused(serverId: string, why: UiText, refusal: SamplingRefusal): void;
  /** Rounds allowed per tool loop for this server. */
  maxToolRounds(serverId: string): number;
  /** Size caps in bytes (request JSON / one image or audio block); defaults in validate-sampling. */
  limits?(serverId: string): { maxRequestBytes?: number; maxMediaBytes?: number } | undefined;
}

/** What intake answers: the accepted request, or the refusal (already recorded). */
export type IntakeVerdict = Accepted | { ok: false; error: SamplingValidationError };

/** The intake's operations. */
export interface Intake {
  /**
   * Checks a raw request. On failure the refusal is recorded in history, the person is told (a
   * notice), and the JSON-RPC error to answer with is returned.
   * @param calls the calls it may belong to as its source knows them (one exact call when the
   *   protocol says so, MRTR; a bridge's host's calls in flight); absent: the console's own in flight
   * @param unbound the request needs no client request in flight (a provider call through the
   *   gateway: S-ASSOC-1 does not apply); it is still linked to the calls in flight
   */
  check(serverId: string, raw: unknown, calls?: CallRef[], unbound?: boolean): IntakeVerdict;
  /** Records a refusal decided elsewhere (the SDK's own validation; a limit, with `kind` 'rate_limited'). */
  recordRefusal(serverId: string, raw: unknown, error: RefusalError, kind?: SamplingRefusal['kind']): void;
  /** Remembers the tool_use ids of a delivered result, so the follow-up joins this conversation. */
  rememberDelivered(conversationId: string, round: number, result: CreateMessageResult): void;
}

/** A refusal to record: JSON-RPC `code`, the rule, `message` in English and, when ours, `ui` its message code. */
export interface RefusalError {
  code: number;
  rule: string;
  message: string;
  ui?: UiText;
}

/** What one intake keeps: the conversation and round of each delivered tool_use id (the last {@link REMEMBERED_TOOL_USES}). */
interface IntakeState {
  readonly deps: IntakeDeps;
  readonly toolUses: Map<string, { conversationId: string; round: number }>;
}

/** Creates the intake. */
export function createIntake(deps: IntakeDeps): Intake {
  const st: IntakeState = { deps, toolUses: new Map() };
  return {
    check(serverId, raw, known, unbound = false) {
      const calls = known ?? deps.inFlightCalls(serverId);
      return conclude(st, serverId, raw, calls, validateSamplingRequest(raw, contextOf(deps, serverId, calls, unbound)));
    },
    recordRefusal: (serverId, raw, error, kind) => recordRefusal(st, serverId, raw, error, kind),
    rememberDelivered: (conversationId, round, result) => rememberDelivered(st, conversationId, round, result),
  };
}

/**
 * Records a refusal in history (a failed entry of its own, linked to the first of `calls`) and tells
 * `onRefused`. `kind` defaults to `loop_limit` for {@link ErrorCodes.LOOP_LIMIT}, else `invalid`;
 * `calls` to the server's calls in flight.
 */
function recordRefusal(
  st: IntakeState,
  serverId: string,
  raw: unknown,
  error: RefusalError,
  kind: SamplingRefusal['kind'] = error.code === ErrorCodes.LOOP_LIMIT ? 'loop_limit' : 'invalid',
  calls: CallRef[] = st.deps.inFlightCalls(serverId),
): void {
  const { deps } = st;
  const at = deps.now();
  const why = ui('event.ruleBroken', { rule: error.rule, why: error.ui ?? error.message });
  const id = randomUUID();
  deps.history.save({
    id,
    conversationId: id,
    serverId,
    callName: calls[0] ? `${calls[0].kind} ${calls[0].name}` : undefined,
    status: 'failed',
    decidedBy: 'console',
    receivedAt: at,
    endedAt: at,
    edited: false,
    error: error.message,
    ...(error.ui && { errorUi: error.ui }),
    preview: '',
    original: raw,
    errorDetail: { code: error.code, message: error.message, rule: error.rule, ...(error.ui && { ui: error.ui }) },
    timings: { totalMs: 0 },
    events: [{ at, kind: 'refused', ...detailed(why) }],
  });
  deps.onRefused(serverId, why, { kind, code: error.code, rule: error.rule, message: error.message });
}

/** The conversation a request continues: the one whose tool_use its tool_result blocks answer, searched from the last message back. */
function continuation(st: IntakeState, params: CreateMessageParams): { conversationId: string; round: number } | undefined {
  for (const m of [...params.messages].reverse()) {
    for (const b of contentBlocks(m.content)) {
      if (b.type === 'tool_result') {
        const known = st.toolUses.get(b.toolUseId);
        if (known) return known;
      }
    }
  }
  return undefined;
}

/** What validation needs to know about a request's context: tools declared, client requests in flight (none when `unbound`), the server's size caps. */
function contextOf(deps: IntakeDeps, serverId: string, calls: CallRef[], unbound: boolean) {
  return {
    toolsDeclared: SAMPLING_TOOLS_DECLARED,
    inFlightClientRequests: unbound ? undefined : calls.length,
    ...deps.limits?.(serverId),
  };
}

/** The steps after validation: refusal recorded, or the loop round (S-LOOP-1). */
function conclude(st: IntakeState, serverId: string, raw: unknown, calls: CallRef[], checked: SamplingValidationResult): IntakeVerdict {
  if (!checked.ok) {
    recordRefusal(st, serverId, raw, checked.error, undefined, calls);
    return checked;
  }
  const previous = continuation(st, checked.params);
  const round = previous ? previous.round + 1 : 1;
  const cap = st.deps.maxToolRounds(serverId);
  if (round > cap) {
    const why = ui('validate.loopLimit', { round, cap });
    const error: SamplingValidationError = { code: ErrorCodes.LOOP_LIMIT, rule: 'S-LOOP-1', message: english(why), ui: why };
    recordRefusal(st, serverId, raw, error, undefined, calls);
    return { ok: false, error };
  }
  return { ok: true, params: checked.params, association: { exact: calls.length === 1, calls }, conversationId: previous?.conversationId, round };
}

/** {@link Intake.rememberDelivered}: maps each tool_use id of the result to the conversation and round, forgetting the oldest past {@link REMEMBERED_TOOL_USES}. */
function rememberDelivered(st: IntakeState, conversationId: string, round: number, result: CreateMessageResult): void {
  const { toolUses } = st;
  for (const b of contentBlocks(result.content)) {
    if (b.type !== 'tool_use') continue;
    toolUses.set(b.id, { conversationId, round });
    if (toolUses.size > REMEMBERED_TOOL_USES) toolUses.delete(toolUses.keys().next().value!);
  }
}
