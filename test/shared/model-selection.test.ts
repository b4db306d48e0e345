import { describe, expect, it } from 'vitest';
import { chooseModel } from '../../shared/model-selection.js';
import type { ProviderView } from '../../shared/state.js';

const providers: ProviderView[] = [
  { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false },
  { id: 'ollama', kind: 'openai-compatible', label: 'Ollama', models: ['llama3.2', 'qwen2.5-coder'], hasApiKey: false },
  { id: 'lms', kind: 'openai-compatible', label: 'LM Studio', models: ['claude-sonnet-lookalike'], hasApiKey: false },
];
const fallback = { providerId: 'manual', modelId: 'manual' };

describe('chooseModel (skeleton: hints in order, then the default)', () => {
  it.each([
    [{ hints: [{ name: 'qwen' }] }, 'qwen2.5-coder', "hint 'qwen' matched 'qwen2.5-coder'"],
    [{ hints: [{ name: 'gpt' }, { name: 'LLAMA' }] }, 'llama3.2', "hint 'LLAMA' matched 'llama3.2'"],
    [{ hints: [{ name: 'sonnet' }, { name: 'llama' }] }, 'claude-sonnet-lookalike', "hint 'sonnet'"],
    [{ hints: [{ name: 'gemini' }] }, 'manual', "no configured model matched the hints 'gemini'"],
    [undefined, 'manual', 'names no model hints; using the default model (Write the response myself)'],
    [{ hints: [{ name: 'manual' }] }, 'manual', 'no configured model matched'],
  ])('%j → %s', (prefs, modelId, reason) => {
    const choice = chooseModel(prefs, providers, fallback);
    expect(choice.modelId).toBe(modelId);
    expect(choice.reason).toContain(reason);
  });

  it('falls back to the first configured model when the default is not configured', () => {
    const choice = chooseModel(undefined, providers.slice(1), fallback);
    expect(choice).toMatchObject({ providerId: 'ollama', modelId: 'llama3.2' });
    expect(choice.reason).toContain('first configured model');
  });
});
