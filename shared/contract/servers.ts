/**
 * The servers part of the contract: the editable form of one `mcpServers` entry (what the Servers
 * screen sends to add / edit a server, validated by the same zod schema in the renderer and in
 * main), the per-server logs, and the import preview. Plain data and zod only (no Node, no DOM).
 */
import { z } from 'zod';
import { UI_TEXTS } from './ui-text-catalog.js';
import type { UiText } from './ui-text.js';

/** A server's name: the key under `mcpServers`. */
export const ServerNameSchema = z
  .string()
  .min(1, UI_TEXTS['schema.nameRequired'])
  .max(100, UI_TEXTS['schema.nameMax'])
  .refine((s) => s.trim() === s, UI_TEXTS['schema.nameSpaces'])
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), UI_TEXTS['schema.nameControl']);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** An http(s) URL with a host (this layer has no `URL`: shared code runs without DOM or Node types). */
const HTTP_URL = /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[^\s/?#:@[\]]+)(:\d{1,5})?([/?#]\S*)?$/i;
/** An absolute path on any OS: `/x`, `~/x`, `C:\x`, `C:/x`, `\\server\share`. */
const ABSOLUTE_PATH = /^(\/|~[/\\]|~$|[A-Za-z]:[\\/]|\\\\)/;

/** A record check that reports a bad key at its own path (`env.1ABC: …`). */
const keysMatch =
  (pattern: RegExp, message: string) =>
  (rec: Record<string, string>, ctx: z.RefinementCtx): void => {
    for (const key of Object.keys(rec)) if (!pattern.test(key)) ctx.addIssue({ code: 'custom', path: [key], message });
  };

const common = {
  disabled: z.boolean().optional(),
  timeoutMs: z.number().int(UI_TEXTS['schema.timeoutWhole']).min(1000, UI_TEXTS['schema.timeoutMin']).max(86_400_000, UI_TEXTS['schema.timeoutMax']).optional(),
  maxToolRounds: z.number().int(UI_TEXTS['schema.roundsWhole']).min(1, UI_TEXTS['schema.roundsMin']).max(1000, UI_TEXTS['schema.roundsMax']).optional(),
  protocol: z
    .string()
    .regex(/^(auto|legacy|\d{4}-\d{2}-\d{2})$/, UI_TEXTS['schema.protocol'])
    .optional(),
};

/** A stdio server as the editor sends it. */
export const StdioEntryInputSchema = z
  .object({
    transport: z.literal('stdio'),
    command: z
      .string()
      .min(1, UI_TEXTS['schema.commandRequired'])
      .refine((s) => s.trim() === s, UI_TEXTS['schema.commandSpaces'])
      .refine(
        (s) => !/\s/.test(s) || ABSOLUTE_PATH.test(s),
        UI_TEXTS['schema.commandOneProgram'],
      ),
    args: z.array(z.string().max(10_000, UI_TEXTS['schema.argMax'])).max(200, UI_TEXTS['schema.argsMax']).default([]),
    env: z
      .record(z.string(), z.string().max(10_000, UI_TEXTS['schema.envValueMax']))
      .superRefine(keysMatch(ENV_NAME, UI_TEXTS['schema.envName']))
      .default({}),
    cwd: z
      .string()
      .refine((s) => ABSOLUTE_PATH.test(s), UI_TEXTS['schema.cwdAbsolute'])
      .optional(),
    /** Launch it with the console's provider gateway (its LLM calls reviewed like sampling). */
    providerGateway: z.boolean().optional(),
    ...common,
  })
  .strict();

/** An HTTP server (Streamable HTTP, or the deprecated HTTP+SSE transport) as the editor sends it. */
export const HttpEntryInputSchema = z
  .object({
    transport: z.enum(['http', 'sse']),
    url: z
      .string()
      .min(1, UI_TEXTS['schema.urlRequired'])
      .refine((s) => HTTP_URL.test(s), UI_TEXTS['schema.urlFull']),
    headers: z
      .record(
        z.string(),
        // eslint-disable-next-line no-control-regex
        z.string().max(10_000, UI_TEXTS['schema.headerValueMax']).refine((v) => !/[\r\n\u0000]/.test(v), UI_TEXTS['schema.headerOneLine']),
      )
      .superRefine(keysMatch(HEADER_NAME, UI_TEXTS['schema.headerName']))
      .default({}),
    ...common,
  })
  .strict();

/** One server entry as the editor sends it (validated again in main before anything is written). */
export const ServerEntryInputSchema = z.discriminatedUnion('transport', [StdioEntryInputSchema, HttpEntryInputSchema]);
export type ServerEntryInput = z.input<typeof ServerEntryInputSchema>;
export type ServerEntry = z.output<typeof ServerEntryInputSchema>;

/**
 * What a credential-looking value (header `Authorization`, env `API_KEY` …) is replaced with when
 * an entry is sent to the renderer for editing. Sent back unchanged, it means "keep the value in the
 * file".
 */
export const SECRET_PLACEHOLDER = '••••••••';

/** Whether a header or env name looks like it holds a credential (its value is never shown). */
export function looksLikeSecretName(name: string): boolean {
  return /auth|token|secret|passw|pwd|key|cookie|session|credential|bearer/i.test(name);
}

/** One entry of a server's protocol log (no message bodies: they may hold anything). */
export interface ProtocolLogEntry {
  /** Grows by one per entry of this server since the console started. */
  seq: number;
  at: number;
  /** `out`: the console sent it; `in`: the server sent it. */
  direction: 'out' | 'in';
  kind: 'request' | 'response' | 'error' | 'notification';
  /** For responses, the method of the request they answer (when known). */
  method?: string;
  id?: string | number;
  /** Size of the JSON message in bytes, measured without serialising it (escapes and multi-byte characters not counted). */
  size: number;
  /** For error responses: the JSON-RPC error code and message. */
  error?: { code: number; message: string };
}

/** One stderr line of a stdio server. */
export interface StderrEntry {
  seq: number;
  at: number;
  text: string;
}

/** A page of a server's log (`getServerLog`): newest last; `total` counts entries since start. */
export interface ServerLogPage {
  protocol: ProtocolLogEntry[];
  stderr: StderrEntry[];
  /** Entries ever written (the ring buffer keeps the last {@link SERVER_LOG_CAPACITY}). */
  totals: { protocol: number; stderr: number };
}

/** Entries each ring buffer keeps per server. */
export const SERVER_LOG_CAPACITY = 2000;

/** The config formats the console imports. */
/**
 * A host's config format: Claude Desktop, Claude Code (`~/.claude.json`, a project's `.mcp.json`),
 * Windsurf (`mcp_config.json`, remote servers as `serverUrl`), Cursor (`mcpServers`), VS Code (`servers`).
 */
export type ImportFormat = 'claude-desktop' | 'claude-code' | 'windsurf' | 'vscode' | 'cursor';

/** A `${input:id}` variable of a VS Code config that needs a value before the server can be imported. */
export interface ImportInput {
  id: string;
  /** Where its value goes in `importServers({inputs})`: inputs belong to their file (`PATH::ID`). */
  key?: string;
  description?: string;
  /** VS Code's `password: true`: the value is typed hidden (it will be written to mcp-servers.json). */
  password: boolean;
}

/** One server found in a file, and whether it can be imported. */
export interface ImportCandidate {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  /** The command line or URL, for display (credential-looking values masked). */
  target: string;
  /** `new`: can be imported; `duplicate` / `invalid`: skipped, see `reason`. */
  status: 'new' | 'duplicate' | 'invalid';
  /** Why it is skipped, in English. */
  reason?: string;
  /** `reason` as a message code, for the person's language. */
  reasonUi?: UiText;
  /** `${input:…}` variables this entry uses; it is imported only once each has a value. */
  inputs: ImportInput[];
  /** Other variables that cannot be resolved here (e.g. `${workspaceFolder}` of a user file): the entry is `invalid`. */
  unresolved: string[];
  /** Things that will not come along (e.g. VS Code's `envFile`). */
  warnings: string[];
  /** Env / header names whose values are masked in `target` and the preview. */
  maskedKeys: string[];
  /** The host's entry already launches the console's bridge ("Route through the console"; not importable). */
  routed?: boolean;
}

/** A config file of another host, found (or looked for) in its standard place. */
export interface ImportSource {
  format: ImportFormat;
  /** Human label in English, e.g. "Claude Desktop", "VS Code (user)". */
  label: string;
  /** `label` as a message code. */
  labelUi?: UiText;
  path: string;
  found: boolean;
  /** Why the file could not be read (with its line for JSON errors), in English. */
  error?: string;
  /** `error` as a message code. */
  errorUi?: UiText;
  /** SHA-256 (hex) of the file's text as read: `routeServer` refuses to write when the file changed since. */
  digest?: string;
  candidates: ImportCandidate[];
}

/** What `scanImports` returns. */
export interface ImportScan {
  sources: ImportSource[];
}

/** An entry of a host's config file the console routed through its bridge (undo with `unrouteServer`). */
export interface HostRouteView {
  id: string;
  format: ImportFormat;
  /** The host's config file. */
  path: string;
  /** The server's name in that file. */
  name: string;
  /** When it was routed, epoch ms. */
  at: number;
}

/** What `importServers` returns: names written, and those skipped with a reason. */
export interface ImportOutcome {
  imported: string[];
  skipped: Array<{ name: string; reason: string; reasonUi?: UiText }>;
}
