/**
 * Remembers each server's protocol era ("Each server's negotiated era is shown and remembered").
 * With `protocol: "auto"` the console prefers 2025-11-25 (connection.ts): a verdict `legacy` says
 * the server answered the 2025 `initialize`, `modern` that it refused it and speaks 2026-07-28 —
 * later connects go straight there through the SDK's `connect({prior})`, without the refused
 * handshake and the probe. A verdict is tied to the server's command line / URL, to the rule that
 * made it ({@link ERA_RULE}), and expires after {@link ERA_TTL_MS}, since a stale verdict would hide
 * an upgraded server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** File in the user-data folder. */
export const ERA_CACHE_FILE = 'server-eras.json';
/** How long a verdict is trusted: 7 days in ms. */
export const ERA_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * The rule `auto` decides by, stored in every verdict: verdicts made under another rule (or none:
 * the first `auto`, which took 2026-07-28 whenever the server offered it) are cleared when the
 * file is opened, so a server that also speaks 2025-11-25 is asked again.
 */
export const ERA_RULE = 'prefer-2025-11-25';

const VerdictSchema = z.object({
  era: z.enum(['legacy', 'modern']),
  protocolVersion: z.string().optional(),
  /** The server's command line or URL when the verdict was made. */
  target: z.string(),
  at: z.number(),
  /** The DiscoverResult of a modern server (opaque here; the SDK validates it on use). */
  discover: z.unknown().optional(),
  /** The rule that made the verdict ({@link ERA_RULE}); absent in verdicts of the first `auto`. */
  rule: z.string().optional(),
});
/** One remembered verdict, as `server-eras.json` holds it (keyed by server id). */
export type EraVerdict = z.infer<typeof VerdictSchema>;
const FileSchema = z.record(z.string(), VerdictSchema);

/** Read/write access to remembered verdicts. */
export interface EraCache {
  /** A fresh verdict for `serverId` made for the same `target`, or undefined. */
  get(serverId: string, target: string, now: number): EraVerdict | undefined;
  /** Records a verdict (stamped with {@link ERA_RULE}); written at once. */
  set(serverId: string, verdict: Omit<EraVerdict, 'rule'>): void;
  forget(serverId: string): void;
}

/** The verdicts of `path` made under {@link ERA_RULE}, and whether others were dropped. */
function readVerdicts(path: string): { data: Record<string, EraVerdict>; dropped: boolean } {
  try {
    const parsed = FileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!parsed.success) return { data: {}, dropped: false };
    const kept = Object.entries(parsed.data).filter(([, v]) => v.rule === ERA_RULE);
    return { data: Object.fromEntries(kept), dropped: kept.length < Object.keys(parsed.data).length };
  } catch {
    return { data: {}, dropped: false }; // no cache yet
  }
}

/**
 * Opens the cache file in `userDataDir` (a missing or unreadable file is an empty cache; it is
 * only a cache). Verdicts of another rule are cleared from the file at once. Writes are
 * synchronous and small.
 */
export function openEraCache(userDataDir: string): EraCache {
  const path = join(userDataDir, ERA_CACHE_FILE);
  const read = readVerdicts(path);
  let data = read.data;
  const write = () => writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  if (read.dropped) write();
  return {
    get(serverId, target, now) {
      const v = data[serverId];
      return v && v.target === target && now - v.at < ERA_TTL_MS ? v : undefined;
    },
    set(serverId, verdict) {
      data = { ...data, [serverId]: { ...verdict, rule: ERA_RULE } };
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
