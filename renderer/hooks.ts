/** Small shared hooks: a ticking clock and a wrapper for API calls with pending/error state. */
import { useCallback, useState, useSyncExternalStore } from 'react';
import { errorText } from './api/error-text';

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, re-rendering once a second (one shared timer for the whole app). */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/** State of one API action started from a button. */
export interface ActionState<A extends unknown[]> {
  run: (...args: A) => Promise<void>;
  pending: boolean;
  error: string | null;
  clearError: () => void;
}

/**
 * Wraps an async API call for a button: `pending` while it runs (to disable the button) and the
 * error message when it fails (to show next to the button; see {@link errorText}). Never throws.
 */
export function useAction<A extends unknown[]>(fn: (...args: A) => Promise<unknown>): ActionState<A> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (...args: A) => {
      setPending(true);
      setError(null);
      try {
        await fn(...args);
      } catch (err) {
        setError(errorText(err));
      } finally {
        setPending(false);
      }
    },
    [fn],
  );
  const clearError = useCallback(() => setError(null), []);
  return { run, pending, error, clearError };
}
