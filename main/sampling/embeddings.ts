/**
 * What the pipeline does differently for an embeddings call through the gateway (an item whose
 * `gateway.embeddings` is set): its model is chosen among the providers that make embeddings, its
 * input texts are its messages (one each), and what it delivers holds no content — the vectors go
 * to the caller unreviewed and unrecorded (steps.ts `embed`).
 */
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import { contentBlocks } from '../../shared/contract/sampling.js';
import type { ModelChoice, ModelRef } from '../../shared/contract/state.js';
import { english, ui } from '../../shared/contract/ui-text.js';
import type { LlmProvider } from '../llm/provider.js';

/** Whether a record's item is an embeddings call. */
export function isEmbeddings(item: { gateway?: { embeddings?: unknown } }): boolean {
  return item.gateway?.embeddings !== undefined;
}

/**
 * The model of an embeddings call asking for `requested`: the first provider that makes embeddings
 * and lists that model; else the first provider that makes embeddings, asked for `requested` by
 * name; else `fallback` (the default model — it makes none, and the person sees why when it fails).
 */
export function embeddingModelFor(requested: string, providers: readonly LlmProvider[], fallback: ModelRef): ModelChoice {
  const embedding = providers.filter((p) => p.embed);
  const listing = embedding.find((p) => p.view.models.includes(requested));
  if (listing) {
    const reasonUi = ui('model.embeddingListed', { model: requested, provider: listing.view.label });
    return { providerId: listing.view.id, modelId: requested, reason: english(reasonUi), reasonUi };
  }
  const first = embedding[0];
  if (first) {
    const reasonUi = ui('model.embeddingAsked', { model: requested, provider: first.view.label });
    return { providerId: first.view.id, modelId: requested, reason: english(reasonUi), reasonUi };
  }
  const reasonUi = ui('model.noEmbeddings');
  return { ...fallback, reason: english(reasonUi), reasonUi };
}

/** The texts to embed: each message's text (its text blocks joined with "\n"), in order. */
export function embeddingTexts(params: CreateMessageParams): string[] {
  return params.messages.map((m) =>
    contentBlocks(m.content)
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('\n'),
  );
}

/** What an embeddings call delivers: no content (the vectors are not part of the reviewed exchange). */
export function embeddingsResult(model: string): CreateMessageResult {
  return { role: 'assistant', content: [], model, stopReason: 'endTurn' };
}
