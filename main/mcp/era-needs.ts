/**
 * Which protocol era each tool of a server needs. One connection speaks one era, but servers
 * built on Python's `mcp` and `fastmcp` hold tools of both kinds: push-style tools
 * (`ctx.session.create_message`, `ctx.elicit`, `ctx.session.list_roots`) can ask the client only
 * on 2025-11-25, guard-style tools (returning `InputRequiredResult`) only on 2026-07-28. The
 * console learns a tool's need from the failure the server reports — by its code and message, as
 * a JSON-RPC error or as an `isError` tool result — or from the person (Servers screen), keeps it
 * in `tool-eras.json` in the user-data folder, and calls that tool on a session of that era. The
 * one failure that is answered by calling the tool again at once ({@link callsAgain}) is the
 * framework's refusal of a guard-style tool on 2025-11-25.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProtocolEra } from '../../shared/contract/primitives.js';
import { writeFileAtomic } from '../user-file.js';

/** File in the user-data folder (the console's own; a broken one is simply replaced). */
export const ERA_NEEDS_FILE = 'tool-eras.json';

const NeedSchema = z.object({
  needs: z.enum(['legacy', 'modern']),
  /** `failure`: learned from the server's error; `person`: set on the Servers screen. */
  learned: z.enum(['failure', 'person']),
  /** The server's message it was learned from (or a note). */
  detail: z.string(),
  /** Epoch ms. */
  at: z.number(),
});
/** What the console knows about one tool's era. */
export type EraNeed = z.infer<typeof NeedSchema>;
const FileSchema = z.record(z.string(), z.record(z.string(), NeedSchema));

/**
 * Failures that say "this tool needs the other era", by package:
 * - `mcp` 2.x on 2026-07-28, push style: -32600 "… no back-channel for server-initiated requests";
 * - `fastmcp` 4.x on 2026-07-28, `ctx.elicit`: "elicitation via server-initiated requests is
 *   unavailable on 2026-07-28 connections";
 * - the v2 TypeScript SDK on 2026-07-28, push style: "Server-to-client requests are not available
 *   on protocol revision 2026-07-28 …";
 * - `fastmcp` 4.x on 2025-11-25, guard style: "returned an InputRequiredResult … only exists at
 *   MCP 2026-07-28" ({@link GUARD_REFUSAL}).
 */
const SIGNATURES: Array<{ needs: ProtocolEra; test: RegExp }> = [
  { needs: 'legacy', test: /no back-channel/i },
  { needs: 'legacy', test: /server-initiated requests? (?:is |are )?unavailable on 2026-07-28/i },
  { needs: 'legacy', test: /server-to-client requests are not available on protocol revision 2026/i },
  { needs: 'modern', test: /only exists at MCP 2026-07-28/i },
];

/**
 * The framework's refusal of a guard-style tool on a 2025-11-25 connection (`fastmcp` 4.x): a
 * JSON-RPC error -32602 raised after the tool returned its `InputRequiredResult`, which no tool
 * code can catch. Such a tool is built to be called again (every input round calls it again).
 */
const GUARD_REFUSAL = { code: -32602, test: /returned an InputRequiredResult\b.*\bonly exists at MCP 2026-07-28/is };

/** A failed call as the console saw it: a JSON-RPC error, or a tool result flagged `isError`. */
export interface CallFailure {
  error?: { code?: number; message: string };
  result?: { isError?: boolean; content?: unknown[] };
}

/** The text of a failure: the error's message, or the text blocks of an `isError` result. */
function failureText(f: CallFailure): string {
  if (f.error) return f.error.message;
  if (!f.result?.isError) return '';
  return (f.result.content ?? [])
    .map((b) => (typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text ?? '') : ''))
    .join('\n');
}

/** The era a failed call says its tool needs, with the message that says so; undefined for other failures. */
export function recogniseEraMismatch(f: CallFailure): { needs: ProtocolEra; detail: string } | undefined {
  const text = failureText(f);
  if (!text) return undefined;
  const hit = SIGNATURES.find((s) => s.test.test(text));
  return hit && { needs: hit.needs, detail: text.slice(0, 500) };
}

/**
 * Whether a failed call is to be made again at once, without asking, on a 2026-07-28 session:
 * exactly the framework's refusal of a guard-style tool ({@link GUARD_REFUSAL}), as a JSON-RPC
 * error — not a tool's own `isError` result, nor any other failure.
 */
export function callsAgain(f: CallFailure): boolean {
  return f.error?.code === GUARD_REFUSAL.code && GUARD_REFUSAL.test.test(f.error.message);
}

/**
 * A push-style refusal that the tool caught and returned as its own text (`except Exception as e:
 * return f"Error: {e}"`, common in real servers): a "needs 2025-11-25" signature in any text block
 * of a result, flagged `isError` or not. Only the bridge acts on it — its host must never see an
 * era refusal, and behind a 2026-07-28 host nothing else tells it — by calling the tool again on a
 * 2025-11-25 session; a tool that merely quotes these words is then called once more.
 */
export function recogniseCaughtRefusal(result: { content?: unknown[] } | undefined): { needs: ProtocolEra; detail: string } | undefined {
  const hit = recogniseEraMismatch({ result: { isError: true, content: result?.content ?? [] } });
  return hit?.needs === 'legacy' ? hit : undefined;
}

/** The remembered needs, by server and tool. */
export interface EraNeeds {
  get(serverId: string, tool: string): EraNeed | undefined;
  /** Every tool of `serverId` with a known need. */
  forServer(serverId: string): Record<string, EraNeed>;
  /** Records (or, with `undefined`, forgets) a tool's need; written at once. */
  set(serverId: string, tool: string, need: EraNeed | undefined): void;
}

/** Opens `tool-eras.json` in `dir` (missing or unreadable: nothing known yet). */
export function openEraNeeds(dir: string): EraNeeds {
  const path = join(dir, ERA_NEEDS_FILE);
  let data: Record<string, Record<string, EraNeed>> = {};
  try {
    const parsed = FileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (parsed.success) data = parsed.data;
  } catch {
    // no file yet, or not ours to keep: it is rebuilt as tools are called
  }
  return {
    get: (serverId, tool) => data[serverId]?.[tool],
    forServer: (serverId) => ({ ...(data[serverId] ?? {}) }),
    set(serverId, tool, need) {
      const tools = { ...(data[serverId] ?? {}) };
      if (need) tools[tool] = need;
      else delete tools[tool];
      data = { ...data, [serverId]: tools };
      writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
    },
  };
}
