/**
 * Elicitation through the same queue and care as sampling (MCP 2025-11-25 "Elicitation"; not
 * deprecated in 2026-07-28): every `elicitation/create` — pushed (legacy) or embedded in an
 * `input_required` result (MRTR) — becomes an item the person answers: accept (content validated
 * against the flat requestedSchema, defaults applied), decline, or cancel. URL mode shows the URL
 * and is opened only by the person; `notifications/elicitation/complete` marks it done; a -32042
 * "URL elicitation required" error adds URL items that no request waits on.
 *
 * Every item is recorded in history (kind 'elicitation'), committed before the answer is sent.
 * What the person typed in a form (`saveDraft`) is kept on the item and in history; when the server
 * stops waiting, the call ends or the console stops, the item leaves `awaiting_input` at once as
 * `withdrawn` with `outcome.stopped` saying why, and the typed values stay.
 *
 * An answer names the version of the question the person saw (`contentVersion`, main/requests/
 * version.ts); one about any other is refused, and History records the version and the digest of
 * the answer sent.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/contract/api.js';
import {
  ElicitUrlParamsSchema,
  looksLikeSecretRequest,
  parseElicitParams,
  validateElicitationContent,
  type ElicitResult,
  type FieldValue,
} from '../../shared/contract/elicitation.js';
import { ErrorCodes } from '../../shared/contract/sampling.js';
import type { FormDraft } from '../../shared/contract/drafts.js';
import type { PersonRef } from '../../shared/contract/personal-tokens.js';
import { detailed, type CallRef, type ElicitationItemView, type ElicitationStatus, type HistoryEntry, type ProtocolEra, type RuleRef, type StopCause } from '../../shared/contract/state.js';
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';
import { withServerWait, type ServerWait } from '../../shared/domain/wait.js';
import { protocolError } from '../mcp/protocol.js';
import type { StateHub } from '../state-hub.js';
import type { IncomingElicitation } from '../requests/incoming.js';
import { elicitationMayBecome } from '../requests/machine.js';
import { versionOf } from '../requests/version.js';
import { decideAsPerson, personActing } from '../audit/actor.js';
import type { AuditRecorder } from '../audit/trail.js';
import type { AuditKind } from '../../shared/contract/audit.js';

/** What a policy may decide for elicitation: only "always ask" or "always decline". */
export type ElicitationDecision = { kind: 'ask' } | { kind: 'decline'; rule: RuleRef };

/** What the queue needs. */
export interface ElicitationDeps {
  hub: StateHub;
  history: { save(entry: HistoryEntry): void };
  now: () => number;
  inFlightCalls(serverId: string): CallRef[];
  /** How long `serverId` waits for answers (shared/domain/wait.ts `serverWaitFor`); absent = unknown. */
  serverWait?(serverId: string, era: ProtocolEra, receivedAt: number): ServerWait | undefined;
  /** Optional rule hook: may only decline automatically, never accept. */
  decide?(serverId: string, item: ElicitationItemView): ElicitationDecision;
  onQueued?(item: ElicitationItemView): void;
  /** Where answers (a person's, a rule's decline) are recorded (main/audit); absent: not recorded. */
  audit?: AuditRecorder;
}

/** The queue's operations (the ConsoleService methods call these). */
export interface ElicitationQueue {
  /**
   * Queues a request; resolves with the person's ElicitResult.
   * @throws ProtocolError -32602 (recorded) for malformed params
   */
  handle(request: IncomingElicitation): Promise<ElicitResult>;
  /**
   * Answers an item, about the version `seen` of its question (its `contentVersion`). `content` is
   * required for a form `accept` and validated.
   * @throws ApiError not_found / invalid_state (already answered or withdrawn, or not the version
   *   seen) / invalid_input
   */
  respond(itemId: string, seen: string, action: ElicitResult['action'], content?: Record<string, FieldValue>): void;
  /** Removes a finished item from the queue view. */
  dismiss(itemId: string): boolean;
  /**
   * Keeps the form values the person typed (history commits them before this returns). Once an
   * answer went out (accepted, completed), or when `version` (the question's version the form
   * showed) is not the item's, they are kept as the draft's `late` part. Returns false when no
   * elicitation has this id (a sampling item may).
   */
  saveDraft(itemId: string, form: FormDraft, version?: string): boolean;
  /** Told when a client request finished: a waiting item that belonged only to it is withdrawn at once ('call_ended'). */
  callEnded(callId: string): void;
  /** `notifications/elicitation/complete`: marks the server's URL elicitation done. */
  complete(serverId: string, elicitationId: string): void;
  /** A -32042 error: queues its URL elicitations for the person to open (nothing waits). */
  fromUrlError(serverId: string, era: ProtocolEra, elicitations: unknown[], call?: CallRef): void;
  /**
   * Withdraws every waiting item (shutdown), `outcome.stopped` 'console_stopped' — or `cause`, and
   * only the items `only` picks (see SamplingPipeline.cancelAll); typed values are kept.
   */
  cancelAll(why: UiText, cause?: StopCause, only?: (itemId: string) => boolean): void;
}

