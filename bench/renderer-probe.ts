/**
 * In-page instrumentation of the renderer-scale scenario, installed with `page.addInitScript`
 * before the renderer loads (so it must be self-contained: Playwright serialises the function).
 * All times are `performance.now()` / event `timeStamp` values of the page (one clock, ms).
 *
 * "Painted" means: the first animation frame in which the DOM shows the change, then one
 * MessageChannel task posted from that frame's callback — which runs after the frame was
 * rendered, so a long task that delays the frame delays the figure too.
 *
 * - State arrival: the first WebSocket message that is the `getState` reply (a reply whose value
 *   has the state's `settings`; it carries the queue as summaries) → `stateAt`. From then on, each frame looks for queue rows: `listShownAt` when painted. Then a
 *   task clicks the second row (as an input event arriving right after the list appeared would;
 *   `firstClickDelayMs` later when given, as a person clicks) → `clickAt`, and `respondedAt`
 *   once that row is selected and its review is painted. Half a second later
 *   (a person's pace: the page has had idle time) the third row is clicked → `laterClickAt`,
 *   `laterRespondedAt` the same way.
 * - A click (the scenario's real mouse click) on the row whose preview starts with `bigPrefix` →
 *   `bigClickAt` (the pointerdown's timeStamp), `bigShownAt` when its review with the prompt is
 *   painted, `bigImageAt` when its image is decoded and painted.
 * - While `typing` is true, every keydown in a textarea is timed until a painted frame shows the
 *   textarea one character longer → `keys` (ms each); `lostKeys` counts those not shown in 5 s.
 * - `longTasks`: main-thread tasks over 50 ms (PerformanceObserver `longtask`), for profiling.
 */

/** What the probe records, as `window.__bench`. */
export interface ProbeRecord {
  bigPrefix: string;
  stateAt?: number;
  stateChars?: number;
  listShownAt?: number;
  rowsRendered?: number;
  clickAt?: number;
  respondedAt?: number;
  laterClickAt?: number;
  laterRespondedAt?: number;
  bigClickAt?: number;
  bigShownAt?: number;
  bigImageAt?: number;
  typing: boolean;
  keys: number[];
  lostKeys: number;
  longTasks: Array<{ start: number; duration: number }>;
}

/**
 * Installs the probe (runs in the page). `bigPrefix`: how the big request's prompt starts;
 * `firstClickDelayMs`: how long after the list appeared the first row is clicked (default at once).
 */
export function installProbe({ bigPrefix, firstClickDelayMs = 0 }: { bigPrefix: string; firstClickDelayMs?: number }): void {
  const b: ProbeRecord = { bigPrefix, typing: false, keys: [], lostKeys: 0, longTasks: [] };
  (window as unknown as { __bench: ProbeRecord }).__bench = b;
  // Posted from a frame's callback, the task runs once that frame was rendered. (Requesting
  // another frame here instead would time the frame after it: one frame too late.)
  const afterPaint = (cb: (t: number) => void) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => cb(performance.now());
    ch.port2.postMessage(0);
  };
  /** Calls `done` once a painted frame satisfies `ready` (checked each frame). */
  const whenPainted = (ready: () => boolean, done: (t: number) => void, giveUpAt = Infinity, onGiveUp?: () => void) => {
    const tick = () =>
      requestAnimationFrame(() => {
        if (ready()) afterPaint(done);
        else if (performance.now() > giveUpAt) onGiveUp?.();
        else tick();
      });
    tick();
  };
  const rows = () => document.querySelectorAll<HTMLElement>('[data-testid="queue-item"]');

  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long-task timing in this browser
  }

  /** After `delayMs`, clicks row `index` (or the first); `clicked` gets the click's time, `answered` the paint of its review. */
  const clickRow = (index: number, delayMs: number, clicked: (t: number) => void, answered: (t: number) => void) =>
    setTimeout(() => {
      const row = rows()[index] ?? rows()[0];
      if (!row) return;
      const id = row.dataset.itemId;
      clicked(performance.now());
      row.click();
      whenPainted(() => Boolean(document.querySelector(`[data-testid="queue-item"][data-item-id="${id}"][aria-current="true"]`) && document.querySelector('[data-testid="request-review"]')), answered);
    }, delayMs);
  const clickSecondRow = () =>
    clickRow(
      1,
      firstClickDelayMs,
      (t) => {
        b.clickAt = t;
        performance.mark('bench:click');
      },
      (t) => {
        b.respondedAt = t;
        performance.mark('bench:responded');
        clickRow(2, 500, (t2) => (b.laterClickAt = t2), (t2) => (b.laterRespondedAt = t2));
      },
    );

  const Native = window.WebSocket;
  class TimedSocket extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e: MessageEvent) => {
        if (b.stateAt !== undefined || typeof e.data !== 'string' || !e.data.startsWith('{"id":') || !e.data.includes('"settings":{"host":')) return;
        b.stateAt = performance.now();
        b.stateChars = e.data.length;
        performance.mark('bench:state'); // user-timing marks, for a Chrome trace of the run
        whenPainted(
          () => rows().length > 0,
          (t) => {
            b.listShownAt = t;
            performance.mark('bench:list');
            b.rowsRendered = rows().length;
            clickSecondRow();
          },
        );
      });
    }
  }
  window.WebSocket = TimedSocket;

  document.addEventListener(
    'pointerdown',
    (e) => {
      const row = (e.target as Element | null)?.closest?.('[data-testid="queue-item"]');
      if (!row || !row.querySelector('.queue-preview')?.textContent?.startsWith(b.bigPrefix)) return;
      b.bigClickAt = e.timeStamp;
      const review = () => document.querySelector('[data-testid="request-review"]');
      whenPainted(() => Boolean(review()?.textContent?.includes(b.bigPrefix)), (t) => (b.bigShownAt = t));
      whenPainted(
        () => {
          const img = review()?.querySelector('img');
          return Boolean(img && img.complete && img.naturalWidth > 0);
        },
        (t) => (b.bigImageAt = t),
      );
    },
    true,
  );

  document.addEventListener(
    'keydown',
    (e) => {
      if (!b.typing || !(e.target instanceof HTMLTextAreaElement) || e.key.length !== 1) return;
      const testId = e.target.dataset.testid;
      const area = () => (testId ? document.querySelector<HTMLTextAreaElement>(`textarea[data-testid="${testId}"]`) : null) ?? (e.target as HTMLTextAreaElement);
      const expected = e.target.value.length + 1;
      const t0 = e.timeStamp;
      whenPainted(
        () => area().value.length >= expected,
        (t) => b.keys.push(t - t0),
        t0 + 5_000,
        () => b.lostKeys++,
      );
    },
    true,
  );
}
