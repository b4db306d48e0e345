/**
 * Auto-approve rules end to end through the real web host, a real MCP server (test/policy's flood
 * fixture, `ask` tool) and the loopback OpenAI-compatible LLM:
 * create a rule from a request ("Always allow requests like this"), see the next similar request
 * pass without asking, see it in history with the rule named, pause auto-approval and see the next
 * one wait. Also: sensitive data is highlighted in the review and redacted with one click.
 */
import { expect, test, type Page } from '@playwright/test';
import { floodServerConfig } from '../../test/policy/flood-server.js';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

let host: WebHostProcess;
let llm: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  llm = await startOpenAICompatibleServer();
  host = await startWebHost(30_000, {
    env: { OPENAI_COMPATIBLE_BASE_URL: llm.baseURL, OPENAI_COMPATIBLE_MODEL: 'loop-small' },
    servers: { notes: floodServerConfig() },
  });
});
test.afterAll(async () => {
  await host?.stop();
  await llm?.close();
});

/** Calls the `ask` tool of the notes server from the Servers screen. */
async function ask(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: /^ask$/ }).click();
  await page.getByTestId('tool-field-prompt').fill(prompt);
  const before = await page.getByTestId('call-result').count();
  await page.getByTestId('call-tool').click();
  // The newest call is listed first; wait for it, so `.first()` below is this call, not the last one.
  await expect(page.getByTestId('call-result')).toHaveCount(before + 1);
}

test('rule from a request → next similar request passes unasked → history names the rule → paused: the next one waits', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await expect(page.getByTestId('auto-indicator')).toHaveCount(0); // no rules: nothing auto-approves

  // 1. A request arrives and waits; the person makes a rule from it.
  await ask(page, 'Summarise the meeting notes.');
  await page.getByTestId('call-result').first().getByTestId('call-sampling-link').click(); // the newest call's request
  await expect(page.getByTestId('request-review')).toBeVisible();
  await expect(page.getByTestId('redaction-panel')).toHaveCount(0);
  await page.getByTestId('allow-like-this').click();
  const editor = page.getByTestId('rule-editor');
  await expect(editor).toBeVisible();
  await expect(page.getByTestId('rule-tool-call')).toHaveValue('ask'); // prefilled from the request
  await expect(page.getByTestId('rule-max-tokens')).toHaveValue('50');
  await expect(page.getByTestId('rule-sensitive')).toHaveValue('absent');
  await page.getByTestId('rule-name').fill('Note summaries');
  await page.getByTestId('rule-action').selectOption('approve_all'); // edited before saving
  await shot(page, 'rules-editor-from-request');
  await page.getByTestId('rule-save').click();
  await expect(page.getByTestId('rule-row-0')).toContainText('Note summaries');
  await expect(page.getByTestId('rule-row-0')).toContainText('v1');
  await expect(page.getByTestId('auto-active')).toBeVisible();
  // Elicitation: rules may only ask or decline; a change raises the policy's version.
  await page.getByTestId('elicitation-action').selectOption('decline');
  await expect(page.getByTestId('elicitation-policy')).toContainText('v2');
  await shot(page, 'rules-server-policy');

  // The first request is still the person's to answer.
  await page.getByTestId('nav-queue').click();
  await page.getByTestId('reject-request').click();
  await expect(page.getByTestId('queue-badge')).toHaveCount(0);

  // 2. The next similar request passes without asking: request and response.
  const before = llm.requests.length;
  await ask(page, 'Summarise the budget notes.');
  const newest = page.getByTestId('call-result').first();
  await expect(newest).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  await expect(newest).toContainText('loop-small');
  expect(llm.requests.length).toBe(before + 1);
  await expect(page.getByTestId('queue-badge')).toHaveCount(0);
  await shot(page, 'rules-auto-approved-call');

  // 3. History says who decided: the rule, by name and version.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-item').first().getByTestId('history-rule')).toHaveText('Note summaries (v1)'); // in the list row too
  await page.getByTestId('history-item').first().click();
  await expect(page.getByTestId('history-detail')).toContainText('rule "Note summaries" (v1)');
  await shot(page, 'rules-history-rule-named');

  // 4. Pause all auto-approval: the next similar request waits for the person.
  await page.getByTestId('auto-indicator').click();
  await page.getByTestId('pause-auto').click(); // controlled: checked once main says so
  await expect(page.getByTestId('pause-auto')).toBeChecked();
  await expect(page.getByTestId('auto-paused')).toBeVisible();
  await ask(page, 'Summarise the travel notes.');
  await expect(page.getByTestId('queue-badge')).toHaveText('1', { timeout: 15_000 });
  await page.getByTestId('call-result').first().getByTestId('call-sampling-link').click(); // the newest call's request
  await expect(page.getByTestId('request-review')).toBeVisible();
  await expect(page.getByTestId('auto-paused')).toBeVisible();
  // The review says why it waits, and what it would cost (a loopback model costs nothing).
  await expect(page.getByTestId('policy-note-paused')).toContainText('Auto-approval is paused: rule "Note summaries" (v1) would have approved this request');
  await expect(page.getByTestId('policy-estimate')).toContainText(/Estimate: about \d+ tokens, at most \$0\.00/);
  await shot(page, 'rules-paused-request-waits');
  expect(llm.requests.length).toBe(before + 1);
  await page.getByTestId('reject-request').click();
});

test('sensitive data is highlighted in the review and redacted with one click', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await ask(page, 'Mail jane.doe@example.com the key AKIAIOSFODNN7EXAMPLE.');
  await page.getByTestId('call-result').first().getByTestId('call-sampling-link').click(); // the newest call's request
  const panel = page.getByTestId('redaction-panel');
  await expect(panel).toContainText('Sensitive data (2)');
  await expect(panel.locator('mark')).toHaveText(['jane.doe@example.com', 'AKIAIOSFODNN7EXAMPLE']);
  await shot(page, 'redaction-findings');
  await page.getByTestId('redact-0').click();
  await expect(panel).toContainText('Sensitive data (1)');
  await page.getByTestId('redact-all').click();
  await expect(panel).toContainText('All found items are redacted');
  await expect(page.getByTestId('message-text-0-0')).toContainText('Mail [REDACTED:email] the key [REDACTED:api_key].');
  await shot(page, 'redaction-redacted');
  await page.getByTestId('reject-request').click();
});
