/**
 * Languages on the Providers and History screens: with desktop settings language
 * 'zh-CN' (fake API), the Providers screen (list, editor, model facts, a new provider's blocking
 * problems, the model-selection panel) and the History screen (list, filters, counters, retention
 * and an opened session with timeline, diffs, media and timings) render in Simplified Chinese, no
 * key is asked for that no language has (`window.__i18nMissing()`), and both fit 900×600.
 * Screenshots land in e2e/artifacts/zh-*.png.
 */
import type { Page } from '@playwright/test';
import { defaultModelFacts, DEFAULT_FAMILY_RULES } from '../../shared/contract/providers.js';
import type { ProviderView } from '../../shared/contract/state.js';
import type { FixtureState } from '../support/fixture-state.js';
import { buildLiveHistory } from '../support/fixture-history.js';
import { expect, expectNoHorizontalOverflow, shot, test } from '../support/ui.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

const providers: ProviderView[] = [
  { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false },
  {
    id: 'anthropic',
    kind: 'anthropic',
    label: 'Anthropic',
    baseURL: 'https://api.anthropic.com/v1',
    models: ['claude-sonnet-4-5'],
    hasApiKey: true,
    apiKeyHint: '…9f8e',
    source: 'console',
    preset: 'anthropic',
    modelFacts: { 'claude-sonnet-4-5': defaultModelFacts('anthropic', 'claude-sonnet-4-5') },
    customFacts: [],
  },
  {
    id: 'ollama',
    kind: 'openai-compatible',
    label: 'Ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    models: ['llama3.2'],
    hasApiKey: false,
    source: 'console',
    preset: 'ollama',
    modelFacts: { 'llama3.2': { ...defaultModelFacts('openai-compatible', 'llama3.2'), tools: 'prompt' } },
    customFacts: ['llama3.2'],
  },
];

function chinese(state: FixtureState): FixtureState {
  return withDesktop(
    {
      ...state,
      providers,
      modelSettings: { families: [...DEFAULT_FAMILY_RULES], servers: {}, defaultModel: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5' } },
      settings: { ...state.settings, secretStore: { backend: 'Electron safeStorage (basic_text)', warning: 'Electron safeStorage is using its "basic_text" backend on Linux: no keyring was found.' } },
    },
    { language: 'zh-CN' },
  );
}

async function noMissingKeys(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __i18nMissing(): string[] }).__i18nMissing())).toEqual([]);
}

/** Fits 900×600 without sideways scrolling; screenshot `zh-900x600-<name>`; back to 1280×800. */
async function smallWindow(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 900, height: 600 });
  await expectNoHorizontalOverflow(page);
  await shot(page, `zh-900x600-${name}`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('Providers screen in Simplified Chinese: list, editor, model facts, problems and model selection', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openWithDesktop(page, appUrl, { ...fixture, state: chinese(fixture.state) });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.getByTestId('nav-providers').click();
  const screen = page.getByTestId('providers-screen');
  await expect(screen.getByRole('heading', { level: 2 }).first()).toHaveText('模型提供方');
  await expect(page.getByTestId('secret-store-warning')).toContainText('API key 的存储方式不够安全');
  await expect(page.getByTestId('provider-item').filter({ hasText: 'Anthropic' })).toContainText('已存储密钥');
  await expect(page.getByTestId('provider-item').filter({ hasText: 'Anthropic' })).toContainText('anthropic · 1 个模型');
  const editor = page.getByTestId('provider-editor');
  await expect(editor.getByTestId('provider-key-stored')).toContainText('已存储 …9f8e');
  await expect(editor.getByTestId('provider-test')).toHaveText('测试连接');
  await expect(editor.getByTestId('provider-save')).toHaveText('保存');
  await expect(editor.getByTestId('model-facts').locator('th')).toContainText(['模型', '上下文窗口', '成本', '速度', '能力', '工具调用']);
  await shot(page, 'zh-providers');
  await smallWindow(page, 'providers');

  await page.getByTestId('provider-item').filter({ hasText: 'Ollama' }).click();
  const ollama = page.getByTestId('provider-editor');
  const row = ollama.locator('[data-testid="model-facts-row"][data-model="llama3.2"]');
  await expect(row).toContainText('自定义');
  await expect(row.getByTestId('fact-tools').locator('option:checked')).toHaveText('基于提示词');
  await ollama.getByTestId('provider-test').click();
  await expect(ollama.getByTestId('provider-test-result')).toContainText('连接正常');

  // A new custom provider: its name is worded in Chinese; without a base URL it cannot be saved, and says why.
  await page.getByTestId('add-provider').click();
  await page.getByTestId('provider-preset-custom').click();
  const fresh = page.getByTestId('provider-editor');
  await expect(fresh.getByRole('heading', { level: 2 })).toHaveText('添加提供方：OpenAI 兼容（自定义 URL）');
  await expect(page.getByTestId('provider-problems')).toContainText('暂时无法保存');
  await expect(page.getByTestId('provider-problems')).toContainText('请输入 Base URL');
  await fresh.getByTestId('provider-base-url').fill('ftp://example');
  await expect(page.getByTestId('provider-problems')).toContainText('Base URL 必须以 http:// 或 https:// 开头。');
  await shot(page, 'zh-providers-new');

  await page.getByTestId('model-settings-item').click();
  const panel = page.getByTestId('model-settings');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('模型选择');
  await expect(panel).toContainText('模型族表');
  await expect(panel.getByRole('button', { name: '添加行' })).toBeVisible();
  await expect(panel.getByLabel('第 1 行匹配模式')).toBeVisible();
  await expect(panel.getByTestId('default-model').locator('option:checked')).toHaveText('Anthropic — claude-sonnet-4-5');
  await expect(panel.getByTestId('default-model').locator('option', { hasText: '自己撰写响应' })).toHaveCount(1);
  await expect(panel.getByTestId('model-settings-save')).toHaveText('保存模型选择');
  await shot(page, 'zh-providers-model-selection');
  await smallWindow(page, 'providers-model-selection');
  await noMissingKeys(page);
});

