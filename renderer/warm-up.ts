/**
 * Warm-up in idle time: the first Intl date formatter of a page costs ~15–20 ms (the browser
 * loads its locale data), and the first Markdown render ~10 ms of cold code. Both used to land
 * on the first click on a queue row. Done in idle time instead — while the page waits for main's
 * state, or once the list is shown — they are ready when the person opens a request. Each step is
 * its own idle callback, taken only when the browser has the time for it, so a message arriving
 * meanwhile waits for one step at most. The same helpers the screens use, so their caches are the
 * ones warmed.
 */
import { clockTime, formatNumber } from './format';
import { renderMarkdown } from './markdown';

/** How long the browser may postpone a step when it never goes idle (ms). */
const WARM_UP_DEADLINE_MS = 2_000;

/** Idle time a step waits for (ms): the longest step takes about this long. */
const STEP_MS = 15;

const STEPS: ReadonlyArray<() => void> = [() => clockTime(0), () => formatNumber(0), () => renderMarkdown('*Warm-up* `text`\n\n- item')];

/** Schedules the warm-up steps for the browser's idle periods (or `setTimeout` where there are none). */
export function warmUpWhenIdle(): void {
  let next = 0;
  const step = (deadline?: IdleDeadline) => {
    if (deadline && !deadline.didTimeout && deadline.timeRemaining() < STEP_MS) return schedule();
    STEPS[next++]!();
    if (next < STEPS.length) schedule();
  };
  const schedule = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(step, { timeout: WARM_UP_DEADLINE_MS }) : setTimeout(step, 0));
  schedule();
}
