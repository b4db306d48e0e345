/**
 * Languages, against the fake API: the Language setting in Settings goes to main
 * (`setDesktopSettings({ language })`) and, once main's mirrored settings say so, the whole UI is
 * in Simplified Chinese with `<html lang="zh-CN">`; a console whose desktop settings say 'zh-CN'
 * shows the queue and its review screens in Chinese (screenshots e2e/artifacts/lang-zh-*.png);
 * 'system' follows the browser's locale (Playwright `locale`). Every screen is visited in both
 * languages and no key is asked for that the locales lack (`window.__i18nMissing()`).
 */
import type { Page } from '@playwright/test';
import type { ConsoleEvent } from '../../shared/contract/api.js';
import type { LanguagePreference } from '../../shared/contract/desktop.js';
import type { ConsoleState } from '../../shared/contract/state.js';
import type { WholeSliceKey } from '../../shared/contract/state-patch.js';
import type { FakeData } from '../support/fake-api.js';
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import { walkPolicy } from '../support/walk.js';
import { emit, expect, expectNoHorizontalOverflow, recorded, shot, test } from '../support/ui.js';
import { desktopView, openWithDesktop, withDesktop } from './settings-fixture.js';

const patch = (version: number, slices: Partial<Pick<ConsoleState, WholeSliceKey>>): ConsoleEvent => ({ type: 'patch', patch: { version, ...slices } });

async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __i18nMissing(): string[] }).__i18nMissing());
}


/** Opens the console with desktop language `language`, the elicitation fixtures in the queue and a rules policy. */
async function open(page: Page, appUrl: string, fixture: FakeData, language: LanguagePreference): Promise<void> {
  fixture.state.elicitations = buildElicitationItems(Date.now());
  await openWithDesktop(page, appUrl, { ...fixture, state: withDesktop({ ...fixture.state, policy: walkPolicy() }, { language }) });
}

const NAV = {
  en: { queue: 'Queue', servers: 'Servers', providers: 'Providers', history: 'History', rules: 'Rules', settings: 'Settings' },
  'zh-CN': { queue: '队列', servers: '服务器', providers: '模型提供方', history: '历史记录', rules: '规则', settings: '设置' },
} as const;

/**
 * Every screen, and every kind of queue item (request, tools, generating, response, manual,
 * finished, elicitation form and URL), each checked for its nav label; screenshots when `prefix`.
 */
async function visitEverything(page: Page, lang: keyof typeof NAV, prefix?: string): Promise<void> {
  for (const [screen, label] of Object.entries(NAV[lang])) await expect(page.getByTestId(`nav-${screen}`)).toContainText(label);
  const queueItems = ['item-request', 'item-request-2', 'item-generating', 'item-response', 'item-manual', 'item-delivered', 'item-rejected', 'elic-form', 'elic-secret'];
  for (const id of queueItems) {
    const row = page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);
    if ((await row.count()) === 0) continue;
    await row.click();
    await expect(page.getByTestId('item-header')).toBeVisible();
  }
  for (const screen of ['servers', 'providers', 'history', 'rules', 'settings'] as const) {
    await page.getByTestId(`nav-${screen}`).click();
    await expect(page.getByTestId(`${screen}-screen`)).toBeVisible();
    if (screen === 'servers') await page.getByTestId('tool-item').first().click();
    if (screen === 'history') await page.getByTestId('history-item').first().click();
    if (prefix) await shot(page, `${prefix}-${screen}`);
  }
  await page.getByTestId('nav-queue').click();
  expect(await missingKeys(page)).toEqual([]);
}

