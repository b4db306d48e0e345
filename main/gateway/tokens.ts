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
 *
 * On a team server the named tokens live in the team's database instead (main/team/tokens.ts,
 * the same {@link GatewayTokens} interface): hashes only, each token shown once at creation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { ApiError } from '../../shared/contract/api.js';
import { GatewayTokenNameSchema, tokenCallerId, type GatewayCaller, type GatewayTokenView } from '../../shared/contract/gateway.js';
import type { PersonalTokenUse } from '../../shared/contract/personal-tokens.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { personActing } from '../audit/actor.js';
import type { AuditRecorder } from '../audit/trail.js';
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
  /** A team server's personal token: whose it is and what it may do (main/team/personal-tokens.ts). */
  personal?: PersonalTokenUse;
}

/** The gateway's tokens. */
export interface GatewayTokens {
  /** The port gateway.json asks for, else {@link DEFAULT_GATEWAY_PORT}. */
  port(): number;
  /** Problems reading gateway.json (shown as a notice), if any. */
  problem?: string;
  /**
   * Set when a named token is shown only once, at creation ({@link GatewayTokens.reveal} always
   * refuses): a team server keeps hashes only.
   */
  shownOnce?: true;
  /** `serverId`'s token for this console run (made on first ask). */
  forServer(serverId: string): string;
  /**
   * Who holds `token`, or undefined for an unknown or revoked one; a named token's use is counted.
   * @throws (rejects) HistoryUnavailableError when the team's database cannot be reached (a team server)
   */
  holder(token: string, now: number): Promise<TokenHolder | undefined>;
  /**
   * Creates a named token and returns it. When gateway.json is refused or cannot be written, the
   * token is not kept in the secret store either. Creations run one after another.
   * @throws ApiError invalid_input (bad or taken name), invalid_state (gateway.json is broken);
   *   the fs error when gateway.json cannot be written; the secret store's error when it cannot keep the token
   */
  create(name: string, now: number): Promise<string>;
  /** @throws ApiError not_found (no such token, or the secret store no longer has it) */
  reveal(name: string): Promise<string>;
  /** Revokes a named token: calls with it are refused from now on. @throws ApiError not_found, invalid_state */
  revoke(name: string): Promise<void>;
  views(): GatewayTokenView[];
  /**
   * Calls `listener` when the named tokens or their use changed other than through this object's
   * own `create`/`revoke` (another instance of a team server); returns the unsubscribe. Absent:
   * nothing else changes them.
   */
  onChange?(listener: () => void): () => void;
  /** Stops following changes made elsewhere (a team server); idempotent. */
  close?(): void;
}

/** Hex SHA-256 of a token: what is stored and looked up. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** A new token: `mcpgw_` + 32 random bytes, base64url. */
export const newToken = (): string => `mcpgw_${randomBytes(32).toString('base64url')}`;

/** The per-run tokens of the servers the console launches with `providerGateway` (in memory only). */
export interface ServerTokens {
  /** `serverId`'s token for this run, made on first ask. */
  forServer(serverId: string): string;
  /** The server whose token has SHA-256 `hash`, if any. */
  serverOf(hash: string): string | undefined;
}

/** New, empty {@link ServerTokens}. */
export function createServerTokens(): ServerTokens {
  const byServer = new Map<string, string>();
  const serverOf = new Map<string, string>();
  return {
    forServer(serverId) {
      let token = byServer.get(serverId);
      if (!token) {
        token = newToken();
        byServer.set(serverId, token);
        serverOf.set(sha256(token), serverId);
      }
      return token;
    },
    serverOf: (hash) => serverOf.get(hash),
  };
}

/** The port `dir/gateway.json` asks for (else {@link DEFAULT_GATEWAY_PORT}), and why the file could not be read, if it could not. */
export function gatewayFileSettings(dir: string): { port: number; problem?: string } {
  const read = readUserFile(join(dir, GATEWAY_FILE), spec);
  if (read.state === 'broken') return { port: DEFAULT_GATEWAY_PORT, problem: read.problems.join('; ') };
  return { port: (read.state === 'ok' ? read.value.port : undefined) ?? DEFAULT_GATEWAY_PORT };
}

/** Checks a new named token's name. @throws ApiError invalid_input naming what is wrong */
export function checkTokenName(name: string): void {
  const parsed = GatewayTokenNameSchema.safeParse(name);
  if (!parsed.success) throw new ApiError('invalid_input', ui('error.gatewayTokenName', { why: parsed.error.issues[0]?.message ?? 'invalid' }));
}

/**
 * What one opening keeps: gateway.json as last read or written, each server's token for this run
 * (and the server of each such token's hash), and each named token's use since the start.
 */
interface TokensState {
  readonly path: string;
  readonly secrets: SecretStore;
  file: GatewayFile;
  readonly servers: ServerTokens;
  readonly use: Map<string, { calls: number; lastUsedAt?: number }>;
  /** The last token creation started: creations run one after another (each awaits the secret store). */
  creating: Promise<unknown>;
  /** Where named tokens made and revoked are recorded (main/audit). */
  readonly audit: AuditRecorder | undefined;
}

