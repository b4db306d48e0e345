/**
 * The SDK client with one addition: an intake gate that sees every `sampling/createMessage` *before*
 * the SDK's own schema validation. The SDK answers malformed requests with -32602 on its own, which
 * is right on the wire but would leave no trace; the gate lets the console validate first (S-…
 * rules), record the refusal in history, and answer with a readable message. Requests the gate
 * passes but the SDK still refuses are reported through `onSdkRefusal`. What the gate resolves with
 * (its verdict: the validated request) reaches the handler through {@link gateVerdict}, so the
 * request is validated once.
 */
import { Client, ProtocolError } from '@modelcontextprotocol/client';

type RawHandler = (request: { method: string; params?: unknown }, ctx: unknown) => Promise<unknown>;

/** The gate's view of one incoming sampling request. */
export interface SamplingGate {
  /**
   * Validates raw params; rejects with a ProtocolError (-32602) after recording the refusal, or
   * resolves (with its verdict) when the request may proceed to the SDK's validation and the handler.
   */
  intake(rawParams: unknown): Promise<unknown>;
  /** Called when the SDK refused a request the gate had passed (message from the SDK). */
  onSdkRefusal(rawParams: unknown, message: string): void;
}

/** `Client` whose sampling handler is fronted by a {@link SamplingGate}. */
export class ConsoleClient extends Client {
  /** Set before `setRequestHandler('sampling/createMessage', …)` is called. */
  samplingGate?: SamplingGate;

  protected override _wrapHandler(method: string, handler: Parameters<Client['_wrapHandler']>[1]): ReturnType<Client['_wrapHandler']> {
    const wrapped = super._wrapHandler(method, handler);
    const gate = this.samplingGate;
    if (method !== 'sampling/createMessage' || !gate) return wrapped;
    const gated: RawHandler = async (request, ctx) => {
      const verdict = await gate.intake(request.params);
      let entered = false;
      (ctx as GateCtx).__entered = () => (entered = true);
      (ctx as GateCtx).__verdict = verdict;
      try {
        return await (wrapped as unknown as RawHandler)(request, ctx);
      } catch (err) {
        if (!entered && err instanceof ProtocolError && err.code === -32602) gate.onSdkRefusal(request.params, err.message);
        throw err;
      }
    };
    return gated as unknown as ReturnType<Client['_wrapHandler']>;
  }
}

/** What the gate leaves on a request's handler context. */
interface GateCtx {
  __entered?: () => void;
  __verdict?: unknown;
}

/** Marks, from inside the registered handler, that SDK validation passed (see ConsoleClient). */
export function markHandlerEntered(ctx: unknown): void {
  (ctx as GateCtx).__entered?.();
}

/** The gate's verdict for this request (see {@link SamplingGate.intake}); undefined without a gate. */
export function gateVerdict<T>(ctx: unknown): T | undefined {
  return (ctx as GateCtx).__verdict as T | undefined;
}