const FINISHED_KEPT = 50;

interface Rec {
  item: ElicitationItemView;
  settle?: { resolve(r: ElicitResult): void; reject(e: Error): void };
  decidedBy?: 'person' | 'console' | 'rule';
  /** On a team server, the person who decided. */
  decider?: PersonRef;
  rule?: RuleRef;
  events: HistoryEntry['events'];
}

/** The queue's shared state: the deps, the records by item id, and the ids last published. */
interface QueueCore {
  deps: ElicitationDeps;
  records: Map<string, Rec>;
  /** Ids last published to the hub's items, to remove those that left. */
  shown: Set<string>;
}

/** Creates the queue: its core, bound to the operations below. */
export function createElicitationQueue(deps: ElicitationDeps): ElicitationQueue {
  const core: QueueCore = { deps, records: new Map(), shown: new Set() };
  return {
    handle: (request) => handle(core, request),
    respond: (itemId, seen, action, content) => respond(core, itemId, seen, action, content),
    dismiss: (itemId) => dismiss(core, itemId),
    saveDraft: (itemId, form, version) => saveDraft(core, itemId, form, version),
    callEnded: (callId) => callEnded(core, callId),
    complete: (serverId, elicitationId) => complete(core, serverId, elicitationId),
    fromUrlError: (serverId, era, elicitations, call) => fromUrlError(core, serverId, era, elicitations, call),
    cancelAll: (why, cause = 'console_stopped', only) => {
      for (const rec of core.records.values()) if (!rec.item.outcome && (only?.(rec.item.id) ?? true)) finish(core, rec, 'withdrawn', why, undefined, cause);
    },
  };
}

/** Publishes the records to the hub's items (unchanged ones send nothing) and removes those that left. */
function publish(core: QueueCore): void {
  const { hub } = core.deps;
  const current = new Set(core.records.keys());
  for (const id of core.shown) if (!current.has(id)) hub.removeItem(id);
  for (const r of core.records.values()) hub.upsertItem(r.item);
  core.shown = current;
}

/** The history entry of a record as it is now (`now`: epoch ms, for the running total). */
function historyEntryOf(rec: Rec, now: number): HistoryEntry {
  const { item } = rec;
  const call = item.association.calls[0];
  return {
    id: item.id,
    kind: 'elicitation',
    conversationId: item.id,
    serverId: item.serverId,
    ...(item.via && { via: item.via }),
    callName: call ? `${call.kind} ${call.name}` : undefined,
    ...(call?.args ? { callArgs: call.args } : {}),
    status: item.status, // the one status vocabulary: History keeps the elicitation's own
    decidedBy: rec.decidedBy,
    rule: rec.rule,
    ...(rec.decider && { decider: rec.decider }),
    ...(item.requestedBy && { requestedBy: item.requestedBy }),
    receivedAt: item.receivedAt,
    endedAt: item.outcome?.at,
    edited: false,
    preview: item.params.message.replace(/\s+/g, ' ').slice(0, 200),
    original: item.params,
    answer: item.answer,
    ...keptDraft(item),
    ...(item.outcome?.stopped ? { notDelivered: { cause: item.outcome.stopped, at: item.outcome.at, draft: item.draft !== undefined } } : {}),
    timings: { totalMs: (item.outcome?.at ?? now) - item.receivedAt },
    events: rec.events,
  };
}

