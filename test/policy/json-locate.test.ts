// locateJsonPath on text cut off mid-value: it returns (the best location found) instead of
// scanning past the end for ever. Each call runs in a worker thread, so a scan that never ends
// fails the test by its timeout (and the worker is stopped) instead of hanging the test run.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { locateJsonPath } from '../../main/policy/json-locate.js';

const running = new Set<Worker>();
afterEach(async () => {
  await Promise.all([...running].map((w) => w.terminate()));
  running.clear();
});

/** locateJsonPath(text, path), run in a worker thread (TypeScript through tsx, as the offload worker runs in tests). */
function locateInWorker(text: string, path: PropertyKey[]): Promise<{ line: number; column: number }> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.url).then((m) => parentPort.postMessage(m.locateJsonPath(workerData.text, workerData.path)));
  `;
  const url = new URL('../../main/policy/json-locate.ts', import.meta.url).href;
  const worker = new Worker(source, { eval: true, workerData: { url, text, path }, execArgv: ['--import', 'tsx'] });
  running.add(worker);
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('locateJsonPath on cut-off text', () => {
  const cases: Array<{ text: string; path: PropertyKey[]; at: { line: number; column: number } }> = [
    { text: '[1', path: [3], at: { line: 1, column: 1 } },
    { text: '{"a":', path: ['b'], at: { line: 1, column: 1 } },
    { text: '{"a":', path: ['a', 'b'], at: { line: 1, column: 6 } },
    { text: '[[1', path: [1], at: { line: 1, column: 1 } },
    { text: '{"a":[1', path: ['b'], at: { line: 1, column: 1 } },
    { text: '{"a":[', path: ['b'], at: { line: 1, column: 1 } },
    { text: '{"a":[1}', path: ['b'], at: { line: 1, column: 1 } },
    { text: '{\n  "a": {\n    "b": [1, {"c": 2', path: ['a', 'b', 5], at: { line: 3, column: 10 } },
    { text: '{"a": {"b": [[[', path: ['a', 'x'], at: { line: 1, column: 7 } },
  ];
  for (const { text, path, at } of cases) {
    it(`${JSON.stringify(text)} at ${path.join('.')} returns the best location found`, { timeout: 5_000 }, async () => {
      expect(await locateInWorker(text, path)).toEqual(at);
    });
  }

  it('whole text still gives the value, or its deepest existing parent', () => {
    const text = '{\n  "a": {\n    "b": [1, {"c": 2}]\n  }\n}\n';
    expect(locateJsonPath(text, ['a', 'b', 1, 'c'])).toEqual({ line: 3, column: 20 });
    expect(locateJsonPath(text, ['a', 'missing'])).toEqual({ line: 2, column: 8 });
  });
});
