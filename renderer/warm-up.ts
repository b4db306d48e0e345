/**
 * Warm-up while main's state is on its way: the first layout of text in the page's fonts costs
 * ~20 ms (the browser finds and loads the faces), the first Intl date formatter ~15–20 ms
 * (the browser loads its locale data), the first Markdown render ~10–15 ms of cold code (marked
 * compiles its rules, DOMPurify makes its document), and the first request check and
 * sensitive-data scan a few ms more (zod compiles a schema's parser at its first use, the
 * detectors' patterns compile at theirs). Left cold, all of it lands on the first list and the
 * first click on a queue row: that click's review took ~85 ms where a later one takes ~20
 * (`npm run bench`, `p3.queue_interactive_ms_1001` against `p3.row_review_ms`).
 *
 * The steps start once the connection to main is open — the page's request for the state has then
 * been sent — and run one task each while the answer is on its way. Idle periods would not do: a
 * page that is loading, then rendering the list, has none before a quick first click; started
 * before the connection opens, the steps would delay the request itself. A message
 * arriving meanwhile waits for one step at most. The same helpers the screens use, so their
 * caches are the ones warmed.
 */
import { layOutFaces } from './faces.js';
import { clockTime, formatNumber } from './format.js';
import { renderMarkdown } from './markdown.js';
import { checkDraftParams } from './screens/queue/draft-check.js';
import { detectSensitive } from '../shared/domain/sensitive-data.js';
import type { CreateMessageParams } from '../shared/contract/sampling.js';
import type { Connection } from './api/index.js';

/** A small request of the kinds a review shows first (text and a tool), checked once to warm the validator. */
const SAMPLE: CreateMessageParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Warm-up' } }],
  maxTokens: 1,
  tools: [{ name: 'warm_up', inputSchema: { type: 'object' } }],
};

/**
 * The steps, in the order the page needs them: the list's fonts and wait clocks first, then a
 * review's helpers, then a whole review (`renderReview`: its components' code; with the helpers
 * warm, the step is short).
 */
const steps = (renderReview: () => void): ReadonlyArray<() => void> => [
  () => layOutFaces(),
  () => clockTime(0),
  () => renderMarkdown('*Warm-up* `text`\n\n- item\n\n> quote\n\n# Heading'),
  () => checkDraftParams(SAMPLE, SAMPLE),
  () => detectSensitive('Warm-up: mail a@example.com, call +1 202 555 0100'),
  renderReview,
  () => formatNumber(0),
];

/** What the warm-up is told by its page. */
export interface WarmUpOptions {
  /** Whether main's state has arrived (the list is being shown); default never. */
  stateArrived?: () => boolean;
  /** Renders a sample review off the page (renderer/warm-up-review.tsx); default nothing. */
  renderReview?: () => void;
}

/** How long a step waits for idle time after the state arrived before it runs anyway (ms). */
const IDLE_WAIT_MS = 2_000;

/**
 * Runs the warm-up steps, each as its own task, once `connection` is open (at once when it is).
 * Steps left when the state has arrived (`stateArrived`) wait for idle time: the list is then
 * being shown and the person's first click answered, which a step must not hold up. A step that
 * throws is reported like any uncaught error; the next steps still run. Resolves when all have run.
 */
export function warmUpOnceOpen(connection: Connection, { stateArrived = () => false, renderReview = () => undefined }: WarmUpOptions = {}): Promise<void> {
  const todo = steps(renderReview);
  let next = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const step = () => {
    try {
      todo[next++]!();
    } finally {
      if (next < todo.length) schedule();
      else done();
    }
  };
  const schedule = () => {
    if (stateArrived() && typeof requestIdleCallback === 'function') requestIdleCallback(step, { timeout: IDLE_WAIT_MS });
    else setTimeout(step, 0);
  };
  if (connection.status() === 'open') schedule();
  else {
    const stop = connection.onStatus((status) => {
      if (status !== 'open') return;
      stop();
      schedule();
    });
  }
  return finished;
}
