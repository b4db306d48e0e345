/**
 * The messages between the console and its offload worker: a task in, its answer out. One place
 * for both sides (./worker.ts, ./offload.ts, and test workers that wrap the real one).
 */
import { packStrings, type SentString } from './strings.js';
import { TASKS, type TaskName } from './tasks.js';

/** A message from the console to the worker. */
export interface TaskMessage {
  id: number;
  task: TaskName;
  input: unknown;
}

/**
 * The worker's answer to one task: its output with the big strings moved to `strings` as bytes
 * (./strings.ts), or the task's error (name, message and `code` kept).
 */
export type Answer =
  | { id: number; ok: true; output: unknown; strings: SentString[] }
  | { id: number; ok: false; error: { name: string; message: string; code?: unknown } };

/** Runs the task of `msg` and makes its answer, with the buffers to transfer along with it. */
export function answerTask(msg: TaskMessage): { answer: Answer; transfer: ArrayBuffer[] } {
  try {
    const { value: output, strings, transfer } = packStrings((TASKS[msg.task] as (input: unknown) => unknown)(msg.input));
    return { answer: { id: msg.id, ok: true, output, strings }, transfer };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { answer: { id: msg.id, ok: false, error: { name: e.name, message: e.message, code: (e as { code?: unknown }).code } }, transfer: [] };
  }
}
