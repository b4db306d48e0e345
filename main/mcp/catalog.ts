/**
 * What a server offers — tools, prompts, resources and resource templates — as the console shows
 * it: listed after connect (for the kinds the server declares in its capabilities) and refreshed on
 * `notifications/tools/list_changed`, `notifications/prompts/list_changed` and
 * `notifications/resources/list_changed` (the SDK's `listChanged` handlers, which debounce).
 */
import type { ListChangedHandlers, Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import type { PromptView, ResourceTemplateView, ResourceView, ToolView } from '../../shared/contract/state.js';
import type { Logger } from '../ports.js';
import type { Client } from '@modelcontextprotocol/client';

/** The lists of one connection. */
export interface Catalog {
  tools: ToolView[];
  prompts: PromptView[];
  resources: ResourceView[];
  resourceTemplates: ResourceTemplateView[];
}

/** An empty catalog (before connect). */
export const emptyCatalog = (): Catalog => ({ tools: [], prompts: [], resources: [], resourceTemplates: [] });

/** A tool as shown. */
export const toolView = (t: Tool): ToolView => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema as Record<string, unknown>,
  ...(t.outputSchema ? { outputSchema: t.outputSchema as Record<string, unknown> } : {}),
});

/** A prompt as shown, with its arguments. */
export const promptView = (p: Prompt): PromptView => ({
  name: p.name,
  title: p.title,
  description: p.description,
  arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: a.required === true })),
});

/** A resource as shown. */
export const resourceView = (r: Resource): ResourceView => ({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, size: r.size });

/** A resource template as shown. */
export const templateView = (t: ResourceTemplateType): ResourceTemplateView => ({
  uriTemplate: t.uriTemplate,
  name: t.name,
  title: t.title,
  description: t.description,
  mimeType: t.mimeType,
});

/** What {@link createCatalogKeeper} needs: where the catalog lives and the client to list with. */
export interface CatalogKeeperOptions {
  serverId: string;
  logger: Logger;
  get(): Catalog;
  set(next: Catalog): void;
  current(): Client | undefined;
  /** Sees every listing failure (e.g. the server wants sign-in again). */
  onError?(err: unknown): void;
}

/** A catalog keeper's operations. */
export interface CatalogKeeper {
  /** `listChanged` handlers for the client options (only active for capabilities the server declares). */
  handlers(): ListChangedHandlers;
  /** Lists every kind the server declares (in parallel). */
  refreshAll(c: Client): Promise<void>;
}

/**
 * Keeps a catalog up to date. `handlers()` goes into the client's `listChanged` option (the SDK
 * refreshes the list and hands it over); `refreshAll(client)` lists everything the server declares.
 * Failures are logged and leave the previous list in place.
 */
export function createCatalogKeeper(opts: CatalogKeeperOptions): CatalogKeeper {
  return {
    handlers: () => handlers(opts),
    refreshAll: (c) => refreshAll(opts, c),
  };
}

/** Replaces some lists of the catalog, keeping the others. */
function patch(opts: CatalogKeeperOptions, change: Partial<Catalog>): void {
  opts.set({ ...opts.get(), ...change });
}

/** Logs a failed listing (`what`: the method) and tells `onError`. */
function warn(opts: CatalogKeeperOptions, what: string, err: unknown): void {
  opts.logger.warn(`${what} failed`, { server: opts.serverId, error: String(err) });
  opts.onError?.(err);
}

/** Lists the tools into the catalog; a failure is logged and keeps the previous list. */
async function refreshTools(opts: CatalogKeeperOptions, c: Client): Promise<void> {
  try {
    patch(opts, { tools: (await c.listTools()).tools.map(toolView) });
  } catch (err) {
    warn(opts, 'tools/list', err);
  }
}

/** Lists the prompts into the catalog; a failure is logged and keeps the previous list. */
async function refreshPrompts(opts: CatalogKeeperOptions, c: Client): Promise<void> {
  try {
    patch(opts, { prompts: (await c.listPrompts()).prompts.map(promptView) });
  } catch (err) {
    warn(opts, 'prompts/list', err);
  }
}

/** Lists the resources and resource templates (in parallel) into the catalog; a failure is logged and keeps both previous lists. */
async function refreshResources(opts: CatalogKeeperOptions, c: Client): Promise<void> {
  try {
    const [resources, templates] = await Promise.all([c.listResources(), c.listResourceTemplates()]);
    patch(opts, { resources: resources.resources.map(resourceView), resourceTemplates: templates.resourceTemplates.map(templateView) });
  } catch (err) {
    warn(opts, 'resources/list', err);
  }
}

/** {@link CatalogKeeper.handlers}: a list the SDK hands over replaces ours; on its error (or no list) the kind is listed again with the current client. */
function handlers(opts: CatalogKeeperOptions): ListChangedHandlers {
  const current = () => opts.current();
  return {
    tools: {
      onChanged: (err, list) => {
        const c = current();
        if (err || !list) return void (c && refreshTools(opts, c));
        patch(opts, { tools: list.map(toolView) });
      },
    },
    prompts: {
      onChanged: (err, list) => {
        const c = current();
        if (err || !list) return void (c && refreshPrompts(opts, c));
        patch(opts, { prompts: list.map(promptView) });
      },
    },
    // Templates have no notification of their own: refresh them with the resources.
    resources: { autoRefresh: false, onChanged: () => void (current() && refreshResources(opts, current()!)) },
  };
}

/** {@link CatalogKeeper.refreshAll}: lists the tools, prompts and resources the server's capabilities declare, in parallel. */
async function refreshAll(opts: CatalogKeeperOptions, c: Client): Promise<void> {
  const caps = c.getServerCapabilities() ?? {};
  await Promise.all([caps.tools ? refreshTools(opts, c) : undefined, caps.prompts ? refreshPrompts(opts, c) : undefined, caps.resources ? refreshResources(opts, c) : undefined]);
}
