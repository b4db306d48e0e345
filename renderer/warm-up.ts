/**
 * Warm-up in idle time: the first Intl date formatter of a page costs ~15–20 ms (the browser
 * loads its locale data), and the first Markdown render ~10 ms of cold code. Both used to land
 * on the first click on a queue row. Done in idle time instead — typically while the page waits
 * for main's state, else once the list is shown — they are ready when the person looks at a
 * request. The same helpers the screens use, so their caches are the ones warmed.
 */
import { clockTime, formatNumber } from './format';
import { renderMarkdown } from './markdown';

/** How long the browser may postpone the warm-up when it never goes idle (ms). */
const WARM_UP_DEADLINE_MS = 2_000;

/** Schedules the warm-up for the browser's next idle period (or `setTimeout` where there is none). */
export function warmUpWhenIdle(): void {
  const run = () => {
    clockTime(0);
    formatNumber(0);
    renderMarkdown('*Warm-up* `text`\n\n- item');
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: WARM_UP_DEADLINE_MS });
  else setTimeout(run, 0);
}
