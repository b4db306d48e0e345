/**
 * The review state machines as tables (main/requests/machine.ts): every status has a row, ended
 * items allow nothing, and the moves the pipeline makes are the ones the table names.
 */
import { describe, expect, it } from 'vitest';
import { ELICITATION_TRANSITIONS, elicitationMayBecome, nextSamplingStatus, SAMPLING_TRANSITIONS, samplingAllows, TransitionError } from '../../main/requests/machine.js';
import { TERMINAL_STATUSES } from '../../shared/contract/state.js';

describe('sampling state machine', () => {
  it('terminal statuses allow nothing; every open status can time out or stop', () => {
    for (const s of TERMINAL_STATUSES) if (s in SAMPLING_TRANSITIONS) expect(SAMPLING_TRANSITIONS[s as keyof typeof SAMPLING_TRANSITIONS]).toEqual({});
    for (const s of ['awaiting_request_review', 'generating', 'awaiting_response_review'] as const) {
      expect(nextSamplingStatus(s, 'server_timeout')).toBe('timed_out');
      expect(nextSamplingStatus(s, 'stop')).toBe('cancelled');
    }
  });

  it('the review path: request review → generating → response review → delivered, with the way back', () => {
    expect(nextSamplingStatus('awaiting_request_review', 'approve_request')).toBe('generating');
    expect(nextSamplingStatus('generating', 'generated')).toBe('awaiting_response_review');
    expect(nextSamplingStatus('generating', 'generation_stopped')).toBe('awaiting_request_review');
    expect(nextSamplingStatus('awaiting_response_review', 'regenerate')).toBe('generating');
    expect(nextSamplingStatus('awaiting_response_review', 'deliver')).toBe('delivered');
    expect(nextSamplingStatus('awaiting_request_review', 'write_response')).toBe('awaiting_response_review');
  });

  it('a request rejection only in request review, a response rejection only in response review', () => {
    expect(samplingAllows('awaiting_request_review', 'reject_request')).toBe(true);
    expect(samplingAllows('awaiting_response_review', 'reject_request')).toBe(false);
    expect(samplingAllows('awaiting_request_review', 'reject_response')).toBe(false);
    expect(samplingAllows('generating', 'deliver')).toBe(false);
    expect(() => nextSamplingStatus('delivered', 'deliver')).toThrow(TransitionError);
  });
});

describe('elicitation state machine', () => {
  it('waiting input ends one way; an ended URL flow may still be completed by the server; nothing follows completed', () => {
    expect(elicitationMayBecome('awaiting_input', 'accepted')).toBe('accepted');
    expect(elicitationMayBecome('withdrawn', 'completed')).toBe('completed');
    expect(() => elicitationMayBecome('declined', 'accepted')).toThrow(TransitionError);
    expect(ELICITATION_TRANSITIONS.completed).toEqual([]);
  });
});
