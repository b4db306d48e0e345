/**
 * Warm-up in idle time: the first Intl date formatter of a page costs ~15–20 ms (the browser
 * loads its locale data), the first Markdown render ~10 ms of cold code, and the first request
 * check and sensitive-data scan a few ms more (zod compiles a schema's parser at its first use,
 * the detectors' patterns compile at theirs). All of it used to land on the first click on a
 * queue row. Done in idle time instead — in the first idle period, which
 * is normally the wait for main's state — they are ready when the person opens a request. Each
 * step is its own idle callback, so a message arriving meanwhile waits for one step at most. (A
 * step used to wait for an idle period with its length left; on a busy page none came before the
 * first click, which then paid for both.) The same helpers the screens use, so their caches are
 * the ones warmed.
 */
import { clockTime, formatNumber } from './format';
import { renderMarkdown } from './markdown';
import { checkDraftParams } from './screens/queue/draft-check';
import { detectSensitive } from '../shared/domain/sensitive-data';
import type { CreateMessageParams } from '../shared/contract/sampling';

/** A small request of the kinds a review shows first (text and a tool), checked once to warm the validator. */
const SAMPLE: CreateMessageParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Warm-up' } }],
  maxTokens: 1,
  tools: [{ name: 'warm_up', inputSchema: { type: 'object' } }],
};

/** How long the browser may postpone a step when it never goes idle (ms). */
const WARM_UP_DEADLINE_MS = 2_000;

/** The steps, costliest first (the page may be opened and clicked before the last ones ran). */
const STEPS: ReadonlyArray<() => void> = [
  () => clockTime(0),
  () => renderMarkdown('*Warm-up* `text`\n\n- item\n\n> quote\n\n# Heading'),
  () => checkDraftParams(SAMPLE, SAMPLE),
  () => detectSensitive('Warm-up: mail a@example.com, call +1 202 555 0100'),
  () => formatNumber(0),
];

/** Schedules the warm-up steps for the browser's idle periods (or `setTimeout` where there are none). */
export function warmUpWhenIdle(): void {
  let next = 0;
  const step = () => {
    STEPS[next++]!();
    if (next < STEPS.length) schedule();
  };
  const schedule = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(step, { timeout: WARM_UP_DEADLINE_MS }) : setTimeout(step, 0));
  schedule();
}
