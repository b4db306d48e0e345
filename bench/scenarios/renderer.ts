/**
 * Renderer scale (scenario 3): the real web host (`app/web/cli.ts`, own process) with
 * 1,000 sampling requests waiting in the queue plus one holding a 1 MB text prompt and a 2 MB PNG
 * (bench/fixtures/queue-server.ts over stdio; rules that ask, limits raised), and a Chromium-family browser
 * (the one e2e/support/browser.ts finds, driven by Playwright) opening the page.
 * In-page timing: bench/renderer-probe.ts. Goals: ≤ 100 ms each (a keystroke's p50: one frame,
 * ≤ 16 ms), no dropped keystrokes.
 *
 * 1. Queue interactive: the state (the `getState` reply: item summaries, no params) arrived → the
 *    list painted → a click on a row answered (row selected, its whole item fetched and its review
 *    painted).
 * 2. Big request: a real mouse click on its row → its review painted (and its image decoded).
 * 3. Typing: the Edit toggle of the 1 MB prompt, caret to the end, 0.5 s, then `BENCH_RENDERER_KEYS`
 *    (default 60) characters typed at 20 per second; per keystroke, keydown → a painted frame
 *    showing it (p50 / p95 / max). Dropped: characters missing from the editor, and from the
 *    request main receives when the draft is approved. Floor: the same keystrokes, timed the same
 *    way, in a bare textarea of an otherwise empty page in the same browser.
 * 4. Paced first review: the page opened once more, its first row clicked 300 ms after the list
 *    appeared (a quick person; the warm-up has had its idle time) → that review painted.
 *
 * `BENCH_RENDERER_PROFILE=<folder>` writes the page's CPU profile of each phase there
 * (`open.cpuprofile`, `big.cpuprofile`, `typing.cpuprofile`; Chrome DevTools' Performance panel
 * or any `.cpuprofile` reader opens them).
 *
 * The renderer: `MCP_CONSOLE_STATIC_DIR`, else `out/renderer` when up to date, else a fresh
 * `vite build` into a temp folder (see renderer-rig.ts). Sanity checks (throw): every request in
 * the queue, rows rendered, every keystroke timed or counted lost. Times never fail the scenario.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { ConsoleApi } from '../../shared/contract/api.js';
import { CHROMIUM_ARGS, findBrowser, thisMachine } from '../../e2e/support/browser.js';
import { BIG_PROMPT_START, queueServerConfig } from '../fixtures/queue-server.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { installProbe, type ProbeRecord } from '../renderer-probe.js';
import { rendererBuild, startBenchWebHost, waitFor } from '../renderer-rig.js';
import { loadNote } from '../sampling-rig.js';

const WAITING = Number(process.env.BENCH_RENDERER_WAITING ?? 1_000);
const TEXT_BYTES = 1_048_576;
const IMAGE_BYTES = 2_097_152;
const KEYS = Number(process.env.BENCH_RENDERER_KEYS ?? 60);
const PROFILE_DIR = process.env.BENCH_RENDERER_PROFILE;
const KEY_DELAY_MS = 50;
const PAUSE_BEFORE_TYPING_MS = 500;
const LIMITS = { requestsPerMinute: 100_000, maxWaiting: 100_000 };

/** The text typed: distinct, checkable characters. */
const typed = Array.from({ length: KEYS }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[i % 26]).join('');

type BenchWindow = Window & { __bench: ProbeRecord };

/** The page's CPU profiler of {@link pageProfiler}. */
type Profiler = Awaited<ReturnType<typeof pageProfiler>>;

/** A page with the probe installed: reading what it recorded, waiting on it, profiling a phase. */
interface ProbedPage {
  page: Page;
  bench(): Promise<ProbeRecord>;
  /** Waits for a probe condition; on timeout, saves a screenshot and reports what the probe saw. */
  until(what: string, keys: Array<keyof ProbeRecord>, count?: number): Promise<void>;
  profile: Profiler;
}

/**
 * Fills the queue: the big request first (so it is the first row), then `WAITING` more.
 * @throws Error when the queue does not hold them all
 */
