/**
 * `GET /openai/v1/models[/{id}]` and `GET /anthropic/v1/models[/{id}]`: the models a caller may
 * ask for — every model of the console's providers (the manual provider aside), or only a server's
 * allowed models when its settings name them — in each API's list shape. The model a caller asks
 * for stays a hint: the console chooses among these as for any request.
 */
import type { ServerModelSettings } from '../../shared/contract/providers.js';
import type { ProviderView } from '../../shared/contract/state.js';

/** One model a caller may ask for, and the provider (id) that has it. */
export interface GatewayModel {
  id: string;
  provider: string;
}

/** Anthropic's `created_at` when the console knows no date for a model (it knows none). */
const NO_DATE = '1970-01-01T00:00:00Z';

/**
 * The models of `providers` (in their order, each id once), limited to `server.allowedModels`
 * when it names any; the manual provider has none.
 */
export function modelCatalog(providers: readonly ProviderView[], server?: ServerModelSettings): GatewayModel[] {
  const allowed = server?.allowedModels?.length ? server.allowedModels : undefined;
  const seen = new Set<string>();
  const out: GatewayModel[] = [];
  for (const p of providers) {
    if (p.kind === 'manual') continue;
    for (const id of p.models) {
      if (seen.has(id) || (allowed && !allowed.some((m) => m.providerId === p.id && m.modelId === id))) continue;
      seen.add(id);
      out.push({ id, provider: p.id });
    }
  }
  return out;
}

/** One model in OpenAI's `model` shape or Anthropic's `ModelInfo` shape. */
export function modelBody(api: 'openai' | 'anthropic', m: GatewayModel): Record<string, unknown> {
  return api === 'openai' ? { id: m.id, object: 'model', created: 0, owned_by: m.provider } : { type: 'model', id: m.id, display_name: m.id, created_at: NO_DATE };
}

/** The list in OpenAI's (`{object: 'list', data}`) or Anthropic's (`{data, has_more, first_id, last_id}`) shape; Anthropic's is one page holding all. */
export function modelsBody(api: 'openai' | 'anthropic', models: readonly GatewayModel[]): Record<string, unknown> {
  const data = models.map((m) => modelBody(api, m));
  if (api === 'openai') return { object: 'list', data };
  return { data, has_more: false, first_id: models[0]?.id ?? null, last_id: models.at(-1)?.id ?? null };
}
