/**
 * Team instances for tests: real consoles (createConsole) opened as instances of the team on one
 * PostgreSQL database (main/team/console-ports.ts), each with its own data folder and provider
 * gateway, and helpers to call a gateway and wait on an instance's items.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { TeamDatabase } from '../../main/team/database.js';
import type { LeaseOptions } from '../../main/team/instances.js';
import { teamConsolePorts } from '../../main/team/console-ports.js';
import type { ItemView, SamplingItemView } from '../../shared/contract/state.js';
import { startHarness, type Harness } from './console-harness.js';

/** Fast lease timings, in ms: an instance is found gone within about a second. */
export const FAST_LEASE = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };

/** A console that is an instance of the team on `url`. */
export interface TeamInstance extends Harness {
  /** Its hold on the team database (closed by `dispose`, after the console). */
  team: TeamDatabase;
  /** Its id on the team now. */
  instanceId(): string;
  /** Where its provider gateway listens (`http://127.0.0.1:PORT`). */
  gatewayUrl: string;
  /** A named gateway token made on it. */
  token: string;
}

/** The providers.json of an OpenAI-compatible fake at `baseURL` serving `test-model`. */
export function fakeProviders(baseURL: string): unknown {
  return { providers: [{ id: 'llm', kind: 'openai-compatible', baseURL, models: ['test-model'] }], defaultProvider: 'llm', defaultModel: 'test-model' };
}

/**
 * Starts an instance of the team on `url` whose model provider is `providers` (providers.json).
 * Gateway tokens belong to the team, valid on every instance: the first instance makes the named
 * token `caller`; pass it as `opts.token` to the others.
 */
export async function startTeamInstance(url: string, providers: unknown, opts: { timings?: LeaseOptions['timings']; token?: string; env?: Record<string, string> } = {}): Promise<TeamInstance> {
  const ports = await teamConsolePorts({ url, ...(opts.timings && { timings: opts.timings }) });
  const h = await startHarness({ servers: {}, providers, ...ports, ...(opts.env && { env: opts.env }) });
  const gatewayUrl = (await h.state()).gateway?.url;
  if (!gatewayUrl) throw new Error('the gateway is not listening');
  const token = opts.token ?? (await h.service.createGatewayToken({ name: 'caller' })).token;
  const disposeConsole = h.dispose;
  const dispose = async () => {
    await disposeConsole();
    await ports.team.close(); // the host's part: after the console, as the web host does
  };
  return Object.assign(h, { dispose, team: ports.team, instanceId: () => ports.team.lease.id(), gatewayUrl, token });
}

/** One Chat Completions call to an instance's gateway (not awaited: it waits on a person); `signal` aborts it. */
export function gatewayCall(on: Pick<TeamInstance, 'gatewayUrl' | 'token'>, content: unknown = 'hello team', signal?: AbortSignal): Promise<Response> {
  return fetch(`${on.gatewayUrl}/openai/v1/chat/completions`, {
    method: 'POST',
    ...(signal && { signal }),
    headers: { authorization: `Bearer ${on.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content }], max_tokens: 32 }),
  });
}

/** Waits until `h` shows item `id` (whole) such that `pred` holds; returns it. */
export async function itemOn(h: Harness, id: string, pred: (item: ItemView) => boolean, what: string, timeoutMs = 20_000): Promise<ItemView> {
  const find = () => h.items().find((i) => i.id === id);
  await h.waitFor(() => {
    const item = find();
    return item !== undefined && pred(item);
  }, what, timeoutMs);
  return find()!;
}

/** Waits until `h` holds a provider call awaiting request review with its version; returns it. */
export async function waitingCall(h: Harness, timeoutMs = 20_000): Promise<SamplingItemView> {
  const find = () => h.items().find((i): i is SamplingItemView => i.kind !== 'elicitation' && i.status === 'awaiting_request_review' && i.contentVersion !== undefined);
  await h.waitFor(() => find() !== undefined, 'a call awaiting review', timeoutMs);
  return find()!;
}

/** The item id a Chat Completions answer names (`chatcmpl-<hex>`: main/gateway/wire/ids.ts). */
export function itemIdOfReply(replyId: string): string {
  const hex = replyId.slice('chatcmpl-'.length);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A TCP proxy in front of PostgreSQL: one instance's way to the database, which a test cuts (a network partition). */
export interface DatabaseLink {
  /** `url` with its host and port replaced by the proxy's. */
  url: string;
  /** Cuts every connection, and every new one at once, until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Starts a {@link DatabaseLink} to the database at `url` (a `postgres://` URL on a TCP port). */
export async function databaseLink(url: string): Promise<DatabaseLink> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