test.describe('English browser', () => {
  test.use({ locale: 'en-US' });

  test('switching to 简体中文 in Settings: the choice goes to main; main\'s answer puts the UI in Chinese', async ({ page, appUrl, fixture }) => {
    await open(page, appUrl, fixture, 'system');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByTestId('nav-settings').click();
    const language = page.getByTestId('settings-language');
    await expect(language.locator('legend')).toHaveText('Language');
    // Each language is named in its own language; "system" says what it resolved to.
    await expect(language.locator('label')).toHaveText(['Follow the system', 'English', '简体中文']);
    await expect(page.getByTestId('language-system')).toBeChecked();
    await expect(page.getByTestId('language-effective')).toHaveText("In use now: English (the system's locale is en-US).");

    await page.getByTestId('language-zh-CN').click();
    await expect.poll(() => recorded(page, 'setDesktopSettings')).toEqual([{ language: 'zh-CN' }]);
    // Until main says so, nothing changes (what shows is what main saved).
    await expect(page.getByTestId('language-system')).toBeChecked();
    await expect(page.getByTestId('nav-settings')).toHaveText('Settings');

    const state = withDesktop(fixture.state);
    await emit(page, patch(state.version + 1, { desktop: desktopView({ language: 'zh-CN' }) }));
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('language-zh-CN')).toBeChecked();
    for (const [screen, label] of Object.entries(NAV['zh-CN'])) await expect(page.getByTestId(`nav-${screen}`)).toContainText(label);
    const settings = page.getByTestId('settings-screen');
    await expect(settings.getByRole('heading', { level: 2 })).toHaveText('设置');
    await expect(page.getByTestId('settings-appearance').getByRole('heading')).toHaveText('外观');
    await expect(language.locator('legend')).toHaveText('语言');
    await expect(language.locator('label')).toHaveText(['跟随系统', 'English', '简体中文']);
    await expect(page.getByTestId('language-effective')).toHaveText('当前使用：简体中文。');
    await expect(page.getByTestId('theme-effective')).toHaveText(/^当前使用：(浅色|深色)（系统为(浅色|深色)）。$/);
    await expect(page.getByTestId('settings-attention')).toContainText('有请求需要审核时通知我');
    await expect(page.getByTestId('test-notification')).toHaveText('发送测试通知');
    await shot(page, 'lang-zh-settings');
    await page.setViewportSize({ width: 900, height: 600 });
    await expectNoHorizontalOverflow(page);
    await shot(page, 'lang-zh-900x600-settings');

    // And back: English again, live.
    await emit(page, patch(state.version + 2, { desktop: desktopView({ language: 'en' }) }));
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByTestId('nav-settings')).toHaveText('Settings');
    await expect(page.getByTestId('language-effective')).toHaveText('In use now: English.');
    expect(await missingKeys(page)).toEqual([]);
  });

  test('every screen in English asks for no missing key', async ({ page, appUrl, fixture }) => {
    await open(page, appUrl, fixture, 'en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await visitEverything(page, 'en');
  });
});

