/**
 * What the pipeline does differently for an embeddings call through the gateway (an item whose
 * `gateway.embeddings` is set): its model is chosen among the providers that make embeddings, its
 * input texts are its messages (one each), and what it delivers holds no content — the vectors go
 * to the caller unreviewed and unrecorded (steps.ts `embed`).
 */
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import { contentBlocks } from '../../shared/contract/sampling.js';
import type { ModelChoice, ModelRef } from '../../shared/contract/state.js';
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';
import type { LlmProvider } from '../llm/provider.js';

/** Whether a record's item is an embeddings call. */
export function isEmbeddings(item: { gateway?: { embeddings?: unknown } }): boolean {
  return item.gateway?.embeddings !== undefined;
}

/**
 * The model of an embeddings call asking for `requested`, among the providers that make
 * embeddings: the first that lists `requested`; else the first listed model whose id names
 * embeddings ("embed"); else `requested` by name at the first such provider (a rule may send it
 * so; a person can approve only a model the provider lists); else `fallback` (it makes none: the
 * person sees why when it fails).
 */
export function embeddingModelFor(requested: string, providers: readonly LlmProvider[], fallback: ModelRef): ModelChoice {
  const embedding = providers.filter((p) => p.embed);
  const listing = embedding.find((p) => p.view.models.includes(requested));
  if (listing) return choice(listing, requested, ui('model.embeddingListed', { model: requested, provider: listing.view.label }));
  for (const p of embedding) {
    const model = p.view.models.find((m) => m.toLowerCase().includes('embed'));
    if (model) return choice(p, model, ui('model.embeddingOther', { model, provider: p.view.label, requested }));
  }
  const first = embedding[0];
  if (first) return choice(first, requested, ui('model.embeddingAsked', { model: requested, provider: first.view.label }));
  const reasonUi = ui('model.noEmbeddings');
  return { ...fallback, reason: english(reasonUi), reasonUi };
}

function choice(provider: LlmProvider, modelId: string, reasonUi: UiText): ModelChoice {
  return { providerId: provider.view.id, modelId, reason: english(reasonUi), reasonUi };
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