/**
 * Opens the tokens of `dir/gateway.json` (missing: none yet). `audit`: where named tokens made
 * and revoked are recorded (`token.created`, `token.revoked`: the name and the token's SHA-256,
 * never the token). Never throws.
 */
export function openGatewayTokens(dir: string, secrets: SecretStore, audit?: AuditRecorder): GatewayTokens {
  const path = join(dir, GATEWAY_FILE);
  const read = readUserFile(path, spec);
  const problem = read.state === 'broken' ? read.problems.join('; ') : undefined;
  const st: TokensState = { path, secrets, file: read.state === 'ok' ? read.value : { tokens: [] }, servers: createServerTokens(), use: new Map(), creating: Promise.resolve(), audit };
  return {
    port: () => st.file.port ?? DEFAULT_GATEWAY_PORT,
    ...(problem && { problem }),
    forServer: (serverId) => st.servers.forServer(serverId),
    holder: async (token, now) => holder(st, token, now),
    create: (name, now) => {
      // One at a time: two creations of one name both passed the name check before either saved,
      // and the second overwrote the first's secret.
      const made = st.creating.then(() => create(st, name, now));
      st.creating = made.catch(() => undefined);
      return made;
    },
    reveal: (name) => reveal(st, name),
    revoke: (name) => revoke(st, name),
    views: () => views(st),
  };
}

/** Writes `next` over gateway.json (re-read first: a file broken meanwhile is never written over). @throws ApiError invalid_state when the file is broken; the fs error when it cannot be written */
function save(st: TokensState, next: GatewayFile): void {
  const now = readUserFile(st.path, spec);
  if (now.state === 'broken') throw brokenFileError(GATEWAY_FILE, now.problems);
  st.file = writeUserFile(st.path, spec, next);
}

/** The stored named token `name`. @throws ApiError not_found */
function named(st: TokensState, name: string): GatewayFile['tokens'][number] {
  const found = st.file.tokens.find((t) => t.name === name);
  if (!found) throw new ApiError('not_found', ui('error.noGatewayToken', { name }));
  return found;
}

/** {@link GatewayTokens.holder}: a server's token first, then a named one (its use counted at `now`, epoch ms). */
function holder(st: TokensState, token: string, now: number): TokenHolder | undefined {
  const hash = sha256(token);
  const serverId = st.servers.serverOf(hash);
  if (serverId) return { serverId, caller: { kind: 'server' } };
  const stored = st.file.tokens.find((t) => t.sha256 === hash);
  if (!stored) return undefined;
  const u = st.use.get(stored.name) ?? { calls: 0 };
  st.use.set(stored.name, { calls: u.calls + 1, lastUsedAt: now });
  return { serverId: tokenCallerId(stored.name), caller: { kind: 'token', name: stored.name } };
}

/**
 * {@link GatewayTokens.create}: keeps the token in the secret store, then its hash in gateway.json.
 * When gateway.json is refused or cannot be written, the token is deleted from the secret store
 * again (nothing would point to it) and the write's error is thrown.
 */
async function create(st: TokensState, name: string, now: number): Promise<string> {
  checkTokenName(name);
  if (st.file.tokens.some((t) => t.name === name)) throw new ApiError('invalid_input', ui('error.gatewayTokenTaken', { name }));
  const token = newToken();
  const secretName = gatewayTokenSecretName(name);
  await st.secrets.set(secretName, token);
  try {
    save(st, { ...st.file, tokens: [...st.file.tokens, { name, createdAt: now, sha256: sha256(token) }] });
  } catch (err) {
    // The write's error is what the person needs to see; a failed clean-up leaves only a secret
    // nothing points to, which the next token of this name replaces.
    await st.secrets.delete(secretName).catch(() => undefined);
    throw err;
  }
  st.audit?.record({ actor: personActing(), kind: 'token.created', subject: `token:${name}`, details: { tokenKind: 'gateway', sha256: sha256(token) } });
  return token;
}

/** {@link GatewayTokens.reveal}: the named token from the secret store. */
async function reveal(st: TokensState, name: string): Promise<string> {
  named(st, name);
  const token = await st.secrets.get(gatewayTokenSecretName(name));
  if (!token) throw new ApiError('not_found', ui('error.gatewayTokenLost', { name }));
  return token;
}

/** {@link GatewayTokens.revoke}: removes it from gateway.json, forgets its use, then deletes it from the secret store. */
async function revoke(st: TokensState, name: string): Promise<void> {
  const stored = named(st, name);
  save(st, { ...st.file, tokens: st.file.tokens.filter((t) => t.name !== name) });
  st.audit?.record({ actor: personActing(), kind: 'token.revoked', subject: `token:${name}`, details: { tokenKind: 'gateway', sha256: stored.sha256 } });
  st.use.delete(name);
  await st.secrets.delete(gatewayTokenSecretName(name));
}

/** {@link GatewayTokens.views}: each named token with its calls and last use this run. */
function views(st: TokensState): GatewayTokenView[] {
  const { use } = st;
  return st.file.tokens.map((t) => ({ name: t.name, createdAt: t.createdAt, calls: use.get(t.name)?.calls ?? 0, ...(use.get(t.name)?.lastUsedAt !== undefined && { lastUsedAt: use.get(t.name)!.lastUsedAt }) }));
}
