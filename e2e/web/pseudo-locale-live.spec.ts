/**
 * Nothing untranslated, against the real web host: what main and shared produce for the UI (model
 * reasons, outcomes, history events, settings notes, the secret store, notices) must reach the
 * screen as message codes the renderer translates — the fake API's sweep (pseudo-locale.spec.ts)
 * cannot see it, because its fixture writes those texts itself. A live console with the embedded
 * server-everything: a tool call asks for a completion, the person approves it and writes the
 * response by hand; then History, Settings, Providers, Servers and Rules — all in the
 * pseudo-locale, where a visible run of plain English letters is either data (what the server,
 * the person or the machine wrote, read from main over the API) or text that escaped the
 * translations. Screenshots: e2e/artifacts/pseudo-live-*.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { WebSocket } from 'ws';
import type { ConsoleState, HistoryEntry, ItemView } from '../../shared/contract/state.js';
import type { HistoryListPage } from '../../shared/contract/history.js';
import type { ServerLogPage } from '../../shared/contract/servers.js';
import { PROVIDER_PRESETS } from '../../shared/contract/providers.js';
import { SECRET_KEY_FILE, SECRETS_FILE } from '../../main/secrets/file-store.js';
import { shot } from '../support/ui.js';
import { dataStrings, findUntranslated, TECHNICAL } from '../support/untranslated.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

let host: WebHostProcess;
test.beforeAll(async () => {
  test.setTimeout(60_000);
  host = await startWebHost();
});
test.afterAll(async () => host?.stop());

/** Calls `requests` over one WebSocket to the host's API (as the page does) and returns their results in order. */
async function api(url: string, requests: Array<{ method: string; input: unknown }>): Promise<unknown[]> {
  const at = new URL(url);
  const socket = new WebSocket(`ws://${at.host}/api?token=${encodeURIComponent(at.searchParams.get('token') ?? '')}`, { origin: `http://${at.host}` });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  try {
    const replies = new Map<number, unknown>();
    const all = new Promise<void>((resolve, reject) => {
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { id?: number; reply?: { ok: boolean; value?: unknown; error?: unknown } };
        if (frame.id === undefined || !frame.reply) return;
        if (!frame.reply.ok) reject(new Error(`${requests[frame.id]?.method}: ${JSON.stringify(frame.reply.error)}`));
        replies.set(frame.id, frame.reply.value);
        if (replies.size === requests.length) resolve();
      });
    });
    requests.forEach((r, id) => socket.send(JSON.stringify({ id, method: r.method, input: r.input })));
    if (requests.length > 0) await all;
    return requests.map((_, id) => replies.get(id));
  } finally {
    socket.close();
  }
}

/**
 * What the server, the person and the machine wrote, read from main: the data a screen may show as
 * it is. Only fields that hold such data are taken — never one that holds main's own words.
 */
async function liveData(url: string): Promise<string[]> {
  const [state, page] = (await api(url, [
    { method: 'getState', input: {} },
    { method: 'listHistory', input: { limit: 50 } },
  ])) as [ConsoleState, HistoryListPage];
  const entries = (await api(url, page.entries.map((e) => ({ method: 'getHistoryEntry', input: { id: e.id } })))) as HistoryEntry[];
  const items = (await api(url, state.items.map((i) => ({ method: 'getItem', input: { id: i.id } })))) as ItemView[];
  const logs = (await api(url, state.servers.map((s) => ({ method: 'getServerLog', input: { serverId: s.id } })))) as ServerLogPage[];
  const data = {
    servers: state.servers.map((s) => ({
      id: s.id,
      target: s.target,
      stderrTail: s.stderrTail,
      serverInfo: s.serverInfo,
      instructions: s.instructions,
      capabilities: s.capabilities,
      tools: s.tools,
      prompts: s.prompts,
      resources: s.resources,
      resourceTemplates: s.resourceTemplates,
    })),
    logs: logs.map((l) => ({ protocol: l.protocol, stderr: l.stderr })),
    calls: state.calls.map((c) => ({ name: c.name, kind: c.kind, arguments: c.arguments, argumentsJson: JSON.stringify(c.arguments), result: c.result, serverSaid: c.error?.message })),
    items: items.map((i) => ('original' in i ? { serverId: i.serverId, original: i.original, sent: i.sent, response: i.response, association: i.association } : { serverId: i.serverId })),
    history: entries.map((e) => ({ serverId: e.serverId, callName: e.callName, callArgs: e.callArgs, preview: e.preview, original: e.original, sent: e.sent, generated: e.generated, delivered: e.delivered, model: e.model, hashes: e.events.map((ev) => [ev.version, ev.sha256]) })),
    paths: [
      ...[state.settings.serversConfigPath, state.settings.providersConfigPath, state.settings.historyPath, state.desktop?.path, state.policy?.path],
      ...[state.settings.userDataDir, ...[SECRETS_FILE, SECRET_KEY_FILE].map((f) => path.join(state.settings.userDataDir, f))],
    ],
    gateway: { url: state.gateway?.url, openai: state.gateway?.openaiBaseUrl, anthropic: state.gateway?.anthropicBaseUrl },
    // Products' names, shown as they are in every language.
    products: PROVIDER_PRESETS.filter((p) => p.id !== 'custom').map((p) => p.label),
  };
  return [...dataStrings(data)];
}

