/**
 * The manual provider: "Write the response myself". It has no `generate`; the person writes the
 * CreateMessageResult in the review screen (spec "Human in the loop": the human may write or edit
 * the response before it is delivered). Always present, and the default when nothing else is
 * configured (providers-config.ts).
 */
import { MANUAL_PROVIDER_ID } from '../../shared/contract/primitives.js';
import type { LlmProvider } from './provider.js';

export { MANUAL_PROVIDER_ID };

/** Creates the manual provider: view `{id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false}`, no `generate`. */
export function createManualProvider(): LlmProvider {
  return {
    view: {
      id: MANUAL_PROVIDER_ID,
      kind: 'manual',
      label: 'Write the response myself',
      models: [MANUAL_PROVIDER_ID],
      hasApiKey: false,
    },
  };
}
