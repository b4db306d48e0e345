/**
 * A linear-time replacement for the SDK's stdio `ReadBuffer`. The SDK's buffer concatenates every
 * chunk onto the whole pending message and rescans it for a newline from the start, which is
 * quadratic: a 16 MB message (a 12 MB image in base64) arrives in ~256 chunks of 64 KB and took
 * seconds of blocked event loop here (minutes on a loaded machine). This one keeps the chunks of
 * the pending line in a list, looks for the newline only in each new chunk, and joins once.
 *
 * Same contract as the SDK's: `append(chunk)` (throws past `maxBufferSize` bytes), `readMessage()`
 * (the next parsed JSON-RPC message or null; non-JSON lines are skipped), `clear()`.
 *
 * A line of {@link BIG_PAYLOAD} bytes or more (a 25 MB sampling request) is parsed on the offload
 * worker when one is given: `readMessage()` returns null until it is parsed, then `onReady` asks the
 * transport to read again. Messages keep their order: nothing after a big line is read before it.
 */
import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { BIG_PAYLOAD, type Offload } from '../offload/offload.js';
import type { ParsedLine } from '../offload/tasks.js';

/** The buffer's interface, as StdioClientTransport uses it. */
export interface MessageBuffer {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

/** How big lines are parsed: the offload, and what to call once one is parsed. */
export interface BigLines {
  offload: Offload;
  onReady(): void;
}

/** A big line being parsed off the event loop. */
interface Parsing {
  done?: ParsedLine;
}

/** A big line still in the chunks it arrived in (joined on the worker, not here). */
interface Parts {
  parts: Buffer[];
}

/**
 * What one buffer keeps: the chunks of the line still arriving (`pending`, `pendingBytes` bytes in
 * all) and the complete lines not read yet, in order (a small line joined; a big one still in its
 * chunks, or being parsed on the worker).
 */
interface LineBufferState {
  readonly maxBufferSize: number;
  readonly big: BigLines | undefined;
  pending: Buffer[];
  pendingBytes: number;
  readonly lines: Array<Buffer | Parts | Parsing>;
}

/**
 * Creates a line buffer.
 * @param maxBufferSize bytes a single pending message may reach before `append` throws
 * @param big where lines of {@link BIG_PAYLOAD} bytes or more are parsed (absent: inline)
 */
export function createLineBuffer(maxBufferSize: number, big?: BigLines): MessageBuffer {
  const st: LineBufferState = { maxBufferSize, big, pending: [], pendingBytes: 0, lines: [] };
  return {
    append: (chunk) => append(st, chunk),
    readMessage: () => readMessage(st),
    clear: () => clear(st),
  };
}

/**
 * {@link MessageBuffer.append}: ends the pending line at each newline of `chunk` (a big one kept in
 * its chunks when there is an offload), and keeps the rest as pending.
 * @throws Error "ReadBuffer exceeded maximum size of N bytes" when the pending line would pass
 *   `maxBufferSize` bytes (the buffer is cleared first)
 */
function append(st: LineBufferState, chunk: Buffer): void {
  const { big, lines } = st;
  let start = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
    const pending = st.pending;
    pending.push(chunk.subarray(start, nl));
    if (big && st.pendingBytes + nl - start >= BIG_PAYLOAD) lines.push({ parts: pending });
    else lines.push(pending.length === 1 ? pending[0]! : Buffer.concat(pending));
    st.pending = [];
    st.pendingBytes = 0;
    start = nl + 1;
  }
  if (start < chunk.length) {
    if (st.pendingBytes + chunk.length - start > st.maxBufferSize) {
      clear(st);
      throw new Error(`ReadBuffer exceeded maximum size of ${st.maxBufferSize} bytes`);
    }
    st.pending.push(chunk.subarray(start));
    st.pendingBytes += chunk.length - start;
  }
}

/**
 * {@link MessageBuffer.readMessage}: the next JSON-RPC message, or null when there is none yet (or
 * the line at the head is still being parsed). Lines that are not JSON are skipped.
 * @throws the JSON-RPC message schema's validation error for a line that is JSON but not a JSON-RPC
 *   message (as the SDK's buffer does)
 */
function readMessage(st: LineBufferState): JSONRPCMessage | null {
  const { big, lines } = st;
  while (lines.length > 0) {
    const head = lines[0]!;
    if ('parts' in head) {
      lines[0] = parseLater(st, head.parts);
      continue;
    }
    if (!Buffer.isBuffer(head)) {
      if (!head.done) return null; // still parsing; onReady reads on
      lines.shift();
      if (!head.done.ok) continue;
      big!.offload.held(head.done.value, head.done.held);
      return JSONRPCMessageSchema.parse(head.done.value) as JSONRPCMessage;
    }
    if (big && head.length >= BIG_PAYLOAD) {
      lines[0] = parseLater(st, [head]);
      continue;
    }
    lines.shift();
    const line = head.toString('utf8').replace(/\r$/, '');
    try {
      return deserializeMessage(line);
    } catch (error) {
      if (error instanceof SyntaxError) continue;
      throw error;
    }
  }
  return null;
}

/** Starts parsing the big line at the head; `onReady` once it is done (unless cleared meanwhile). */
function parseLater(st: LineBufferState, parts: Buffer[]): Parsing {
  const { big, lines } = st;
  const slot: Parsing = {};
  // A chunk that is its whole buffer is moved to the worker, not copied; joining or copying
  // 25 MB here took ~0.1 s each. The others (a chunk shared with the next line) are copied.
  const owned = parts.filter((p) => p.byteOffset === 0 && p.byteLength === p.buffer.byteLength && p.buffer instanceof ArrayBuffer);
  big!.offload.run('parseJsonLine', parts, owned.map((p) => p.buffer as ArrayBuffer)).then(
    (done) => {
      slot.done = done;
      if (lines[0] === slot) big!.onReady();
    },
    () => {
      slot.done = { ok: false };
      if (lines[0] === slot) big!.onReady();
    },
  );
  return slot;
}

/** {@link MessageBuffer.clear}: drops the pending line and every line not read yet. */
function clear(st: LineBufferState): void {
  st.pending = [];
  st.pendingBytes = 0;
  st.lines.length = 0;
}

/**
 * Swaps the SDK transport's private read buffer for {@link createLineBuffer} (the transport only
 * calls append/readMessage/clear on it, and reads on through its `processReadBuffer`). Returns
 * whether the swap was possible, so a future SDK that renames the fields degrades to its own
 * buffer instead of breaking. With `offload`, big lines are parsed on the worker.
 */
export function useLinearReadBuffer(transport: object, maxBufferSize: number, offload?: Offload): boolean {
  const t = transport as { _readBuffer?: unknown; processReadBuffer?: () => void };
  if (!t._readBuffer || typeof (t._readBuffer as MessageBuffer).readMessage !== 'function') return false;
  const readOn = typeof t.processReadBuffer === 'function' ? () => t.processReadBuffer!() : undefined;
  t._readBuffer = createLineBuffer(maxBufferSize, offload && readOn ? { offload, onReady: readOn } : undefined);
  return true;
}