/** Fails softly, naming the stop, on visible text that is neither translated nor data. */
async function check(page: Page, name: string): Promise<void> {
  await expect(page.getByTestId('screen-loading')).toHaveCount(0);
  const data = [...(await liveData(host.url)), ...(await page.evaluate(() => [...navigator.languages])), ...TYPED];
  const found = await page.evaluate(findUntranslated, { data, technical: TECHNICAL, strict: true });
  expect.soft(found, `${name}: text on screen that did not come through the translations`).toEqual([]);
  await shot(page, `pseudo-live-${name.replace(/[^a-z0-9]+/gi, '-')}`);
}

const PROMPT = 'Name a colour';
const ANSWER = 'Teal, from the person';
/** What the person types in this walk. */
const TYPED = [PROMPT, ANSWER];

test('the real console in the pseudo-locale: no English from main or shared on any screen', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await expect(page.getByTestId('nav-queue')).toBeVisible();
  await page.evaluate(() => (window as unknown as { __i18nPseudo(on: boolean): void }).__i18nPseudo(true));
  await expect(page.getByTestId('nav-queue')).toContainText('⟦');
  await check(page, 'queue, empty');

  // A tool call that asks for a completion, from the Servers screen.
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('tool-item').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: /^trigger-sampling-request$/ }).click();
  await check(page, 'servers, a tool');
  await page.getByTestId('tool-field-prompt').fill(PROMPT);
  await page.getByTestId('call-tool').click();
  await expect(page.getByTestId('queue-badge')).toHaveText('1', { timeout: 15_000 });
  await expect(page.getByTestId('inline-review')).toBeVisible();
  await check(page, 'servers, the call waiting on the person');

  // The request and the response, reviewed in the Queue; the response written by hand.
  await page.getByTestId('nav-queue').click();
  await page.getByTestId('queue-item').first().click();
  await expect(page.getByTestId('request-review')).toBeVisible();
  await check(page, 'request review');
  await page.getByTestId('approve-request').click();
  await expect(page.getByTestId('response-review')).toBeVisible();
  await check(page, 'response review');
  await page.getByTestId('response-editor').fill(ANSWER);
  await page.getByTestId('approve-response').click();
  await expect(page.getByTestId('outcome-banner')).toBeVisible();
  await check(page, 'delivered');

  // Its call's result, the server's tabs.
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('call-result').first()).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  await check(page, 'servers, the call done');
  for (const tab of ['prompts', 'resources', 'log'] as const) {
    await page.getByTestId(`server-tab-${tab}`).click();
    await check(page, `servers, ${tab}`);
  }
  await page.getByTestId('server-tab-tools').click();

  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-item').first().click();
  await expect(page.getByTestId('history-detail')).toBeVisible();
  await page.getByTestId('history-events').scrollIntoViewIfNeeded();
  await check(page, 'history entry');

  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-screen')).toBeVisible();
  await check(page, 'settings');
  await page.getByTestId('settings-screen').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await check(page, 'settings, the end');

  await page.getByTestId('nav-providers').click();
  await expect(page.getByTestId('providers-screen')).toBeVisible();
  await check(page, 'providers');
  await page.getByTestId('add-provider').click();
  await check(page, 'providers, the presets');
  await page.getByTestId('model-settings-item').click();
  await check(page, 'providers, model selection');

  await page.getByTestId('nav-rules').click();
  await expect(page.getByTestId('rules-screen')).toBeVisible();
  await check(page, 'rules');
  await page.getByTestId('rules-server-everything').click();
  await check(page, 'rules of the server');
});
