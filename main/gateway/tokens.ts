/**
 * Who may call the provider gateway, and as whom. Two kinds of token:
 *
 * - a server's token: made for each stdio server whose entry has `providerGateway` on, once per
 *   console run, and given to it at launch as `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`; its calls
 *   are queued under that server's id (its rules, limits and budgets apply);
 * - a named token, created in Settings for any other caller (a script, an agent): listed with its
 *   use, revocable; its calls are queued under `gateway:<name>` (shared/contract/gateway.ts).
 *   `gateway.json` in the user-data folder keeps its name, creation time and SHA-256 — never the
 *   token; the token itself is kept in the secret store (the OS keychain) so Settings can copy it
 *   again. The file follows main/user-file.ts (a broken one is reported and never written over).
 *
 * A token is `mcpgw_` + 32 random bytes (base64url): unguessable, so a lookup by its hash is safe.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { ApiError } from '../../shared/contract/api.js';
import { GatewayTokenNameSchema, tokenCallerId, type GatewayCaller, type GatewayTokenView } from '../../shared/contract/gateway.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { brokenFileError, readUserFile, writeUserFile, type UserFileSpec } from '../user-file.js';

/** File name of the gateway's settings (port, named tokens) inside the user-data folder. */
export const GATEWAY_FILE = 'gateway.json';

/** Default loopback port of the gateway; `port` in gateway.json changes it (0: any free port). */
export const DEFAULT_GATEWAY_PORT = 47615;

const StoredTokenSchema = z.looseObject({ name: GatewayTokenNameSchema, createdAt: z.number(), sha256: z.string().length(64) });

/** `gateway.json`: the port to listen on and the named tokens (hashes only). */
export const GatewayFileSchema = z.looseObject({
  port: z.number().int().min(0).max(65_535).optional(),
  tokens: z.array(StoredTokenSchema).default([]),
});
type GatewayFile = z.output<typeof GatewayFileSchema>;

const spec: UserFileSpec<typeof GatewayFileSchema> = { label: GATEWAY_FILE, schema: GatewayFileSchema };

/** The secret-store name a named token is kept under. */
export const gatewayTokenSecretName = (name: string): string => `gateway-token:${name}`;

/** Who holds a token: the server id its calls are queued under, and what kind of caller it is. */
export interface TokenHolder {
  serverId: string;
  caller: GatewayCaller;
}

/** The gateway's tokens. */
export interface GatewayTokens {
  /** The port gateway.json asks for, else {@link DEFAULT_GATEWAY_PORT}. */
  port(): number;
  /** Problems reading gateway.json (shown as a notice), if any. */
  problem?: string;
  /** `serverId`'s token for this console run (made on first ask). */
  forServer(serverId: string): string;
  /** Who holds `token`, or undefined for an unknown or revoked one; a named token's use is counted. */
  holder(token: string, now: number): TokenHolder | undefined;
  /**
   * Creates a named token and returns it.
   * @throws ApiError invalid_input (bad or taken name), invalid_state (gateway.json is broken)
   */
  create(name: string, now: number): Promise<string>;
  /** @throws ApiError not_found (no such token, or the secret store no longer has it) */
  reveal(name: string): Promise<string>;
  /** Revokes a named token: calls with it are refused from now on. @throws ApiError not_found, invalid_state */
  revoke(name: string): Promise<void>;
  views(): GatewayTokenView[];
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const newToken = (): string => `mcpgw_${randomBytes(32).toString('base64url')}`;

/** Opens the tokens of `dir/gateway.json` (missing: none yet). Never throws. */
export function openGatewayTokens(dir: string, secrets: SecretStore): GatewayTokens {
  const path = join(dir, GATEWAY_FILE);
  const read = readUserFile(path, spec);
  let file: GatewayFile = read.state === 'ok' ? read.value : { tokens: [] };
  const problem = read.state === 'broken' ? read.problems.join('; ') : undefined;
  const byServer = new Map<string, string>();
  const serverOf = new Map<string, string>();
  const use = new Map<string, { calls: number; lastUsedAt?: number }>();

  /** Writes `next` over gateway.json (re-read first: a file broken meanwhile is never written over). */
  const save = (next: GatewayFile) => {
    const now = readUserFile(path, spec);
    if (now.state === 'broken') throw brokenFileError(GATEWAY_FILE, now.problems);
    file = writeUserFile(path, spec, next);
  };
  const named = (name: string) => {
    const found = file.tokens.find((t) => t.name === name);
    if (!found) throw new ApiError('not_found', ui('error.noGatewayToken', { name }));
    return found;
  };

  return {
    port: () => file.port ?? DEFAULT_GATEWAY_PORT,
    ...(problem && { problem }),
    forServer(serverId) {
      let token = byServer.get(serverId);
      if (!token) {
        token = newToken();
        byServer.set(serverId, token);
        serverOf.set(sha256(token), serverId);
      }
      return token;
    },
    holder(token, now) {
      const hash = sha256(token);
      const serverId = serverOf.get(hash);
      if (serverId) return { serverId, caller: { kind: 'server' } };
      const stored = file.tokens.find((t) => t.sha256 === hash);
      if (!stored) return undefined;
      const u = use.get(stored.name) ?? { calls: 0 };
      use.set(stored.name, { calls: u.calls + 1, lastUsedAt: now });
      return { serverId: tokenCallerId(stored.name), caller: { kind: 'token', name: stored.name } };
    },
    async create(name, now) {
      const parsed = GatewayTokenNameSchema.safeParse(name);
      if (!parsed.success) throw new ApiError('invalid_input', ui('error.gatewayTokenName', { why: parsed.error.issues[0]?.message ?? 'invalid' }));
      if (file.tokens.some((t) => t.name === name)) throw new ApiError('invalid_input', ui('error.gatewayTokenTaken', { name }));
      const token = newToken();
      await secrets.set(gatewayTokenSecretName(name), token);
      save({ ...file, tokens: [...file.tokens, { name, createdAt: now, sha256: sha256(token) }] });
      return token;
    },
    async reveal(name) {
      named(name);
      const token = await secrets.get(gatewayTokenSecretName(name));
      if (!token) throw new ApiError('not_found', ui('error.gatewayTokenLost', { name }));
      return token;
    },
    async revoke(name) {
      named(name);
      save({ ...file, tokens: file.tokens.filter((t) => t.name !== name) });
      use.delete(name);
      await secrets.delete(gatewayTokenSecretName(name));
    },
    views: () => file.tokens.map((t) => ({ name: t.name, createdAt: t.createdAt, calls: use.get(t.name)?.calls ?? 0, ...(use.get(t.name)?.lastUsedAt !== undefined && { lastUsedAt: use.get(t.name)!.lastUsedAt }) })),
  };
}
