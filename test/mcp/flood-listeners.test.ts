/**
 * A server that floods the console with requests and does not read its answers adds no event
 * listener per message: the console's answers wait their turn (one `drain` listener at most), so
 * Node never warns MaxListenersExceededWarning. Runs the console in a child process so its
 * warnings are its own.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

it('a flooding server that reads nothing back raises no MaxListenersExceededWarning', () => {
  const child = new URL('./flood-listeners.child.ts', import.meta.url).pathname;
  const run = spawnSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 90_000, cwd: new URL('../..', import.meta.url).pathname });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  expect(line, run.stderr.slice(-2000)).toMatch(/^\{/);
  const { recorded, warnings } = JSON.parse(line) as { recorded: number; warnings: string[] };
  expect(recorded).toBe(3000); // every flood request was answered and recorded
  expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
}, 120_000);
