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

/**
 * What one offload keeps: the worker (started on the first task; none once `broken`), the tasks it
 * has not answered by message id, and the big strings it holds (text → id and id → text, the last
 * {@link HELD_KEPT}).
 */
interface OffloadState {
  readonly spec: WorkerSpec | undefined;
  readonly logger: OffloadLogger | undefined;
  readonly heldIds: Map<string, number>;
  readonly heldTexts: Map<number, string>;
  worker: Worker | undefined;
  /** No worker any more (none given, it failed, or closed): tasks run inline. */
  broken: boolean;
  nextId: number;
  readonly pending: Map<number, Pending>;
}

/** Creates the offload; the worker starts on the first task. */
export function createOffload(spec: WorkerSpec | undefined, logger?: OffloadLogger): Offload {
  const st: OffloadState = { spec, logger, heldIds: new Map(), heldTexts: new Map(), worker: undefined, broken: spec === undefined, nextId: 1, pending: new Map() };
  return {
    get threaded() {
      return !st.broken;
    },
    run: (task, input, transfer) => run(st, task, input, transfer),
    held: (value, ids) => held(st, value, ids),
    textInput(text) {
      const id = st.heldIds.get(text);
      return id === undefined ? text : { held: id };
    },
    close: () => close(st),
  };
}

/** The worker failed: what it had not answered runs inline, and so does everything after. Logged once. */
function fail(st: OffloadState, why: string): void {
  if (st.broken) return;
  st.broken = true;
  st.logger?.warn('offload worker unavailable; big payloads are handled on the main thread', { error: why });
  const left = [...st.pending.values()];
  st.pending.clear();
  void st.worker?.terminate();
  st.worker = undefined;
  for (const p of left) rerun(p);
}

/** Starts the worker (unref'd while it has nothing to do); its answers settle the pending tasks, its failure is {@link fail}. */
function startWorker(st: OffloadState): Worker {
  const w = new Worker(st.spec!.url, { execArgv: st.spec!.execArgv });
  w.unref();
  w.on('message', (answer: Answer) => onAnswer(st, w, answer));
  w.on('error', (err) => fail(st, String(err)));
  w.on('exit', (code) => {
    if (st.worker === w && st.pending.size > 0) fail(st, `exited with code ${code}`);
    if (st.worker === w) st.worker = undefined;
  });
  return w;
}

/** Settles the task an answer is for: its output (big strings decoded first), or its error with name, message and `code`. */
function onAnswer(st: OffloadState, w: Worker, answer: Answer): void {
  const p = st.pending.get(answer.id);
  if (!p) return;
  st.pending.delete(answer.id);
  if (st.pending.size === 0) w.unref();
  if (answer.ok && answer.strings.length === 0) p.resolve(answer.output);
  else if (answer.ok) unpackStrings(answer.output, answer.strings).then(p.resolve, p.reject);
  else p.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name, code: answer.error.code }));
}

/** Posts a task to the worker (starting it if needed), or runs it inline when there is none or posting fails. */
function send(st: OffloadState, task: TaskName, input: unknown, transfer?: ArrayBuffer[]): Promise<unknown> {
  if (st.broken) return runInline(task, input);
  return new Promise((resolve, reject) => {
    let id: number | undefined;
    try {
      const worker = (st.worker ??= startWorker(st));
      id = st.nextId++;
      st.pending.set(id, { task, input, moved: (transfer?.length ?? 0) > 0, resolve: resolve as (o: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ id, task, input }, transfer ?? []);
    } catch (err) {
      const queued = id !== undefined && st.pending.has(id); // then `fail` reruns it
      fail(st, String(err));
      if (!queued) runInline(task, input).then(resolve as (o: unknown) => void, reject);
    }
  });
}

/** {@link Offload.run}: sends the task; when the worker no longer holds a string it names (`ERR_NOT_HELD`), sends it again with the text. */
function run<K extends TaskName>(st: OffloadState, task: K, input: OffloadTasks[K]['input'], transfer?: ArrayBuffer[]): Promise<OffloadTasks[K]['output']> {
  return send(st, task, input, transfer).catch((err: unknown) => {
    if ((err as { code?: unknown }).code !== 'ERR_NOT_HELD') throw err;
    return send(st, task, withStrings(input, (id) => st.heldTexts.get(id))); // the worker dropped it: send the text
  }) as Promise<never>;
}

/** {@link Offload.held}: maps each big string of `value` to the worker's id for it, forgetting the oldest past {@link HELD_KEPT}. */
function held(st: OffloadState, value: unknown, ids: readonly number[]): void {
  const { heldIds, heldTexts } = st;
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
}

/** {@link Offload.close}: later tasks run inline, as do the ones the worker had not answered; resolves once the worker ended. */
async function close(st: OffloadState): Promise<void> {
  const w = st.worker;
  st.broken = true;
  st.worker = undefined;
  const left = [...st.pending.values()];
  st.pending.clear();
  for (const p of left) rerun(p);
  await w?.terminate();
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
