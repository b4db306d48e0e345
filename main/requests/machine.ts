/**
 * The review state machines of server requests, as tables: for each status, the events allowed in
 * it and the status each leads to. The sampling pipeline (main/sampling/pipeline.ts, steps.ts)
 * moves an item only through {@link nextSamplingStatus}, and asks {@link samplingAllows} before a
 * person's action; the elicitation queue moves only through {@link elicitationMayBecome}.
 *
 * Sampling (MCP "Sampling": the person reviews the request, then the response, and may reject either):
 *
 *   awaiting_request_review ─approve_request─▶ generating ─generated─▶ awaiting_response_review ─deliver─▶ delivered
 *          │  ▲                                    │  │                     │   ▲
 *          │  └──────────── generation_stopped ────┘  └─provider_failed─▶ failed └─ regenerate ◀─ (generating)
 *          ├─write_response / resume_response─────────────────────────────▶ │
 *          └─reject_request─▶ rejected                                      └─reject_response─▶ rejected
 *
 * A failed generation goes back to request review when a person reviews (they retry, pick another
 * model, write the response or reject); with nobody reviewing (an `approve_all` rule) it ends the
 * item `failed` (`provider_failed`) and the caller gets the provider's failure. From every open
 * status: `server_timeout` → timed_out; `stop` (the server cancelled, the connection closed, the
 * call ended, the console stopped) → cancelled. Terminal statuses allow nothing. `failed` is also
 * written for a request refused at intake, and `interrupted` (the console died) only to history.
 */
import type { ElicitationStatus, SamplingStatus } from '../../shared/contract/state.js';

/** What can happen to a sampling item. */
export type SamplingEvent =
  | 'approve_request'
  | 'write_response'
  | 'resume_response'
  | 'reject_request'
  | 'generated'
  | 'generation_stopped'
  | 'provider_failed'
  | 'regenerate'
  | 'deliver'
  | 'reject_response'
  | 'server_timeout'
  | 'stop';

/** The server stopping, from any open status. */
const ENDINGS = { server_timeout: 'timed_out', stop: 'cancelled' } as const;

/** The sampling state machine: status → event → next status. */
export const SAMPLING_TRANSITIONS: Readonly<Record<SamplingStatus, Readonly<Partial<Record<SamplingEvent, SamplingStatus>>>>> = {
  awaiting_request_review: {
    approve_request: 'generating',
    write_response: 'awaiting_response_review',
    resume_response: 'awaiting_response_review',
    reject_request: 'rejected',
    ...ENDINGS,
  },
  generating: { generated: 'awaiting_response_review', generation_stopped: 'awaiting_request_review', provider_failed: 'failed', ...ENDINGS },
  awaiting_response_review: { regenerate: 'generating', deliver: 'delivered', reject_response: 'rejected', ...ENDINGS },
  delivered: {},
  rejected: {},
  failed: {},
  cancelled: {},
  timed_out: {},
  interrupted: {},
};

/** Thrown when code tries a move the table does not allow (a defect, not a person's mistake). */
export class TransitionError extends Error {
  constructor(from: string, event: string) {
    super(`no transition from ${from} on ${event}`);
    this.name = 'TransitionError';
  }
}

/** Whether `event` may happen to a sampling item in `status`. */
export function samplingAllows(status: SamplingStatus, event: SamplingEvent): boolean {
  return SAMPLING_TRANSITIONS[status][event] !== undefined;
}

/**
 * The status `event` leads to from `status`.
 * @throws TransitionError when the table has no such move
 */
export function nextSamplingStatus(status: SamplingStatus, event: SamplingEvent): SamplingStatus {
  const next = SAMPLING_TRANSITIONS[status][event];
  if (!next) throw new TransitionError(status, event);
  return next;
}

/**
 * The elicitation state machine: status → the statuses it may become. Waiting on the person, an
 * item is answered (accepted, declined, cancelled), withdrawn (the server stopped waiting, the call
 * ended, the console stopped) or completed (a URL elicitation the server reported done). The
 * server's `notifications/elicitation/complete` is its word on a URL flow the person may have
 * finished in the browser whatever they answered here, so every ended item may still become
 * `completed`; nothing follows `completed`.
 */
export const ELICITATION_TRANSITIONS: Readonly<Record<ElicitationStatus, readonly ElicitationStatus[]>> = {
  awaiting_input: ['accepted', 'declined', 'cancelled', 'withdrawn', 'completed'],
  accepted: ['completed'],
  declined: ['completed'],
  cancelled: ['completed'],
  withdrawn: ['completed'],
  completed: [],
};

/**
 * Checks an elicitation move against {@link ELICITATION_TRANSITIONS} and returns `to`.
 * @throws TransitionError when the table has no such move
 */
export function elicitationMayBecome(from: ElicitationStatus, to: ElicitationStatus): ElicitationStatus {
  if (!ELICITATION_TRANSITIONS[from].includes(to)) throw new TransitionError(from, to);
  return to;
}
