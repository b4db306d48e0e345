/**
 * The offload worker thread: runs one task (./tasks.ts) per message, in order, and answers
 * `{id, ok: true, output}` or `{id, ok: false, error: {name, message}}`.
 */
import { parentPort } from 'node:worker_threads';
import { TASKS, type TaskName } from './tasks.js';

/** A message from the console to the worker. */
export interface TaskMessage {
  id: number;
  task: TaskName;
  input: unknown;
}

parentPort?.on('message', (msg: TaskMessage) => {
  try {
    const output = (TASKS[msg.task] as (input: unknown) => unknown)(msg.input);
    parentPort!.postMessage({ id: msg.id, ok: true, output });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort!.postMessage({ id: msg.id, ok: false, error: { name: e.name, message: e.message, code: (e as { code?: unknown }).code } });
  }
});
