/**
 * Work on big payloads, off the console's event loop. A 25 MB sampling request (the size cap,
 * S-SIZE-1) takes seconds of CPU to parse, validate, scan for sensitive data and write to history;
 * on the main thread that froze every other server's review for as long. The console hands such
 * work to one worker thread (./worker.ts running ./tasks.ts) and goes on; small payloads stay
 * inline, where a thread hop would cost more than the work.
 *
 * An answer's big strings come back as moved bytes, each decoded in a turn of the event loop of
 * its own, with what validation reads of them measured on the worker (./strings.ts).
 *
 * Without a worker (no {@link WorkerSpec}, or the worker failed to start or died) every task runs
 * inline after a `setImmediate`, so behaviour is the same, only the event loop is not spared.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Answer } from './protocol.js';
import { unpackStrings } from './strings.js';
import { bigStringsOf, TASKS, type OffloadTasks, type TaskName, type TextInput } from './tasks.js';

export type { OffloadTasks, TaskName, TextInput } from './tasks.js';

/** Payloads at least this big (characters of text, or bytes of a line) are worth a worker: 1 MiB. */
export const BIG_PAYLOAD = 1 << 20;

/** Where the offload reports a worker that failed (the console's Logger fits). */
export interface OffloadLogger {
  warn(message: string, data?: Record<string, unknown>): void;
}

/** Where the worker's code is: a module URL and the Node flags it needs (e.g. a TypeScript loader). */
export interface WorkerSpec {
  url: URL;
  execArgv?: string[];
}

/** Runs tasks off the event loop. */
export interface Offload {
  /**
   * Runs `task` in the worker (or inline without one). The input is copied, except `transfer`:
   * buffers moved to the worker without a copy (unusable here afterwards; if the worker then
   * fails, the task rejects instead of running inline). Rejects with the task's own error (name,
   * message and `code` kept).
   */
  run<K extends TaskName>(task: K, input: OffloadTasks[K]['input'], transfer?: ArrayBuffer[]): Promise<OffloadTasks[K]['output']>;
  /** Whether tasks go to a worker thread (false: inline). */
  readonly threaded: boolean;
  /** Notes the big strings of a value the worker parsed (`ParsedLine.held`), so tasks can name them. */
  held(value: unknown, ids: readonly number[]): void;
  /** `text` as a task input: a reference when the worker holds it (no copy), else the string. */
  textInput(text: string): TextInput;
  /** Ends the worker; later tasks run inline. */
  close(): Promise<void>;
}

/**
 * The worker of these sources when they run as TypeScript (tests, `tsx`): ./worker.ts under the
 * `tsx` loader. In a bundle this module is not a `.ts` file and there is no such default: the host
 * passes the bundled worker's URL (see app/web/cli.ts, app/electron/main.ts).
 */
export function sourceWorkerSpec(): WorkerSpec | undefined {
  if (!import.meta.url.endsWith('.ts')) return undefined;
  return { url: new URL('./worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] };
}

/**
 * The bundled worker beside a host's bundled entry (`offload-worker.js` next to `entryUrl`, as
 * app/web/vite.config.ts and electron.vite.config.ts build it); undefined when there is none
 * (the host runs from sources: then {@link sourceWorkerSpec} applies).
 */
export function bundledWorkerSpec(entryUrl: string): WorkerSpec | undefined {
  const url = new URL('./offload-worker.js', entryUrl);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? { url } : undefined;
}

/** A task waiting for its answer. */
interface Pending {
  task: TaskName;
  input: unknown;
  /** Its input was moved to the worker: it cannot run inline. */
  moved: boolean;
  resolve(output: unknown): void;
  reject(error: unknown): void;
}

const runInline = async (task: TaskName, input: unknown): Promise<unknown> => {
  await new Promise((resolve) => setImmediate(resolve));
  return (TASKS[task] as (input: unknown) => unknown)(input);
};

/** A task the worker did not answer, run inline (unless its input went with the worker). */
const rerun = (p: Pending) => {
  if (p.moved) p.reject(new Error('the offload worker stopped while it held this task'));
  else runInline(p.task, p.input).then(p.resolve, p.reject);
};

/** Big strings the worker holds, at most (as the worker's own list, ./tasks.ts). */
const HELD_KEPT = 4;

/** `input` with every `{held}` reference replaced by its string (for a retry when the worker dropped it). */
function withStrings(input: unknown, textOf: (id: number) => string | undefined): unknown {
  if (Array.isArray(input)) return input.map((v) => withStrings(v, textOf));
  if (input === null || typeof input !== 'object' || ArrayBuffer.isView(input)) return input;
  const o = input as Record<string, unknown>;
  if (typeof o.held === 'number' && Object.keys(o).length === 1) return textOf(o.held) ?? input;
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, withStrings(v, textOf)]));
}