/** The draft History keeps: all of it until an answer went out, then only what was typed late. */
function keptDraft(item: ElicitationItemView): Pick<HistoryEntry, 'draft'> {
  if (!item.draft) return {};
  if (item.status !== 'accepted' && item.status !== 'completed') return { draft: item.draft };
  return item.draft.late ? { draft: { late: item.draft.late, savedAt: item.draft.savedAt } } : {};
}

/** Commits the record's history entry. */
function save(core: QueueCore, rec: Rec): void {
  core.deps.history.save(historyEntryOf(rec, core.deps.now()));
}

/**
 * Ends a record in `status` (checked against the state machine table), commits history, then
 * settles the server's request: with `answer`, or rejected with `why` in English. `seen`: the
 * version a person answered about (their history event records it and the answer's digest).
 */
function finish(core: QueueCore, rec: Rec, status: ElicitationStatus, why: UiText, answer?: ElicitResult, stopped?: StopCause, seen?: string): void {
  const now = core.deps.now();
  const message = english(why);
  const { contentVersion: _shown, ...item } = rec.item;
  rec.item = { ...item, status: elicitationMayBecome(rec.item.status, status), answer, updatedAt: now, outcome: { at: now, message, ui: why, ...(stopped && { stopped }) } };
  const event: HistoryEntry['events'][number] = { at: now, kind: status, ...detailed(why), ...(seen !== undefined && { version: seen }) };
  rec.events.push(event);
  const digest = seen !== undefined && answer ? versionOf(answer) : undefined;
  if (digest && 'ready' in digest) event.sha256 = digest.ready;
  else void digest?.pending.then((sha256) => ((event.sha256 = sha256), save(core, rec)));
  if (seen !== undefined) auditAnswer(core, rec, status, { version: seen }, digest && ('ready' in digest ? digest.ready : digest.pending));
  save(core, rec); // committed before the answer reaches the server
  if (answer) rec.settle?.resolve(answer);
  else rec.settle?.reject(new Error(message));
  const finished = [...core.records.values()].filter((r) => r.item.outcome);
  for (const r of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) core.records.delete(r.item.id);
  publish(core);
}

/**
 * Records a person's answer (accepted, declined, cancelled) in the audit trail: the version of the
 * question they saw and the SHA-256 of the answer sent (its promise for a big one).
 */
function auditAnswer(core: QueueCore, rec: Rec, status: ElicitationStatus, details: { version: string }, digest: string | Promise<string> | undefined): void {
  const audit = core.deps.audit;
  const kinds: Partial<Record<ElicitationStatus, AuditKind>> = { accepted: 'elicitation.accepted', declined: 'elicitation.declined', cancelled: 'elicitation.cancelled' };
  const kind = kinds[status];
  if (!audit || !kind) return;
  const actor = personActing();
  const input = (sha256?: string) => ({ actor, kind, subject: `item:${rec.item.id}`, details: { server: rec.item.serverId, ...details, ...(sha256 !== undefined && { sha256 }) } });
  audit.record(digest instanceof Promise ? digest.then(input) : input(digest));
}

/** Queues a record after the server's elicitation policy: a declined one is never shown as waiting (no attention, no flash in the queue). */
function enqueue(core: QueueCore, rec: Rec): void {
  core.records.set(rec.item.id, rec);
  core.deps.onQueued?.(rec.item);
  const decision = core.deps.decide?.(rec.item.serverId, rec.item);
  if (decision?.kind === 'decline') {
    rec.decidedBy = 'rule';
    rec.rule = decision.rule;
    core.deps.audit?.record({ actor: { kind: 'rule', id: decision.rule.ruleId, name: decision.rule.name }, kind: 'elicitation.declined', subject: `item:${rec.item.id}`, details: { server: rec.item.serverId, ruleVersion: decision.rule.version, action: 'decline' } });
    finish(core, rec, 'declined', ui('outcome.declinedByRule', { rule: decision.rule.name, version: decision.rule.version }), { action: 'decline' });
    return;
  }
  markVersion(core, rec);
  save(core, rec);
  publish(core);
}

