/**
 * The offload worker thread: runs one task (./tasks.ts) per message, in order, and answers each
 * (./protocol.ts: the output with its big strings as moved bytes, or the error).
 */
import { parentPort } from 'node:worker_threads';
import { answerTask, type TaskMessage } from './protocol.js';

parentPort?.on('message', (msg: TaskMessage) => {
  const { answer, transfer } = answerTask(msg);
  parentPort!.postMessage(answer, transfer);
});
