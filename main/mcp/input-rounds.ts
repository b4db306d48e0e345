/**
 * The 2026-07-28 multi-round-trip loop (MRTR, S-MRTR-1..3) for the three client requests a person
 * starts — `tools/call`, `prompts/get`, `resources/read` — driven by hand (the client runs with
 * `inputRequired.autoFulfill: false`) so that every embedded input request is tied to its exact
 * call: send with `allowInputRequired`, and while the server answers `input_required`, fulfil each
 * embedded request through {@link InputHandlers} and retry on a fresh id with `inputResponses` and
 * the byte-exact `requestState`.
 */
import { isInputRequiredResult } from '@modelcontextprotocol/client';
import type { CallRef } from '../../shared/contract/state.js';

/** Most `input_required` rounds one call may take before the console gives up (MRTR). */
export const MAX_INPUT_ROUNDS = 10;

/** Thrown when a 2026-07-28 call ends because the person declined an input request (S-MRTR-3). */
export class InputDeclinedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputDeclinedError';
  }
}

/** What a handler of one embedded input request gets besides its params. */
export interface InputContext {
  /** The call the input request belongs to (exact: MRTR says so). */
  call: CallRef;
  /** Aborts when the person's call is cancelled or the connection closes. */
  signal: AbortSignal;
}

/**
 * Handlers of embedded input requests, by method (`sampling/createMessage` …). Each resolves with
 * the result to put in `inputResponses`, or throws: {@link InputDeclinedError} ends the call as
 * declined (not retried, S-MRTR-3), anything else ends it as failed. A method without a handler is
 * a capability the console did not declare (S-MRTR-2): the call is not retried.
 */
export type InputHandlers = Partial<Record<string, (params: unknown, ctx: InputContext) => Promise<unknown>>>;

/**
 * Sends one request, driving `input_required` rounds.
 * @param send sends the request's params (with `allowInputRequired: true`) and resolves with the raw result
 * @param baseParams the request's own params (`{name, arguments}`, `{uri}` …), resent every round
 * @returns the final result (not an InputRequiredResult)
 * @throws InputDeclinedError when the person declined; Error for undeclared methods (S-MRTR-2), failed
 *   input requests or more than {@link MAX_INPUT_ROUNDS} rounds; SDK errors from `send` as they are
 */
export async function requestWithInputRounds<R>(
  send: (params: Record<string, unknown>) => Promise<unknown>,
  baseParams: Record<string, unknown>,
  opts: { call: CallRef; signal: AbortSignal; handlers: InputHandlers },
): Promise<R> {
  let params: Record<string, unknown> = baseParams;
  for (let round = 1; ; round++) {
    const res: unknown = await send(params);
    if (!isInputRequiredResult(res)) return res as R;
    if (round > MAX_INPUT_ROUNDS) throw new Error(`the server asked for input ${round} times; the console stops after ${MAX_INPUT_ROUNDS} rounds`);
    const requests = Object.entries(res.inputRequests ?? {});
    const undeclared = requests.find(([, r]) => !opts.handlers[r.method]);
    if (undeclared) {
      throw new Error(`S-MRTR-2: the server asked for ${undeclared[1].method} (input "${undeclared[0]}"), a capability this console did not declare; the call was not retried`);
    }
    const settled = await Promise.allSettled(
      requests.map(async ([key, r]) => [key, await opts.handlers[r.method]!(r.params, { call: opts.call, signal: opts.signal })] as const),
    );
    const failed = settled.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) {
      if (failed.reason instanceof InputDeclinedError) throw failed.reason;
      const err = failed.reason as { message?: string };
      throw new Error(`The server's input request could not be fulfilled (${err.message ?? String(err)}); the call was not retried.`);
    }
    const inputResponses = Object.fromEntries(settled.map((o) => (o as PromiseFulfilledResult<readonly [string, unknown]>).value));
    params = { ...baseParams, inputResponses, requestState: res.requestState };
  }
}