/** Puts the version of the question on an item the person is to answer (a big one a moment later). */
function markVersion(core: QueueCore, rec: Rec): void {
  const v = versionOf(rec.item.params);
  if ('ready' in v) {
    rec.item = { ...rec.item, contentVersion: v.ready };
    return;
  }
  void v.pending.then((version) => {
    if (rec.item.outcome) return;
    rec.item = { ...rec.item, contentVersion: version };
    publish(core);
  });
}

/** A malformed request: recorded in history and answered -32602 with the reason. */
function refuse(core: QueueCore, request: IncomingElicitation, message: string, at: number): Promise<never> {
  const id = randomUUID();
  core.deps.history.save({
    id,
    kind: 'elicitation',
    conversationId: id,
    serverId: request.serverId,
    status: 'failed',
    decidedBy: 'console',
    receivedAt: at,
    endedAt: at,
    edited: false,
    error: message,
    preview: '',
    original: request.params,
    errorDetail: { code: ErrorCodes.INVALID_PARAMS, message },
    timings: { totalMs: 0 },
    events: [{ at, kind: 'refused', detail: message }],
  });
  return Promise.reject(protocolError(ErrorCodes.INVALID_PARAMS, message));
}

/** A server's elicitation request: validated once, queued, answered when the person answers (or it is withdrawn). */
function handle(core: QueueCore, request: IncomingElicitation): Promise<ElicitResult> {
  const { deps } = core;
  const calls = request.call ? [request.call] : (request.inFlight ?? deps.inFlightCalls(request.serverId));
  const parsed = parseElicitParams(request.params, request.era);
  const at = deps.now();
  if (!parsed.ok) return refuse(core, request, parsed.message, at);
  const params = parsed.params;
  return new Promise<ElicitResult>((resolve, reject) => {
    const received = params.mode === 'url' ? ui('event.urlReceived', { url: params.url }) : ui('event.formReceived', { count: Object.keys(params.requestedSchema.properties).length });
    const rec: Rec = {
      item: {
        kind: 'elicitation',
        id: randomUUID(),
        serverId: request.serverId,
        ...(request.via && { via: request.via }),
        ...(request.requestedBy && { requestedBy: request.requestedBy }),
        era: request.era,
        association: { exact: calls.length === 1, calls },
        source: 'request',
        status: 'awaiting_input',
        receivedAt: at,
        updatedAt: at,
        ...withServerWait(deps.serverWait?.(request.serverId, request.era, at)),
        params,
        secretWarning: params.mode !== 'url' && looksLikeSecretRequest(params),
      },
      settle: { resolve, reject },
      events: [{ at, kind: 'received', ...detailed(received) }],
    };
    const onAbort = () => {
      if (rec.item.outcome) return;
      rec.decidedBy = 'console';
      finish(core, rec, 'withdrawn', ui('outcome.withdrawn'), undefined, 'server_stopped_waiting');
    };
    if (request.signal.aborted) return onAbort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    enqueue(core, rec);
  });
}

/** The person's answer. See {@link ElicitationQueue.respond}. */
function respond(core: QueueCore, itemId: string, seen: string, action: ElicitResult['action'], content?: Record<string, FieldValue>): void {
  const rec = core.records.get(itemId);
  if (!rec) throw new ApiError('not_found', ui('error.noElicitation', { id: itemId }));
  if (rec.item.outcome) throw new ApiError('invalid_state', ui('error.answerEnded', { how: rec.item.outcome.ui ?? rec.item.outcome.message }));
  if (rec.item.contentVersion === undefined || rec.item.contentVersion !== seen) {
    const why = ui(rec.item.contentVersion === undefined ? 'error.versionPending' : 'error.staleVersion');
    throw new ApiError('invalid_state', ui('error.cannotAct', { action: ui('action.answerElicitation'), why }));
  }
  decideAsPerson(rec);
  const { params } = rec.item;
  if (action !== 'accept') return finish(core, rec, action === 'decline' ? 'declined' : 'cancelled', ui(action === 'decline' ? 'outcome.declined' : 'outcome.cancelled'), { action }, undefined, seen);
  if (params.mode === 'url') {
    if (rec.item.source === 'error') return finish(core, rec, 'accepted', ui('outcome.opened'), undefined, undefined, seen);
    return finish(core, rec, 'accepted', ui('outcome.agreedToOpen'), { action: 'accept' }, undefined, seen);
  }
  const checked = validateElicitationContent(params.requestedSchema, content ?? {});
  if (!checked.ok) {
    const fields = Object.entries(checked.errors).map(([field, why]) => ui('error.fieldProblem', { field, why }));
    throw new ApiError('invalid_input', ui('error.answerMismatch', { detail: fields.slice(1).reduce((a, b) => ui('join.semicolon', { a, b }), fields[0]!) }));
  }
  finish(core, rec, 'accepted', ui('outcome.answered'), { action: 'accept', content: checked.content }, undefined, seen);
}

