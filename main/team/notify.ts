/**
 * What one instance tells the others on a team's database: PostgreSQL's LISTEN/NOTIFY on one
 * channel, {@link TEAM_CHANNEL}. A notification only says where to look ("item X changed"); the
 * rows are the truth. An instance that was disconnected may have missed notifications, so after
 * every reconnect the `resync` handlers run: each reads again the rows it cares about.
 *
 * One dedicated connection listens (a pooled one would drop LISTEN when returned). It reconnects
 * with backoff ({@link LISTEN_RETRY_MIN_MS} doubling to {@link LISTEN_RETRY_MAX_MS}) when the
 * server goes away. Publishing goes through the pool (`SELECT pg_notify(…)`); inside a transaction
 * use {@link notifySql} so the notification is delivered only if the transaction commits.
 */
import pg from 'pg';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { Params } from '../store/pg/connection.js';

/** The channel every instance listens on. */
export const TEAM_CHANNEL = 'mcp_console_team';
/** First wait before the listener reconnects, in ms. */
export const LISTEN_RETRY_MIN_MS = 100;
/** Longest wait between two reconnect attempts of the listener, in ms. */
export const LISTEN_RETRY_MAX_MS = 2_000;

/** What a notification is about: a queue item, a decision, the rule book, limits, tokens, an instance, a draft. */
export const TEAM_TOPICS = ['item', 'decision', 'rules', 'limits', 'tokens', 'instance', 'draft', 'claim', 'audit'] as const;
/** See {@link TEAM_TOPICS}. */
export type TeamTopic = (typeof TEAM_TOPICS)[number];

const EventSchema = z.object({ topic: z.enum(TEAM_TOPICS), id: z.string().max(200).optional(), from: z.string().max(100) });
/** One notification: its topic, the row it is about (when one), and the instance that sent it. */
export type TeamEvent = z.infer<typeof EventSchema>;

/** The SQL and parameters that notify `event` (for use inside a transaction: delivered at commit). */
export function notifySql(event: TeamEvent): { text: string; params: Params } {
  return { text: 'SELECT pg_notify($1, $2)', params: [TEAM_CHANNEL, JSON.stringify(event)] };
}

/** The team's notifications as one instance sees them. */
export interface TeamNotifier {
  /** This instance's id now (the `from` of what it publishes). */
  instanceId(): string;
  /** Notifies every instance (this one too) of `event`. @throws (rejects) the pool's error when the database cannot be reached */
  publish(event: Omit<TeamEvent, 'from'>): Promise<void>;
  /** Calls `handler` for each notification of `topic` (from any instance, this one included); returns the unsubscribe. */
  subscribe(topic: TeamTopic, handler: (event: TeamEvent) => void): () => void;
  /** Calls `handler` after the listener reconnected (notifications may have been missed meanwhile); returns the unsubscribe. */
  onResync(handler: () => void): () => void;
  /** Whether the listener is connected now. */
  listening(): boolean;
  /** Stops listening and reconnecting. Idempotent. */
  close(): Promise<void>;
}

/** What {@link startTeamNotifier} needs. */
export interface NotifierOptions {
  /** How to connect (a `postgres://` URL or pg client settings). */
  connection: string | pg.ClientConfig;
  /** This instance's id now (it changes when the instance registers again after a lost lease). */
  instanceId: () => string;
  /** Runs one statement on the pool (publishing). */
  query(text: string, params?: Params): Promise<unknown>;
  logger?: Logger;
}

/**
 * Starts listening; resolves once the first LISTEN is in place.
 * @throws (rejects) the connection's error when the first connection fails
 */
export async function startTeamNotifier(opts: NotifierOptions): Promise<TeamNotifier> {
  const handlers = new Map<TeamTopic, Set<(e: TeamEvent) => void>>();
  const resyncs = new Set<() => void>();
  let client: pg.Client | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const dispatch = (payload: string | undefined) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    const event = EventSchema.safeParse(parsed);
    if (!event.success) return;
    for (const h of handlers.get(event.data.topic) ?? []) h(event.data);
  };
  const connect = async (): Promise<pg.Client> => {
    const base = typeof opts.connection === 'string' ? { connectionString: opts.connection } : opts.connection;
    const c = new pg.Client({ ...base, application_name: 'mcp-approval-console listener', connectionTimeoutMillis: 5_000, keepAlive: true });
    c.on('notification', (n) => n.channel === TEAM_CHANNEL && dispatch(n.payload));
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${TEAM_CHANNEL}`);
      return c;
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
  };
  const retry = (delay: number) => {
    timer = setTimeout(() => {
      timer = undefined;
      if (closed) return;
      connect().then(
        (c) => {
          if (closed) return void c.end().catch(() => undefined);
          client = c;
          opts.logger?.info('team notifications: listening again', { instance: opts.instanceId() });
          for (const fn of resyncs) fn();
        },
        () => retry(Math.min(delay * 2, LISTEN_RETRY_MAX_MS)),
      );
    }, delay);
    timer.unref?.();
  };
  const lost = (c: pg.Client) => {
    if (client !== c || closed) return;
    client = undefined;
    void c.end().catch(() => undefined);
    opts.logger?.warn('team notifications: connection lost; reconnecting', { instance: opts.instanceId() });
    retry(LISTEN_RETRY_MIN_MS);
  };

  client = await connect();
  return {
    instanceId: opts.instanceId,
    async publish(event) {
      const { text, params } = notifySql({ ...event, from: opts.instanceId() });
      await opts.query(text, params);
    },
    subscribe(topic, handler) {
      const set = handlers.get(topic) ?? new Set();
      handlers.set(topic, set);
      set.add(handler);
      return () => void set.delete(handler);
    },
    onResync(handler) {
      resyncs.add(handler);
      return () => void resyncs.delete(handler);
    },
    listening: () => client !== undefined,
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
