/**
 * Languages: with the desktop setting `language: 'zh-CN'`, the Servers screen (a server
 * selected, its tools panel and tool form, the server editor, the import panel) and the Rules
 * screen (server policy, rule editor, a rule drafted from a request) render in Simplified Chinese —
 * including messages the pure form helpers make — no key is missing, and the Chinese text fits the
 * smallest supported window (900×600). Screenshots go to e2e/artifacts/zh-*.png.
 */
import type { Page } from '@playwright/test';
import { RULES_FILE_VERSION, RulesFileSchema, type PolicyView } from '../../shared/contract/rules.js';
import type { ImportScan } from '../../shared/contract/servers.js';
import { english, ui } from '../../shared/contract/ui-text.js';
import type { FixtureState } from '../support/fixture-state.js';
import { expect, expectNoHorizontalOverflow, shot, test } from '../support/ui.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

/** The policy slice: two rules for `everything` (one disabled), a limited counter, the console-wide cap hit once. */
function policy(): PolicyView {
  const rules = RulesFileSchema.parse({
    version: RULES_FILE_VERSION,
    servers: {
      everything: {
        rules: [
          { id: 'r-notes', name: 'Note summaries', when: { toolCall: 'ask', maxTokensAtMost: 50, media: ['image'], sensitive: 'absent' }, action: { kind: 'approve_all' } },
          { id: 'r-night', name: 'Nights off', enabled: false, when: { timeWindow: { from: '22:00', to: '06:00' } }, action: { kind: 'reject', reason: 'Off hours' } },
        ],
      },
    },
  });
  return {
    rules,
    path: '/home/user/.config/mcp-approval-console/rules.json',
    problems: [],
    counters: { everything: { rateLimited: 2, autoApproved: 5, autoRejected: 1, waiting: 0, tokensToday: 1234, spendTodayUsd: null } },
    globalRateLimited: 1,
    pricesKnown: false,
  };
}

function chineseState(state: FixtureState): FixtureState {
  return withDesktop({ ...state, policy: policy() }, { language: 'zh-CN' });
}

async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __i18nMissing(): string[] }).__i18nMissing());
}

/** Every form control has an accessible name (the translated aria-labels and labels are there). */
async function expectNamedControls(page: Page): Promise<void> {
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input, select, textarea, button, summary')]
      .filter((el) => !(el.getAttribute('aria-label') || ((el as HTMLInputElement).labels?.length ?? 0) > 0 || ((el.tagName === 'BUTTON' || el.tagName === 'SUMMARY') && el.textContent?.trim())))
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(unnamed).toEqual([]);
}