test('History screen in Simplified Chinese: list, filters, counters, retention and an opened session', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const history = [...fixture.history, ...buildLiveHistory(Date.now(), 0)];
  await openWithDesktop(page, appUrl, { state: chinese(fixture.state), history });
  await page.getByTestId('nav-history').click();
  const screen = page.getByTestId('history-screen');
  await expect(screen.getByRole('heading', { level: 2, name: '历史记录' })).toBeVisible();
  await expect(page.getByTestId('history-total')).toHaveText(`共 ${history.length} 条`);
  await expect(page.getByTestId('history-search')).toHaveAttribute('placeholder', '搜索提示词、系统提示词和响应');
  await expect(page.getByTestId('history-selection')).toHaveText('勾选行以选择其所在会话。');
  await expect(page.getByTestId('history-export-filtered')).toHaveText(`导出当前显示的全部（${history.length}）`);
  await expect(screen.getByText('选择一条记录，查看请求内容、修改之处和实际发送的内容。')).toBeVisible();

  // Filters, counters and retention.
  await page.getByTestId('history-filters-toggle').click();
  await expect(page.getByTestId('history-filters-toggle')).toHaveText('筛选');
  await expect(page.getByTestId('history-filter-status').locator('option')).toContainText(['全部', '待审核请求', '生成中', '待审核响应', '已送达', '已拒绝']);
  await expect(page.getByTestId('history-filter-decidedBy').locator('option')).toHaveText(['全部', '人工', '规则', '控制台']);
  await page.getByTestId('history-filter-status').selectOption('rejected');
  await expect(page.getByTestId('history-filters-toggle')).toHaveText('筛选（1）');
  await expect(page.getByTestId('history-total')).toHaveText(/^找到 \d+ 条$/);
  await page.getByTestId('history-filters-clear').click();
  await page.getByTestId('history-stats').locator('summary').click();
  await expect(page.getByTestId('history-stats').locator('summary')).toHaveText('按服务器统计');
  await expect(page.getByTestId('history-period').locator('option:checked')).toHaveText('最近 7 天');
  await page.getByTestId('history-period').selectOption('all');
  await expect(page.getByTestId('history-stats').locator('thead th')).toHaveText(['服务器', '请求数', '已批准', '已拒绝', '自动', 'token 数', '费用']);
  await page.getByTestId('history-retention').locator('summary').click();
  await expect(page.getByTestId('history-retention').locator('summary')).toHaveText('保留策略：全部保留');
  await page.getByTestId('history-retention-days').fill('0');
  await page.getByTestId('history-retention-save').click();
  await expect(page.getByTestId('history-retention')).toContainText('天数必须是不小于 1 的整数，留空表示不限。');
  await shot(page, 'zh-history-list');
  await smallWindow(page, 'history-list');
  await page.getByTestId('history-stats').locator('summary').click();
  await page.getByTestId('history-retention').locator('summary').click();

  // A session of three rounds: timeline, diffs, media, timings, events.
  await page.locator('[data-history-id="loop-2"]').click();
  const detail = page.getByTestId('history-detail');
  await expect(page.getByTestId('history-timeline')).toContainText('对话（3 个请求）');
  await expect(page.getByTestId('history-round').first()).toContainText('第 1 轮');
  await expect(detail.getByTestId('history-reopen')).toHaveText('作为草稿重新打开');
  await expect(detail).toContainText('请求：原始请求 → 实际发送');
  await expect(page.getByTestId('history-field-changes').locator('thead th')).toHaveText(['字段', '服务器请求值', '实际发送值']);
  await expect(detail).toContainText('系统提示词');
  await expect(page.getByTestId('history-message-diff-0').locator('h4')).toContainText('(用户)'); // the role too, not "(user)"
  await expect(detail).toContainText('响应：生成内容 → 送达内容');
  await expect(page.getByTestId('history-media')).toContainText('原始请求，消息 1');
  await expect(page.getByTestId('history-media')).toContainText('图片');
  await expect(detail).toContainText('耗时');
  await expect(detail).toContainText('停止原因');
  await expect(detail.locator('summary', { hasText: '原始 JSON：完整记录' })).toHaveCount(1);
  await shot(page, 'zh-history-detail');
  await smallWindow(page, 'history-detail');

  // The failed round's error, and the decider.
  await page.locator('[data-round-id="loop-3"] button').click();
  await expect(page.getByTestId('history-error')).toContainText('错误');
  await expect(detail).toContainText('人工');
  await noMissingKeys(page);
});