/** See {@link ElicitationQueue.dismiss}. */
function dismiss(core: QueueCore, itemId: string): boolean {
  const rec = core.records.get(itemId);
  if (!rec) return false;
  if (!rec.item.outcome) throw new ApiError('invalid_state', ui('error.dismissElicitation'));
  core.records.delete(itemId);
  publish(core);
  return true;
}

/** See {@link ElicitationQueue.saveDraft}. */
function saveDraft(core: QueueCore, itemId: string, form: FormDraft, version?: string): boolean {
  const rec = core.records.get(itemId);
  if (!rec) return false;
  const { item } = rec;
  const now = core.deps.now();
  const answered = item.status === 'accepted' || item.status === 'completed'; // the answer sent is the final word
  const late = answered || (version !== undefined && !item.outcome && version !== item.contentVersion);
  const draft = late ? { ...item.draft, savedAt: now, late: { ...item.draft?.late, form, savedAt: now } } : { ...item.draft, form, savedAt: now };
  rec.item = { ...item, draft, updatedAt: now };
  save(core, rec); // committed when it returns
  publish(core);
  return true;
}

/** See {@link ElicitationQueue.callEnded}. */
function callEnded(core: QueueCore, callId: string): void {
  for (const rec of core.records.values()) {
    const calls = rec.item.association.calls;
    if (rec.item.outcome || rec.item.source !== 'request' || !calls.some((c) => c.callId === callId)) continue;
    const running = new Set(core.deps.inFlightCalls(rec.item.serverId).map((c) => c.callId));
    if (calls.some((c) => running.has(c.callId))) continue;
    const ended = calls.find((c) => c.callId === callId)!;
    rec.decidedBy = 'console';
    finish(core, rec, 'withdrawn', ui('outcome.callEndedElicitation', { call: `${ended.kind} ${ended.name}` }), undefined, 'call_ended');
  }
}

/** See {@link ElicitationQueue.complete}. */
function complete(core: QueueCore, serverId: string, elicitationId: string): void {
  for (const rec of core.records.values()) {
    const p = rec.item.params;
    if (rec.item.serverId !== serverId || p.mode !== 'url' || p.elicitationId !== elicitationId) continue;
    const now = core.deps.now();
    rec.events.push({ at: now, kind: 'completed', detail: 'notifications/elicitation/complete' });
    if (!rec.item.outcome) {
      rec.decidedBy = rec.decidedBy ?? 'console';
      finish(core, rec, 'completed', ui('outcome.urlComplete'), { action: 'accept' });
    } else if (rec.item.status !== 'completed') {
      const why = ui('outcome.urlComplete');
      rec.item = { ...rec.item, status: elicitationMayBecome(rec.item.status, 'completed'), updatedAt: now, outcome: { at: now, message: english(why), ui: why } };
      save(core, rec);
      publish(core);
    }
  }
}

/** See {@link ElicitationQueue.fromUrlError}. */
function fromUrlError(core: QueueCore, serverId: string, era: ProtocolEra, elicitations: unknown[], call?: CallRef): void {
  for (const raw of elicitations) {
    const parsed = ElicitUrlParamsSchema.safeParse({ mode: 'url', ...(raw as object) });
    if (!parsed.success) continue;
    const at = core.deps.now();
    enqueue(core, {
      item: {
        kind: 'elicitation',
        id: randomUUID(),
        serverId,
        era,
        association: { exact: !!call, calls: call ? [call] : [] },
        source: 'error',
        status: 'awaiting_input',
        receivedAt: at,
        updatedAt: at,
        params: parsed.data,
        secretWarning: false,
      },
      events: [{ at, kind: 'received', ...detailed(ui('event.urlRequired', { url: parsed.data.url })) }],
    });
  }
}