/** Checks the layout at 900×600 (no sideways scrolling, named controls) and takes both screenshots. */
async function shots(page: Page, name: string): Promise<void> {
  await shot(page, `zh-${name}`);
  await page.setViewportSize({ width: 900, height: 600 });
  await expectNoHorizontalOverflow(page);
  await expectNamedControls(page);
  await shot(page, `zh-900x600-${name}`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('Servers screen in Simplified Chinese: list, server page, tools panel and form, editor, import', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openWithDesktop(page, appUrl, { ...fixture, state: chineseState(fixture.state) });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.getByTestId('nav-servers').click();

  const screen = page.getByTestId('servers-screen');
  await expect(screen.locator('.pane-title h2')).toHaveText('服务器');
  await expect(page.getByTestId('add-server')).toHaveText('添加服务器');
  await expect(page.getByTestId('server-item').first()).toContainText('stdio · 5 个工具 · 1 个进行中');
  const detail = page.getByTestId('server-detail');
  await expect(detail.getByTestId('server-status')).toHaveText('就绪');
  await expect(detail).toContainText('2025-11-25（推送时代）');
  await expect(page.getByTestId('restart-server')).toHaveText('重启');
  await expect(page.getByTestId('server-tab-tools')).toHaveText('工具（5）');
  await expect(page.getByTestId('roots-panel').getByTestId('roots-empty')).toHaveText('尚未与 everything 共享任何文件夹。');
  // Through the bridge: a row waiting for sign-in, and a bridged server's sign-in.
  const calendar = page.locator('[data-testid="bridged-server"][data-server-id="calendar"]');
  await expect(calendar.getByTestId('bridged-waiting')).toHaveText('等待登录；登录后请在你的智能体宿主中重启该服务器。');
  await expect(calendar.getByTestId('bridged-sign-in')).toHaveText('登录');
  await expect(page.locator('[data-testid="bridged-server"][data-server-id="wiki"]').getByTestId('bridged-auth-status')).toHaveText('需要登录（OAuth）');
  await expect(page.locator('[data-call-id="call-failed"]').getByTestId('call-error')).toHaveText('Request timed out（代码 -32001）');
  await expect(page.locator('[data-call-id="call-tool-error"]').getByTestId('call-status')).toContainText('工具错误');

  // The tools panel with a tool's form; the "required" message comes from the pure form helper.
  await page.getByTestId('tool-item').filter({ hasText: 'trigger-sampling-request' }).click();
  const form = page.getByTestId('tool-form');
  await expect(page.getByTestId('call-tool')).toHaveText('调用工具');
  await expect(form.getByText('原始 JSON')).toBeVisible();
  await page.getByTestId('call-tool').click();
  await expect(form.locator('.field-error')).toHaveText('必填');
  await page.getByTestId('tool-raw-toggle').check();
  await page.getByTestId('tool-raw').fill('[1]');
  await expect(page.getByTestId('tool-raw-error')).toHaveText('参数必须是 JSON 对象（{…}）。');
  await page.getByTestId('tool-raw-toggle').uncheck();
  await expect(screen).not.toContainText(/Call tool|Add server|Restart|Tools \(/);
  await shots(page, 'servers-tools');

  // The errored server: its banner and the status pill.
  await page.getByTestId('server-item').filter({ hasText: 'broken-python' }).click();
  await expect(page.getByTestId('server-error')).toContainText('连接失败');
  await expect(detail.getByTestId('server-status')).toHaveText('出错');
  await expect(detail).toContainText('服务器就绪后将显示工具。');

  // The editor, with the form helper's line message in Chinese.
  await page.getByTestId('add-server').click();
  const editor = page.getByTestId('server-editor');
  await expect(editor.locator('h2')).toHaveText('添加服务器');
  await page.getByTestId('editor-env').fill('A=1\nA=2');
  await expect(page.getByTestId('editor-error-env')).toHaveText('第 2 行：变量 "A" 重复出现');
  await page.getByTestId('editor-transport-sse').check();
  await expect(page.getByTestId('sse-note')).toContainText('HTTP+SSE 已弃用');
  await shots(page, 'servers-editor');
  await page.getByTestId('editor-cancel').click();

  await page.getByTestId('import-servers').click();
  await expect(page.getByTestId('import-panel').locator('h2')).toHaveText('导入服务器');
  await expect(page.getByTestId('import-scan')).toHaveText('查找配置');
  await shots(page, 'servers-import');

  expect(await missingKeys(page)).toEqual([]);
});

/** A scan as main sends it: Claude Desktop's file found (no servers), VS Code's user file and a Cursor project file not found. */
function importScan(): ImportScan {
  const labelled = (code: 'import.vscodeUser' | 'import.cursorProject') => ({ label: english(ui(code)), labelUi: ui(code) });
  return {
    sources: [
      { format: 'claude-desktop', label: 'Claude Desktop', path: '/home/user/.config/Claude/claude_desktop_config.json', found: true, digest: 'a'.repeat(64), candidates: [] },
      { format: 'vscode', ...labelled('import.vscodeUser'), path: '/home/user/.config/Code/User/mcp.json', found: false, candidates: [] },
      { format: 'cursor', ...labelled('import.cursorProject'), path: '/home/user/project/.cursor/mcp.json', found: false, candidates: [] },
    ],
  };
}

test('Import panel in Simplified Chinese: the places where no file was found are named in Chinese', async ({ page, appUrl, fixture }) => {
  await openWithDesktop(page, appUrl, { ...fixture, state: chineseState(fixture.state) });
  await page.evaluate((scan) => {
    // The fake's own method records the call; this one answers the scan (the renderer looks the method up per call).
    const api = (window as unknown as { api: Record<string, (input: unknown) => Promise<unknown>> }).api;
    const recorded = api.scanImports!;
    api.scanImports = (input) => recorded(input).then(() => scan);
  }, importScan());
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('import-servers').click();
  await page.getByTestId('import-scan').click();

  await expect(page.getByTestId('import-source').locator('h3')).toHaveText('Claude Desktop');
  const notFound = page.getByTestId('import-not-found');
  await expect(notFound.locator('li')).toHaveText(['VS Code（用户） /home/user/.config/Code/User/mcp.json', 'Cursor（项目） /home/user/project/.cursor/mcp.json']);
  await expect(notFound).not.toContainText(/VS Code \(user\)|Cursor \(project\)/);
  expect(await missingKeys(page)).toEqual([]);
});

test('Rules screen in Simplified Chinese: policy, counters, rule editor, a rule drafted from a request', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openWithDesktop(page, appUrl, { ...fixture, state: chineseState(fixture.state) });
  await expect(page.getByTestId('auto-active')).toHaveText('● 自动批准中');
  await expect(page.getByTestId('nav-rate-limited')).toHaveText('2 个被限流');
  await page.getByTestId('nav-rules').click();

  const screen = page.getByTestId('rules-screen');
  await expect(screen.locator('.pane-title h2')).toHaveText('规则');
  await expect(page.getByTestId('rules-server-everything')).toContainText('2 条规则');
  await expect(screen).toContainText('暂停所有自动批准');
  await expect(screen).toContainText('1 个被控制台全局上限拒绝。');
  await page.getByTestId('rules-server-everything').click();
  const policyView = page.getByTestId('server-policy');
  await expect(policyView).toContainText('规则（2）— 按顺序首条匹配生效');
  await expect(policyView).toContainText('未知（缺少模型价格）');
  await expect(page.getByTestId('rule-row-0')).toContainText('工具 ask · maxTokens ≤ 50 · 文本+图片 · 无敏感数据');
  await expect(page.getByTestId('rule-row-0')).toContainText('→ 自动批准请求和响应');
  await expect(page.getByTestId('rule-row-1')).toContainText('已停用');
  await expect(page.getByTestId('rule-row-1')).toContainText('→ 始终拒绝：Off hours');
  await expect(page.getByTestId('default-action').locator('option:checked')).toHaveText('询问我（默认）');
  await expect(page.getByTestId('redaction-settings')).toContainText('在历史记录中保留未脱敏的原文');
  await page.getByLabel('正则表达式').fill('(\\w)\\1');
  await expect(page.getByTestId('redaction-regex-error')).toContainText('不支持反向引用');
  await expect(page.getByTestId('redaction-settings').getByRole('button', { name: '添加模式' })).toBeDisabled();
  await page.getByLabel('正则表达式').fill('');
  await expect(screen).not.toContainText(/Add rule|Default action|Save limits|rules? \(|first match wins/);
  await shots(page, 'rules-policy');

  // The rule editor, with a schema problem shown in the Chinese frame.
  await page.getByTestId('rule-edit-0').click();
  const editor = page.getByTestId('rule-editor');
  await expect(editor.locator('h3')).toHaveText('编辑 everything 的规则');
  await expect(editor.locator('legend')).toHaveText('同时满足以下全部条件时（留空则跳过）');
  await expect(page.getByTestId('rule-save')).toHaveText('保存规则');
  await expect(page.getByTestId('rule-action').locator('option:checked')).toHaveText('自动批准请求和响应（完全无人值守）');
  await page.getByTestId('rule-name').fill('');
  await expect(page.getByTestId('rule-invalid')).toHaveText(/^name：/);
  await page.getByTestId('rule-name').fill('Note summaries');
  await expect(page.getByTestId('rule-invalid')).toHaveCount(0);
  // A pattern the linear-time engine refuses is a field error, in Chinese, and the rule cannot be saved.
  await page.getByTestId('rule-message-pattern').fill('x(?!y)');
  await expect(page.getByTestId('rule-message-pattern-error')).toContainText('不支持先行断言');
  await expect(page.getByTestId('rule-invalid')).toContainText('不支持先行断言');
  await expect(page.getByTestId('rule-save')).toBeDisabled();
  await page.getByTestId('rule-message-pattern').fill('');
  await expect(page.getByTestId('rule-invalid')).toHaveCount(0);
  await shots(page, 'rules-editor');

  // "Always allow requests like this" from a request in the queue: the editor names the request's time.
  await page.getByTestId('nav-queue').click();
  await page.locator('[data-item-id="item-request"]').click();
  await expect(page.getByTestId('allow-like-this')).toHaveText('始终允许此服务器的同类请求…');
  await page.getByTestId('allow-like-this').click();
  await expect(page.getByTestId('rule-editor').locator('h3')).toHaveText(/^为 everything 新建规则 — 根据 \S+ 收到的请求$/);

  expect(await missingKeys(page)).toEqual([]);
});
