/**
 * Per-server logs: a bounded ring buffer, the protocol log fed by a transport wrapper (direction,
 * kind, method, id, size and time of every JSON-RPC message — never its body, which may hold
 * anything), and the stderr log of a stdio server.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { ProtocolLogEntry, ServerLogPage, StderrEntry } from '../../shared/contract/servers.js';
import { SERVER_LOG_CAPACITY } from '../../shared/contract/servers.js';

/** A fixed-capacity FIFO: pushing past `capacity` drops the oldest entry. */
export class RingBuffer<T> {
  private items: T[] = [];
  private start = 0;
  /** Entries ever pushed. */
  total = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  push(item: T): void {
    this.total++;
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Entries oldest first. */
  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }

  clear(): void {
    this.items = [];
    this.start = 0;
  }
}

/** The two logs of one server. */
export class ServerLog {
  readonly protocol = new RingBuffer<ProtocolLogEntry>(SERVER_LOG_CAPACITY);
  readonly stderr = new RingBuffer<StderrEntry>(SERVER_LOG_CAPACITY);

  constructor(private readonly now: () => number = Date.now) {}

  addProtocol(entry: Omit<ProtocolLogEntry, 'seq' | 'at'>): void {
    this.protocol.push({ seq: this.protocol.total + 1, at: this.now(), ...entry });
  }

  addStderr(text: string): void {
    this.stderr.push({ seq: this.stderr.total + 1, at: this.now(), text });
  }

  /**
   * The logs filtered by `query` (case-insensitive substring of method, id, kind, direction, error
   * or stderr text), the newest `limit` of each.
   */
  page(query = '', limit = SERVER_LOG_CAPACITY): ServerLogPage {
    const q = query.trim().toLowerCase();
    const protocol = this.protocol
      .toArray()
      .filter((e) => !q || [e.direction, e.kind, e.method, e.id, e.error?.message, e.error?.code].some((v) => v !== undefined && String(v).toLowerCase().includes(q)));
    const stderr = this.stderr.toArray().filter((e) => !q || e.text.toLowerCase().includes(q));
    return { protocol: protocol.slice(-limit), stderr: stderr.slice(-limit), totals: { protocol: this.protocol.total, stderr: this.stderr.total } };
  }
}

type JsonRpcLike = { id?: string | number; method?: string; error?: { code?: unknown; message?: unknown }; result?: unknown };

/**
 * The length of `value` as JSON, without serialising it (a 16 MB image must not be copied once more
 * just to be measured): string lengths plus quotes, numbers, punctuation. Escapes and multi-byte
 * characters are not counted, so for text that is not plain ASCII this is a lower bound.
 */
export function approxJsonSize(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 4;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value).length;
    case 'object': {
      if (depth > 64) return 0;
      // Brackets, and a comma between items (one fewer than the items).
      if (Array.isArray(value)) return value.reduce((n: number, v) => n + approxJsonSize(v, depth + 1) + 1, value.length ? 1 : 2);
      let n = 2;
      let items = 0;
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        n += k.length + 3 + approxJsonSize(v, depth + 1); // "key": value
        items++;
      }
      return n + Math.max(0, items - 1);
    }
    default:
      return 0;
  }
}

/** Describes one JSON-RPC message for the log; `methods` maps request ids to methods per direction. */
function describe(message: unknown, direction: 'in' | 'out', methods: Map<string, string>): Omit<ProtocolLogEntry, 'seq' | 'at'> {
  const m = (typeof message === 'object' && message !== null ? message : {}) as JsonRpcLike;
  const size = approxJsonSize(message);
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  if (typeof m.method === 'string') {
    if (id === undefined) return { direction, kind: 'notification', method: m.method, size };
    // Requests we send are answered by the server and vice versa: key by who sent the request.
    methods.set(`${direction}:${id}`, m.method);
    if (methods.size > 5000) methods.delete(methods.keys().next().value!);
    return { direction, kind: 'request', method: m.method, id, size };
  }
  const requester = direction === 'in' ? 'out' : 'in';
  const method = id === undefined ? undefined : methods.get(`${requester}:${id}`);
  if (id !== undefined) methods.delete(`${requester}:${id}`);
  if (m.error) {
    const code = typeof m.error.code === 'number' ? m.error.code : 0;
    const text = typeof m.error.message === 'string' ? m.error.message.slice(0, 500) : '';
    return { direction, kind: 'error', method, id, size, error: { code, message: text } };
  }
  return { direction, kind: 'response', method, id, size };
}

/**
 * Wraps a transport so every message sent and received is recorded with `record`. The wrapper
 * forwards everything else (start, close, sessionId, setProtocolVersion, …) to the transport, so
 * the SDK sees the same object it would otherwise.
 */
export function withProtocolLog<T extends Transport>(transport: T, record: (entry: Omit<ProtocolLogEntry, 'seq' | 'at'>) => void): T {
  const methods = new Map<string, string>();
  const safeRecord = (message: unknown, direction: 'in' | 'out') => {
    try {
      record(describe(message, direction, methods));
    } catch {
      // logging must never break the connection
    }
  };
  const send = (message: Parameters<Transport['send']>[0], options?: Parameters<Transport['send']>[1]) => {
    safeRecord(message, 'out');
    return transport.send(message, options);
  };
  // The SDK reads methods off the transport for every message: bind each once (again only if the
  // transport replaced it) instead of on every read.
  const bound = new Map<PropertyKey, { of: (...a: unknown[]) => unknown; fn: (...a: unknown[]) => unknown }>();
  return new Proxy(transport, {
    get(target, prop) {
      if (prop === 'send') return send;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const known = bound.get(prop);
      if (known?.of === value) return known.fn;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, { of: value as (...a: unknown[]) => unknown, fn });
      return fn;
    },
    set(target, prop, value: unknown) {
      if (prop === 'onmessage' && typeof value === 'function') {
        const handler = value as NonNullable<Transport['onmessage']>;
        const wrapped: Transport['onmessage'] = (message, extra) => {
          safeRecord(message, 'in');
          handler(message, extra);
        };
        return Reflect.set(target, prop, wrapped);
      }
      return Reflect.set(target, prop, value);
    },
  });
}