/** Creates the offload; the worker starts on the first task. */
export function createOffload(spec: WorkerSpec | undefined, logger?: OffloadLogger): Offload {
  const heldIds = new Map<string, number>();
  const heldTexts = new Map<number, string>();
  let worker: Worker | undefined;
  let broken = spec === undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  /** The worker failed: what it had not answered runs inline, and so does everything after. */
  const fail = (why: string) => {
    if (broken) return;
    broken = true;
    logger?.warn('offload worker unavailable; big payloads are handled on the main thread', { error: why });
    const left = [...pending.values()];
    pending.clear();
    void worker?.terminate();
    worker = undefined;
    for (const p of left) rerun(p);
  };

  const start = (): Worker => {
    const w = new Worker(spec!.url, { execArgv: spec!.execArgv });
    w.unref();
    w.on('message', (answer: Answer) => {
      const p = pending.get(answer.id);
      if (!p) return;
      pending.delete(answer.id);
      if (pending.size === 0) w.unref();
      if (answer.ok && answer.strings.length === 0) p.resolve(answer.output);
      else if (answer.ok) unpackStrings(answer.output, answer.strings).then(p.resolve, p.reject);
      else p.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name, code: answer.error.code }));
    });
    w.on('error', (err) => fail(String(err)));
    w.on('exit', (code) => {
      if (worker === w && pending.size > 0) fail(`exited with code ${code}`);
      if (worker === w) worker = undefined;
    });
    return w;
  };

  const send = (task: TaskName, input: unknown, transfer?: ArrayBuffer[]): Promise<unknown> => {
    if (broken) return runInline(task, input);
    return new Promise((resolve, reject) => {
      let id: number | undefined;
      try {
        worker ??= start();
        id = nextId++;
        pending.set(id, { task, input, moved: (transfer?.length ?? 0) > 0, resolve: resolve as (o: unknown) => void, reject });
        worker.ref();
        worker.postMessage({ id, task, input }, transfer ?? []);
      } catch (err) {
        const queued = id !== undefined && pending.has(id); // then `fail` reruns it
        fail(String(err));
        if (!queued) runInline(task, input).then(resolve as (o: unknown) => void, reject);
      }
    });
  };

  return {
    get threaded() {
      return !broken;
    },
    run(task, input, transfer) {
      return send(task, input, transfer).catch((err: unknown) => {
        if ((err as { code?: unknown }).code !== 'ERR_NOT_HELD') throw err;
        return send(task, withStrings(input, (id) => heldTexts.get(id))); // the worker dropped it: send the text
      }) as Promise<never>;
    },
    held(value, ids) {
      bigStringsOf(value).forEach((text, i) => {
        const id = ids[i];
        if (id === undefined) return;
        heldIds.set(text, id);
        heldTexts.set(id, text);
        if (heldTexts.size > HELD_KEPT) {
          const [oldId, oldText] = heldTexts.entries().next().value!;
          heldTexts.delete(oldId);
          if (heldIds.get(oldText) === oldId) heldIds.delete(oldText);
        }
      });
    },
    textInput(text) {
      const id = heldIds.get(text);
      return id === undefined ? text : { held: id };
    },
    async close() {
      const w = worker;
      broken = true;
      worker = undefined;
      const left = [...pending.values()];
      pending.clear();
      for (const p of left) rerun(p);
      await w?.terminate();
    },
  };
}

/**
 * Whether a JSON value holds at least {@link BIG_PAYLOAD} characters of strings (keys excluded).
 * Stops counting as soon as it knows, so a small request costs a walk of its few nodes.
 */
export function isBigPayload(value: unknown): boolean {
  let left = BIG_PAYLOAD;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      left -= v.length;
      if (left <= 0) return true;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === 'object') {
      for (const x of Object.values(v)) stack.push(x);
    }
  }
  return false;
}