test('language zh-CN: the queue with a sampling request under review, in Chinese', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, appUrl, fixture, 'zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const queue = page.getByTestId('queue-screen');
  await expect(queue.locator('.pane-title').getByRole('heading', { level: 2 })).toHaveText('队列');
  await expect(queue).toContainText(/(?<!\d)\d+ 个待处理 · 共 \d+ 个/);
  // The first request waiting opened by itself, and says so.
  await expect(page.getByTestId('opened-for-you')).toContainText('已为你打开：');
  await expect(page.locator('[data-item-id="item-request"]')).toContainText('待审核请求');

  await page.locator('[data-item-id="item-request"]').click();
  const review = page.getByTestId('request-review');
  await expect(review.getByRole('heading', { level: 2 })).toHaveText('审核请求');
  await expect(review.getByTestId('item-header')).toContainText('服务器');
  await expect(review.getByTestId('item-association')).toContainText('所属调用 tools/call trigger-sampling-request');
  await expect(review.getByTestId('item-waited')).toContainText(/已等待 1 分 \d\d 秒/);
  await expect(review.getByRole('heading', { name: /^消息（\d+）$/ })).toBeVisible();
  await expect(review.getByRole('heading', { name: '参数' })).toBeVisible();
  await expect(review.locator('label[for="system-prompt"]')).toContainText('系统提示词');
  await expect(review.locator('label[for="max-tokens"]')).toHaveText('最大 token 数');
  await expect(review.getByRole('img', { name: '图片（image/png）' })).toBeVisible();
  await expect(page.getByTestId('reject-request')).toHaveText('拒绝');
  await expect(page.getByTestId('approve-request')).toHaveText('批准');
  await expect(page.getByTestId('reject-reason')).toHaveAttribute('placeholder', '原因（可选）');
  // What main worded arrives as a message code: the model's reason and the notice are in Chinese too.
  await expect(page.getByTestId('model-reason')).toContainText('提示“gpt-4o”匹配到“openai/gpt-4o-mini”');
  await expect(page.getByTestId('notices')).toContainText('最后一份有效配置继续生效');
  await shot(page, 'lang-zh-queue-request');
  // An edit shows as such, in Chinese.
  await page.getByTestId('max-tokens').fill('250');
  await expect(page.getByTestId('approve-request')).toHaveText('批准（含修改）');
  await page.getByTestId('max-tokens').fill('0');
  await expect(page.getByTestId('request-invalid')).toContainText('暂时无法批准');
  await expect(page.getByTestId('request-invalid')).toContainText('最大 token 数必须是正整数。');
  await page.getByTestId('max-tokens').fill('400');

  await page.locator('[data-item-id="item-response"]').click();
  await expect(page.getByTestId('response-review').getByRole('heading', { level: 2 })).toHaveText('审核响应');
  await expect(page.getByTestId('approve-response')).toHaveText('批准并发送');
  await shot(page, 'lang-zh-queue-response');

  // A provider failure: its headline in Chinese, the provider's own words as they came.
  await page.locator('[data-item-id="item-request-2"]').click();
  await expect(page.getByTestId('provider-failure')).toHaveText('模型提供方正在限流：稍等片刻后重试。');
  await expect(page.getByTestId('item-error')).toContainText('HTTP 429 Too Many Requests');

  await page.locator('[data-item-id="item-rejected"]').click();
  await expect(page.getByTestId('outcome-banner')).toContainText('已被你拒绝：not relevant');

  await page.locator('[data-item-id="elic-form"]').click();
  const elicitation = page.getByTestId('elicitation-review');
  await expect(elicitation.getByRole('heading', { level: 2 })).toContainText('向你索取信息');
  await expect(elicitation.getByTestId('elicitation-status')).toHaveText('等待你的答复');
  await expect(page.getByTestId('elicitation-accept')).toHaveText('接受并发送');
  await shot(page, 'lang-zh-queue-elicitation');

  await page.setViewportSize({ width: 900, height: 600 });
  await page.locator('[data-item-id="item-request"]').click();
  await expectNoHorizontalOverflow(page);
  await shot(page, 'lang-zh-900x600-queue-request');
  expect(await missingKeys(page)).toEqual([]);
});

test('every screen in Chinese asks for no missing key (screenshots lang-zh-<screen>)', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, appUrl, fixture, 'zh-CN');
  await visitEverything(page, 'zh-CN', 'lang-zh');
});

test.describe('Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('language "system" follows the browser locale zh-CN', async ({ page, appUrl, fixture }) => {
    await open(page, appUrl, fixture, 'system');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('nav-queue')).toContainText('队列');
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('language-system')).toBeChecked();
    await expect(page.getByTestId('language-effective')).toHaveText('当前使用：简体中文（系统区域设置为 zh-CN）。');
    // The person's choice wins over the system.
    const state = withDesktop(fixture.state);
    await emit(page, patch(state.version + 1, { desktop: desktopView({ language: 'en' }) }));
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByTestId('nav-queue')).toContainText('Queue');
    expect(await missingKeys(page)).toEqual([]);
  });
});
