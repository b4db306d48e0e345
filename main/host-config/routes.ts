/**
 * The routes the console made in hosts' config files ("Route through the console"), kept in
 * `host-routes.json` in the user-data folder (owner-only) so each can be undone later, also after
 * a restart, and the API methods over them: `routeServer`, `unrouteServer`, `listRoutes`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ApiError, type ApiParsedInput, type ApiResults } from '../../shared/contract/api.js';
import type { HostRouteView } from '../../shared/contract/servers.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { Logger } from '../ports.js';
import { writeFileAtomic } from '../user-file.js';
import { routeServer, unrouteServer, type BridgeLauncher, type RouteRecord, type UrlRouteTarget } from './route.js';

/** File in the user-data folder. */
export const ROUTES_FILE = 'host-routes.json';

const RecordSchema = z.object({
  id: z.string(),
  format: z.enum(['claude-desktop', 'claude-code', 'windsurf', 'vscode', 'cursor']),
  path: z.string(),
  name: z.string(),
  original: z.record(z.string(), z.unknown()),
  routed: z.record(z.string(), z.unknown()),
  at: z.number(),
});
const FileSchema = z.object({ routes: z.array(RecordSchema) });
type Stored = z.infer<typeof RecordSchema>;

/** What the routing methods need. */
export interface HostRoutingDeps {
  dir: string;
  now: () => number;
  logger: Logger;
  /** How this installation launches the bridge; absent: the command form is refused with a clear error. */
  launcher?: BridgeLauncher;
  /** Where the URL form points, now; undefined: the URL form is refused with a clear error. */
  urlTarget?(): UrlRouteTarget | undefined;
}

/** The API methods of routing. */
export type HostRoutingMethods = {
  [M in 'routeServer' | 'unrouteServer' | 'listRoutes']: (input: ApiParsedInput<M>) => Promise<ApiResults[M]>;
};

/** A stored route as the renderer sees it (the original entry is not sent: it may hold secrets). */
const viewOf = (r: Stored): HostRouteView => ({ id: r.id, format: r.format, path: r.path, name: r.name, at: r.at });

/** Opens the store and returns the methods. A broken store file is reported and left as it is (new routes are then refused). */
export function createHostRouting(deps: HostRoutingDeps): HostRoutingMethods {
  const path = join(deps.dir, ROUTES_FILE);
  const read = (): Stored[] => {
    if (!existsSync(path)) return [];
    const parsed = FileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!parsed.success) throw new ApiError('internal', ui('route.storeBroken', { path }));
    return parsed.data.routes;
  };
  const write = (routes: Stored[]) => writeFileAtomic(path, `${JSON.stringify({ routes }, null, 2)}\n`);
  return {
    async routeServer({ path: file, format, name, seen, how }) {
      const routes = read();
      const url = how === 'url' ? deps.urlTarget?.() : undefined;
      const record: RouteRecord = routeServer({ path: file, format, name, ...(deps.launcher && { launcher: deps.launcher }), ...(how && { how }), ...(url && { url }), seen, now: deps.now() });
      const stored: Stored = { id: randomUUID(), ...record };
      write([...routes.filter((r) => !(r.path === file && r.name === name)), stored]);
      deps.logger.info('routed a host entry through the bridge', { path: file, name });
      return viewOf(stored);
    },
    async unrouteServer({ id }) {
      const routes = read();
      const record = routes.find((r) => r.id === id);
      if (!record) throw new ApiError('not_found', ui('route.unknown', { id }));
      unrouteServer(record);
      write(routes.filter((r) => r.id !== id));
      deps.logger.info('undid the routing of a host entry', { path: record.path, name: record.name });
    },
    listRoutes: async () => ({ routes: read().map(viewOf) }),
  };
}
