/**
 * The time limits of one provider call (shared/contract/providers.ts `ProviderTimeouts`): time to
 * the first byte, the longest silence inside the response, and the total deadline. The AI SDK
 * passes our abort signal to `fetch` as it is, so {@link watchedFetch} — the `fetch` every SDK
 * provider is built with — finds the call's {@link CallClock} by that signal and tells it when the
 * response starts and each time a chunk of its body arrives. A call past a limit is aborted; the
 * caller (generate-stream.ts) reads {@link CallClock.expired} to say which limit it broke.
 *
 * Per call: three timers at most, re-armed lazily (a chunk only stamps the time), so a fast
 * stream costs one clock read per chunk.
 */
import type { ProviderTimeouts } from '../../shared/contract/providers.js';

/** Which limit a call broke. */
export type TimeoutPhase = 'first_byte' | 'idle' | 'total';

/** A broken limit: which, and its length in ms. */
export interface Expired {
  phase: TimeoutPhase;
  ms: number;
}

/** The clocks of calls in flight, by the signal their `fetch` receives. */
const clocks = new WeakMap<AbortSignal, CallClock>();

/** The limits of one call, started when it is made; {@link stop} it when the call is over. */
export class CallClock {
  /** Aborts when the caller's signal does or a limit is broken: pass it to the SDK. */
  readonly signal: AbortSignal;
  /** The limit broken, once one is. */
  expired?: Expired;
  private readonly own = new AbortController();
  private readonly timers: Array<ReturnType<typeof setTimeout>> = [];
  private started = false;
  private lastChunkAt = 0;
  private idle?: ReturnType<typeof setTimeout>;

  constructor(
    outer: AbortSignal,
    private readonly limits: ProviderTimeouts,
  ) {
    this.signal = AbortSignal.any([outer, this.own.signal]);
    clocks.set(this.signal, this);
    this.timers.push(setTimeout(() => this.expire('first_byte'), limits.firstByteMs));
    this.timers.push(setTimeout(() => this.expire('total'), limits.totalMs));
  }

  /** The response started (its headers arrived): the first-byte limit is met, silence is counted from now. */
  responded(): void {
    if (this.started || this.expired) return;
    this.started = true;
    clearTimeout(this.timers[0]);
    this.chunk();
    this.armIdle(this.limits.idleMs);
  }

  /** A chunk of the body arrived. */
  chunk(): void {
    this.lastChunkAt = performance.now();
  }

  /** Clears the timers (the call is over, however it ended). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    clearTimeout(this.idle);
    clocks.delete(this.signal);
  }

  /** Fires when the idle limit may have passed; re-arms for the rest when a chunk came since. */
  private armIdle(ms: number): void {
    this.idle = setTimeout(() => {
      const silent = performance.now() - this.lastChunkAt;
      if (silent >= this.limits.idleMs) this.expire('idle');
      else this.armIdle(this.limits.idleMs - silent);
    }, ms);
  }

  private expire(phase: TimeoutPhase): void {
    if (this.expired) return;
    this.expired = { phase, ms: this.limits[phase === 'first_byte' ? 'firstByteMs' : phase === 'idle' ? 'idleMs' : 'totalMs'] };
    this.stop();
    this.own.abort(new Error(`provider call past its ${phase.replace('_', ' ')} limit`));
  }
}

/**
 * A `fetch` that reports to the clock of the call whose signal it is given (none: plain `fetch`):
 * the response's start, then each chunk of its body.
 */
export function watchedFetch(base?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const clock = init?.signal ? clocks.get(init.signal) : undefined;
    const res = await (base ?? fetch)(input, init);
    if (!clock) return res;
    clock.responded();
    if (!res.body) return res;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          clock.chunk();
          out.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