async function fillQueue(api: ConsoleApi): Promise<{ bigId: string; waiting: number }> {
  await waitFor('the queue server', async () => ((await api.getState({})).servers.find((s) => s.id === 'queue')?.status === 'ready' ? true : undefined), 120_000);
  // The big request first, so it is the first row of the queue.
  await api.callTool({ serverId: 'queue', name: 'big', arguments: { textBytes: TEXT_BYTES, imageBytes: IMAGE_BYTES } });
  const bigId = await waitFor('the big request', async () => (await api.getState({})).items.find((i) => i.status === 'awaiting_request_review')?.id, 120_000);
  await api.callTool({ serverId: 'queue', name: 'flood', arguments: { count: WAITING } });
  const waiting = await waitFor(
    `${WAITING + 1} waiting requests`,
    async () => {
      const n = (await api.getState({})).items.filter((i) => i.status === 'awaiting_request_review').length;
      return n >= WAITING + 1 ? n : undefined;
    },
    300_000,
    1_000,
  );
  if (waiting !== WAITING + 1) throw new Error(`the queue holds ${waiting} waiting requests, expected ${WAITING + 1}`);
  return { bigId, waiting };
}

/** A new page of `browser` with the probe installed (not navigated yet); its first row is clicked `firstClickDelayMs` after the list appeared. */
async function probedPage(browser: Browser, firstClickDelayMs = 0): Promise<ProbedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // tsx compiles this file with esbuild's keepNames, which puts `__name(…)` calls inside the
  // functions Playwright serialises into the page: define it there.
  await page.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  await page.addInitScript(installProbe, { bigPrefix: BIG_PROMPT_START, firstClickDelayMs });
  const bench = () => page.evaluate(() => (window as unknown as BenchWindow).__bench);
  const until = async (what: string, keys: Array<keyof ProbeRecord>, count = 0) => {
    try {
      // A function, not a string: the page's CSP forbids eval.
      await page.waitForFunction(
        ([names, n]) => {
          const b = (window as unknown as BenchWindow).__bench;
          return n > 0 ? b.keys.length + b.lostKeys >= n : names.every((k) => b[k] !== undefined);
        },
        [keys, count] as const,
        { timeout: 120_000 },
      );
    } catch (err) {
      const shot = path.join(os.tmpdir(), `bench-renderer-${what.replace(/\W+/g, '-')}.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      const seen = await bench().catch(() => undefined);
      throw new Error(`${what}: ${(err as Error).message.split('\n')[0]}; screenshot ${shot}; probe ${JSON.stringify({ ...seen, longTasks: seen?.longTasks.length })}`, { cause: err });
    }
  };
  const profile = await pageProfiler(page);
  return { page, bench, until, profile };
}

/** Opens the console at `url` and times it until a click on a row was answered. @throws Error when no row rendered */
async function openQueue({ page, bench, until, profile }: ProbedPage, url: string): Promise<ProbeRecord> {
  await profile.start();
  await page.goto(url);
  await until('queue interactive', ['respondedAt', 'laterRespondedAt']);
  await profile.stop('open');
  const opened = await bench();
  if (!opened.rowsRendered) throw new Error('the queue list rendered no rows');
  return opened;
}

/** How long after the list appeared the paced opening clicks its first row (ms): a quick person. */
const PACED_CLICK_MS = 300;

/** Opens the page once more and clicks its first row {@link PACED_CLICK_MS} after the list appeared; what the probe saw. */
async function openPaced(browser: Browser, url: string): Promise<ProbeRecord> {
  const probed = await probedPage(browser, PACED_CLICK_MS);
  try {
    await probed.page.goto(url);
    await probed.until('paced first review', ['respondedAt']);
    return await probed.bench();
  } finally {
    await probed.page.close();
  }
}

/** Clicks the big request's row and times its review and image. */
async function openBigReview({ page, bench, until, profile }: ProbedPage, bigId: string): Promise<ProbeRecord> {
  await profile.start();
  await page.click(`[data-testid="queue-item"][data-item-id="${bigId}"]`);
  await until('big review', ['bigImageAt', 'bigShownAt']);
  await profile.stop('big');
  return await bench();
}

/** Types {@link typed} at the end of the big prompt's editor: what the probe timed, and how many characters the editor kept. */
async function typeInEditor({ page, bench, until, profile }: ProbedPage): Promise<{ typedRecord: ProbeRecord; inEditor: number }> {
  await page.click('[data-testid="message-edit-0-0"]', { timeout: 60_000 });
  // The editor: one textarea, or for a long text a container of parts (renderer/components/PartsEditor.tsx).
  const container = page.locator('[data-testid="message-editor-0-0"]');
  await container.waitFor({ timeout: 60_000 });
  const editor = (await container.evaluate((el) => el.tagName === 'TEXTAREA')) ? container : container.locator('textarea').last();
  const editorText = () =>
    container.evaluate((el) => (el instanceof HTMLTextAreaElement ? el.value : [...el.querySelectorAll('textarea')].map((a) => a.value).join('')));
  await editor.focus();
  await page.keyboard.press('Control+End');
  const before = (await editorText()).length;
  // A person starts typing a moment after putting the caret there; the first keystroke's
  // figure is still in `max` if opening the editor left work behind.
  await page.waitForTimeout(PAUSE_BEFORE_TYPING_MS);
  await page.evaluate(() => ((window as unknown as BenchWindow).__bench.typing = true));
  await profile.start();
  await page.keyboard.type(typed, { delay: KEY_DELAY_MS });
  await until('typing', [], KEYS);
  await profile.stop('typing');
  const typedRecord = await bench();
  const value = await editorText();
  const inEditor = value.length - before === KEYS && value.endsWith(typed) ? KEYS : countKept(value.slice(before), typed);
  return { typedRecord, inEditor };
}

/** Approves the big request and counts the typed characters in the request main received. */
async function approveAndCountKept(page: Page, api: ConsoleApi, bigId: string): Promise<number> {
  await page.click('[data-testid="approve-request"]', { timeout: 60_000 });
  const sentText = await waitFor(
    'the approved request in main',
    async () => {
      const { item } = await api.getItem({ id: bigId });
      const blocks = item.kind !== 'elicitation' ? item.sent?.messages[0]?.content : undefined;
      const first = Array.isArray(blocks) ? blocks[0] : blocks;
      return first && first.type === 'text' ? first.text : undefined;
    },
    120_000,
    500,
  );
  return sentText.length - TEXT_BYTES === KEYS && sentText.endsWith(typed) ? KEYS : countKept(sentText.slice(TEXT_BYTES), typed);
}

/** What the phases measured, as the scenario's figures. */
interface Measured {
  waiting: number;
  opened: ProbeRecord;
  selected: ProbeRecord;
  /** A second opening of the page whose first row is clicked at a person's pace ({@link PACED_CLICK_MS}). */
  paced: ProbeRecord;
  typedRecord: ProbeRecord;
  inEditor: number;
  inDraft: number;
  floorKeys: number[];
  rendererSource: string;
}

/** The scenario's figures from what the phases measured. */
function rendererFigures({ waiting, opened, paced, selected, typedRecord, inEditor, inDraft, floorKeys, rendererSource }: Measured): Figure[] {
  const keys = typedRecord.keys;
  const longest = Math.max(0, ...typedRecord.longTasks.map((t) => t.duration));
  const at = (v: number | undefined, from: number | undefined) => (v === undefined || from === undefined ? Number.NaN : v - from);
  return [
    { id: 'p3.queue_list_ms_1001', name: 'queue list painted after the state arrived', value: at(opened.listShownAt, opened.stateAt), unit: 'ms', note: `${waiting.toLocaleString('en-US')} waiting, state ${((opened.stateChars ?? 0) / 2 ** 20).toFixed(1)} MB, ${opened.rowsRendered} rows in the DOM` },
    { id: 'p3.state_bytes_1001', name: 'state message on opening the page', value: (opened.stateChars ?? 0) / 1024, unit: 'KB', target: { op: '<=', value: 500 }, note: 'characters of the first state message (≈ bytes)' },
    { id: 'p3.queue_interactive_ms_1001', name: 'queue interactive (state → list → click answered)', value: at(opened.respondedAt, opened.stateAt), unit: 'ms', target: { op: '<=', value: 100 } },
    { id: 'p3.row_review_ms', name: 'review of another row painted after its click', value: at(opened.laterRespondedAt, opened.laterClickAt), unit: 'ms', note: 'clicked 0.5 s after the first click was answered: the idle warm-up has run, as it has before a person clicks' },
    { id: 'p3.first_review_paced_ms', name: `first review painted after its click, clicked ${PACED_CLICK_MS} ms after the list appeared`, value: at(paced.respondedAt, paced.clickAt), unit: 'ms', note: "a person's pace, on a second opening of the page: what the warm-up leaves of the first review's cold code" },
    { id: 'p3.page_interactive_ms_1001', name: 'queue interactive from navigation start (page load → list → click answered)', value: opened.respondedAt ?? Number.NaN, unit: 'ms', note: 'what the person waits for on opening the page; includes loading the renderer' },
    { id: 'p3.big_review_open_ms', name: 'big request review shown after the click', value: at(selected.bigShownAt, selected.bigClickAt), unit: 'ms', target: { op: '<=', value: 100 }, note: '1 MB prompt + 2 MB PNG' },
    { id: 'p3.big_image_ms', name: 'big request image decoded and shown', value: at(selected.bigImageAt, selected.bigClickAt), unit: 'ms' },
    { id: 'p3.keystroke_p50_ms', name: 'keystroke to paint p50', value: percentile(keys, 50), unit: 'ms', peer: 'p3.keystroke_floor_p50_ms', target: { op: '<=', value: 16 }, note: `one frame; ${keys.length} keys at ${1000 / KEY_DELAY_MS}/s at the end of the 1 MB prompt` },
    { id: 'p3.keystroke_floor_p50_ms', name: 'keystroke to paint p50 in a bare textarea (floor)', value: percentile(floorKeys, 50), unit: 'ms', note: 'the browser alone, same probe' },
    { id: 'p3.keystroke_p95_ms', name: 'keystroke to paint p95', value: percentile(keys, 95), unit: 'ms', target: { op: '<=', value: 100 } },
    { id: 'p3.keystroke_max_ms', name: 'keystroke to paint max', value: Math.max(...keys), unit: 'ms' },
    { id: 'p3.dropped_keys', name: 'dropped keystrokes (editor / approved draft)', value: Math.max(KEYS - inEditor, KEYS - inDraft), unit: 'keys', target: { op: '<=', value: 0 }, note: `${KEYS - inEditor} / ${KEYS - inDraft} of ${KEYS}` },
    { id: 'p3.longest_task_ms', name: 'longest main-thread task', value: longest, unit: 'ms', note: `${rendererSource}, ${loadNote()}` },
  ];
}

const scenario: Scenario = {
  name: 'renderer',
  description: `web host + Chromium: ${WAITING.toLocaleString('en-US')} waiting requests and one with a 1 MB prompt + 2 MB image; queue interactive, big review shown, keystroke-to-paint`,
  async run() {
    const renderer = rendererBuild();
    const host = await startBenchWebHost(renderer.dir, {
      'mcp-servers.json': { mcpServers: { queue: queueServerConfig() } },
      'rules.json': { version: 1, global: LIMITS, servers: { queue: { limits: LIMITS, rules: [] } } },
    });
    const browser = await chromium.launch({ executablePath: findBrowser(thisMachine(() => chromium.executablePath())).path, args: CHROMIUM_ARGS });
    try {
      const { api } = host;
      const { bigId, waiting } = await fillQueue(api);
      const probed = await probedPage(browser);
      const opened = await openQueue(probed, host.url);
      const selected = await openBigReview(probed, bigId);
      const { typedRecord, inEditor } = await typeInEditor(probed);
      const inDraft = await approveAndCountKept(probed.page, api, bigId);
      const floorKeys = await keystrokeFloor(browser);
      const paced = await openPaced(browser, host.url);
      const figures = rendererFigures({ waiting, opened, paced, selected, typedRecord, inEditor, inDraft, floorKeys, rendererSource: renderer.source });
      if (typedRecord.keys.length + typedRecord.lostKeys !== KEYS) throw new Error(`timed ${typedRecord.keys.length} keystrokes and lost ${typedRecord.lostKeys}, typed ${KEYS}`);
      return figures;
    } finally {
      await browser.close();
      await host.stop();
      renderer.cleanup();
    }
  },
};

/** Keydown-to-paint times (ms) of the typed text in a bare textarea, with the same probe and pace. */
async function keystrokeFloor(browser: Browser): Promise<number[]> {
  const page = await browser.newPage();
  try {
    await page.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
    await page.addInitScript(installProbe, { bigPrefix: BIG_PROMPT_START });
    await page.route('http://floor.invalid/', (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><textarea></textarea>' }));
    await page.goto('http://floor.invalid/');
    await page.focus('textarea');
    await page.waitForTimeout(PAUSE_BEFORE_TYPING_MS);
    await page.evaluate(() => ((window as unknown as BenchWindow).__bench.typing = true));
    await page.keyboard.type(typed, { delay: KEY_DELAY_MS });
    await page.waitForFunction((n) => (window as unknown as BenchWindow).__bench.keys.length + (window as unknown as BenchWindow).__bench.lostKeys >= n, KEYS);
    return await page.evaluate(() => (window as unknown as BenchWindow).__bench.keys);
  } finally {
    await page.close();
  }
}

/** The page's CPU profiler (Chrome DevTools protocol) when `BENCH_RENDERER_PROFILE` names a folder; else no-ops. */
async function pageProfiler(page: Page): Promise<{ start(): Promise<void>; stop(phase: string): Promise<void> }> {
  if (!PROFILE_DIR) return { start: async () => undefined, stop: async () => undefined };
  mkdirSync(PROFILE_DIR, { recursive: true });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); // µs
  return {
    start: async () => void (await cdp.send('Profiler.start')),
    async stop(phase) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(path.join(PROFILE_DIR, `${phase}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

/** How many characters of `expected` appear, in order, in `actual` (a lower bound on what was kept). */
function countKept(actual: string, expected: string): number {
  let j = 0;
  for (const c of actual) if (c === expected[j]) j++;
  return j;
}

export default scenario;
