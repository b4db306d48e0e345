/**
 * Jobs for a module worker made at first use (the sensitive-data scan, media decoding): each
 * message carries an `id` and the worker answers with the same `id`. Where workers cannot run —
 * no `Worker`, or the worker failed to start or crashed — `post` returns false and the jobs still
 * open are handed back, so the caller does the work on this thread; no worker is made again.
 */

/** A job queue over one lazily made worker. */
export interface WorkerJobs<J> {
  /** Sends `message` (its `id` is added) for `job`. @returns false when there is no worker: do the job here. */
  post(job: J, message: object): boolean;
}

/**
 * @param make creates the worker (`new Worker(new URL('./x-worker.ts', import.meta.url), { type:
 *   'module' })`, written at the call site so the bundler finds the worker's file)
 * @param onAnswer receives each answer with the job it answers
 * @param onFail receives the jobs still open when the worker fails
 */
export function workerJobs<J, A extends { id: number }>(make: () => Worker, onAnswer: (job: J, answer: A) => void, onFail: (open: J[]) => void): WorkerJobs<J> {
  let worker: Worker | null | undefined;
  let nextId = 1;
  const open = new Map<number, J>();
  const get = (): Worker | null => {
    if (worker !== undefined) return worker;
    try {
      worker = typeof Worker === 'function' ? make() : null;
    } catch {
      worker = null;
    }
    if (!worker) return null;
    worker.onmessage = (e: MessageEvent<A>) => {
      const job = open.get(e.data.id);
      if (job === undefined) return;
      open.delete(e.data.id);
      onAnswer(job, e.data);
    };
    worker.onerror = () => {
      worker = null;
      const left = [...open.values()];
      open.clear();
      onFail(left);
    };
    return worker;
  };
  return {
    post(job, message) {
      const w = get();
      if (!w) return false;
      const id = nextId++;
      open.set(id, job);
      w.postMessage({ ...message, id });
      return true;
    },
  };
}
