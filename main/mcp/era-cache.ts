/**
 * Remembers each server's protocol era ("Each server's negotiated era is shown and remembered"):
 * with `protocol: "auto"`, the first connect probes (`server/discover`, which over stdio spawns a
 * legacy server twice); later connects reuse the verdict through the SDK's `connect({prior})`, so a
 * legacy stdio server is spawned once. A verdict is tied to the server's command line / URL and
 * expires after {@link ERA_TTL_MS}, since a stale legacy verdict would hide an upgraded server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** File in the user-data folder. */
export const ERA_CACHE_FILE = 'server-eras.json';
/** How long a verdict is trusted: 7 days in ms. */
export const ERA_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const VerdictSchema = z.object({
  era: z.enum(['legacy', 'modern']),
  protocolVersion: z.string().optional(),
  /** The server's command line or URL when the verdict was made. */
  target: z.string(),
  at: z.number(),
  /** The DiscoverResult of a modern server (opaque here; the SDK validates it on use). */
  discover: z.unknown().optional(),
});
export type EraVerdict = z.infer<typeof VerdictSchema>;
const FileSchema = z.record(z.string(), VerdictSchema);

/** Read/write access to remembered verdicts. */
export interface EraCache {
  /** A fresh verdict for `serverId` made for the same `target`, or undefined. */
  get(serverId: string, target: string, now: number): EraVerdict | undefined;
  set(serverId: string, verdict: EraVerdict): void;
  forget(serverId: string): void;
}

/**
 * Opens the cache file in `userDataDir` (a missing or unreadable file is an empty cache; it is
 * only a cache). Writes are synchronous and small.
 */
export function openEraCache(userDataDir: string): EraCache {
  const path = join(userDataDir, ERA_CACHE_FILE);
  let data: Record<string, EraVerdict> = {};
  try {
    const parsed = FileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (parsed.success) data = parsed.data;
  } catch {
    // no cache yet
  }
  const write = () => writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  return {
    get(serverId, target, now) {
      const v = data[serverId];
      return v && v.target === target && now - v.at < ERA_TTL_MS ? v : undefined;
    },
    set(serverId, verdict) {
      data = { ...data, [serverId]: verdict };
      write();
    },
    forget(serverId) {
      if (!(serverId in data)) return;
      const { [serverId]: _gone, ...rest } = data;
      data = rest;
      write();
    },
  };
}
