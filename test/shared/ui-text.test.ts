/**
 * Texts as message codes (shared/contract/ui-text.ts): the English main keeps for logs is exactly what the
 * code and its parameters say, nested texts included; and the renderer's `sayWith` translates a
 * nested text as a whole, keeps data parameters as they are, and falls back to the English (and
 * reports the code) when a language lacks it.
 */
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { codeOfEnglish, english, fillTemplate, isUiText, nestOnFirstDot, ui, UI_TEXTS } from '../../shared/contract/ui-text.js';
import { detectSensitive } from '../../shared/domain/sensitive-data.js';
import { ServerEntryInputSchema, ServerNameSchema } from '../../shared/contract/servers.js';
import { selectModel } from '../../shared/domain/model-selection.js';
import { validateSamplingRequest } from '../../shared/domain/validate-sampling.js';
import { reportMissingWith, sayEnglish, sayWith } from '../../renderer/i18n/say.js';
import { applyZodLanguage } from '../../renderer/i18n/zod-language.js';
import { z } from 'zod';
import type { ProviderView } from '../../shared/contract/state.js';

describe('english', () => {
  it('fills parameters, nested texts in English too', () => {
    const why = ui('model.usingDefault', { none: ui('model.noHints'), what: ui('model.defaultModel', { label: 'Local Ollama' }) });
    expect(english(why)).toBe('the request names no model hints; using the default model (Local Ollama)');
  });

  it('leaves a placeholder without a parameter as it is, and ignores an unclosed one', () => {
    expect(fillTemplate('a {{x}} b {{y}}', { x: 1 }, String)).toBe('a 1 b {{y}}');
    expect(fillTemplate('a {{x', { x: 1 }, String)).toBe('a {{x');
  });

  it('tells a text from data', () => {
    expect(isUiText(ui('model.noHints'))).toBe(true);
    expect(isUiText('model.noHints')).toBe(false);
    expect(isUiText({ codes: 'x' })).toBe(false);
  });

  it('every catalog code is namespaced (the renderer nests on the first dot)', () => {
    for (const code of Object.keys(UI_TEXTS)) expect(code, code).toMatch(/^[a-z]+\.[A-Za-z0-9]+$/);
  });
});

describe('producers keep the English and the code in step', () => {
  it("a validation refusal's message is the English of its code", () => {
    const res = validateSamplingRequest({ messages: [], maxTokens: -1 }, { toolsDeclared: false });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.ui).toEqual(ui('validate.maxTokensPositive', { got: '-1' }));
    expect(res.error.message).toBe(english(res.error.ui));
    expect(res.error.message).toBe('maxTokens must be a positive integer (got -1)');
  });

  it("model selection's reasons (choice and candidates) are the English of their codes", () => {
    const providers: ProviderView[] = [
      { id: 'o', kind: 'openai', label: 'OpenAI', models: ['gpt-4o-mini', 'gpt-4o'], hasApiKey: true },
      { id: 'manual', kind: 'manual', label: 'Manual', models: ['manual'], hasApiKey: false },
    ];
    const { choice, candidates } = selectModel({ prefs: { hints: [{ name: 'claude' }], costPriority: 1 }, providers, fallback: { providerId: 'manual', modelId: 'manual' } });
    expect(choice.reasonUi).toBeDefined();
    expect(choice.reason).toBe(english(choice.reasonUi!));
    for (const c of candidates) expect(c.reason).toBe(english(c.reasonUi!));
    expect(candidates.at(-1)?.reasonUi).toEqual(ui('model.manualCandidate'));
  });
});

describe("fixed English a library carries (codeOfEnglish)", () => {
  it('no two codes without parameters share their English (the way back is unambiguous)', () => {
    const seen = new Map<string, string>();
    for (const [code, en] of Object.entries(UI_TEXTS)) {
      if (en.includes('{{')) continue;
      expect(seen.get(en), `${code} and ${seen.get(en)} read the same`).toBeUndefined();
      seen.set(en, code);
    }
  });

  it("a server entry's schema problems and the detectors' labels all have a code", () => {
    expect(codeOfEnglish(ServerNameSchema.safeParse('').error!.issues[0]!.message)).toBe('schema.nameRequired');
    const bad = ServerEntryInputSchema.safeParse({ transport: 'stdio', command: 'npx -y x', env: { '1A': 'v' }, timeoutMs: 5 });
    for (const issue of bad.error!.issues) expect(codeOfEnglish(issue.message), issue.message).toBeDefined();
    const text = 'key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 mail ada@example.com card 4111 1111 1111 1111 password=hunter2hunter2';
    const found = detectSensitive(text);
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const f of found) expect(codeOfEnglish(f.label), f.label).toMatch(/^detector\./);
  });
});

describe('sayWith (renderer)', () => {
  const zh = {
    model: { usingDefault: '{{none}}；使用{{what}}', noHints: '请求未给出模型提示', defaultModel: '默认模型（{{label}}）' },
  };
  async function instance(lng: string) {
    const i18n = i18next.createInstance();
    await i18n.init({ lng, fallbackLng: 'en', resources: { en: { messages: nestOnFirstDot(UI_TEXTS) }, 'zh-CN': { messages: zh } } });
    return i18n;
  }

  it('translates nested texts and keeps data as it is', async () => {
    const i18n = await instance('zh-CN');
    const why = ui('model.usingDefault', { none: ui('model.noHints'), what: ui('model.defaultModel', { label: 'Local Ollama' }) });
    expect(sayWith(i18n, why)).toBe('请求未给出模型提示；使用默认模型（Local Ollama）');
  });

  it('sayEnglish translates fixed English the catalog knows and leaves other text alone', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'zh-CN', resources: { 'zh-CN': { messages: { schema: { nameRequired: '名称为必填项' } } } } });
    expect(sayEnglish(i18n, 'Name is required')).toBe('名称为必填项');
    expect(sayEnglish(i18n, 'My own label')).toBe('My own label');
  });

  it('falls back to English and reports the code a language lacks; no code → the English given', async () => {
    const i18n = await instance('zh-CN');
    const missing: string[] = [];
    reportMissingWith((k) => missing.push(k));
    expect(sayWith(i18n, ui('outcome.answered'))).toBe('Answered by the person');
    expect(missing).toEqual(['zh-CN:messages:outcome.answered']);
    expect(sayWith(i18n, undefined, 'older entry text')).toBe('older entry text');
    // A code this version does not know (renamed since the entry was saved): the stored English.
    expect(sayWith(i18n, { code: 'outcome.renamedLater' as 'outcome.answered' }, 'Answered by the person (stored)')).toBe('Answered by the person (stored)');
    reportMissingWith(() => {});
  });
});

describe("zod's own messages follow the language (renderer)", () => {
  it('Chinese for zh-CN, English otherwise', () => {
    const schema = z.number().min(1);
    try {
      applyZodLanguage('zh-CN');
      expect(schema.safeParse(0).error!.issues[0]!.message).toMatch(/[\u4e00-\u9fff]/);
      applyZodLanguage('en');
      expect(schema.safeParse(0).error!.issues[0]!.message).toMatch(/^Too small/);
    } finally {
      applyZodLanguage('en');
    }
  });
});
