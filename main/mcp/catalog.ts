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

/**
 * Keeps a catalog up to date. `handlers()` goes into the client's `listChanged` option (the SDK
 * refreshes the list and hands it over); `refreshAll(client)` lists everything the server declares.
 * Failures are logged and leave the previous list in place.
 */
export function createCatalogKeeper(opts: {
  serverId: string;
  logger: Logger;
  get(): Catalog;
  set(next: Catalog): void;
  current(): Client | undefined;
  /** Sees every listing failure (e.g. the server wants sign-in again). */
  onError?(err: unknown): void;
}) {
  const patch = (change: Partial<Catalog>) => opts.set({ ...opts.get(), ...change });
  const warn = (what: string, err: unknown) => {
    opts.logger.warn(`${what} failed`, { server: opts.serverId, error: String(err) });
    opts.onError?.(err);
  };

  const refresh = {
    async tools(c: Client) {
      try {
        patch({ tools: (await c.listTools()).tools.map(toolView) });
      } catch (err) {
        warn('tools/list', err);
      }
    },
    async prompts(c: Client) {
      try {
        patch({ prompts: (await c.listPrompts()).prompts.map(promptView) });
      } catch (err) {
        warn('prompts/list', err);
      }
    },
    async resources(c: Client) {
      try {
        const [resources, templates] = await Promise.all([c.listResources(), c.listResourceTemplates()]);
        patch({ resources: resources.resources.map(resourceView), resourceTemplates: templates.resourceTemplates.map(templateView) });
      } catch (err) {
        warn('resources/list', err);
      }
    },
  };

  return {
    /** `listChanged` handlers for the client options (only active for capabilities the server declares). */
    handlers(): ListChangedHandlers {
      const current = () => opts.current();
      return {
        tools: {
          onChanged: (err, list) => {
            const c = current();
            if (err || !list) return void (c && refresh.tools(c));
            patch({ tools: list.map(toolView) });
          },
        },
        prompts: {
          onChanged: (err, list) => {
            const c = current();
            if (err || !list) return void (c && refresh.prompts(c));
            patch({ prompts: list.map(promptView) });
          },
        },
        // Templates have no notification of their own: refresh them with the resources.
        resources: { autoRefresh: false, onChanged: () => void (current() && refresh.resources(current()!)) },
      };
    },
    /** Lists every kind the server declares (in parallel). */
    async refreshAll(c: Client): Promise<void> {
      const caps = c.getServerCapabilities() ?? {};
      await Promise.all([
        caps.tools ? refresh.tools(c) : undefined,
        caps.prompts ? refresh.prompts(c) : undefined,
        caps.resources ? refresh.resources(c) : undefined,
      ]);
    },
  };
}
