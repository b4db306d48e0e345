/**
 * A linear-time replacement for the SDK's stdio `ReadBuffer`. The SDK's buffer concatenates every
 * chunk onto the whole pending message and rescans it for a newline from the start, which is
 * quadratic: a 16 MB message (a 12 MB image in base64) arrives in ~256 chunks of 64 KB and took
 * seconds of blocked event loop here (minutes on a loaded machine). This one keeps the chunks of
 * the pending line in a list, looks for the newline only in each new chunk, and joins once.
 *
 * Same contract as the SDK's: `append(chunk)` (throws past `maxBufferSize` bytes), `readMessage()`
 * (the next parsed JSON-RPC message or null; non-JSON lines are skipped), `clear()`.
 */
import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

/** The buffer's interface, as StdioClientTransport uses it. */
export interface MessageBuffer {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

/**
 * Creates a line buffer.
 * @param maxBufferSize bytes a single pending message may reach before `append` throws
 */
export function createLineBuffer(maxBufferSize: number): MessageBuffer {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const lines: Buffer[] = [];

  return {
    append(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        pending.push(chunk.subarray(start, nl));
        lines.push(pending.length === 1 ? pending[0]! : Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
        start = nl + 1;
      }
      if (start < chunk.length) {
        if (pendingBytes + chunk.length - start > maxBufferSize) {
          this.clear();
          throw new Error(`ReadBuffer exceeded maximum size of ${maxBufferSize} bytes`);
        }
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
      }
    },
    readMessage() {
      while (lines.length > 0) {
        const line = lines.shift()!.toString('utf8').replace(/\r$/, '');
        try {
          return deserializeMessage(line);
        } catch (error) {
          if (error instanceof SyntaxError) continue;
          throw error;
        }
      }
      return null;
    },
    clear() {
      pending = [];
      pendingBytes = 0;
      lines.length = 0;
    },
  };
}

/**
 * Swaps the SDK transport's private read buffer for {@link createLineBuffer} (the transport only
 * calls append/readMessage/clear on it). Returns whether the swap was possible, so a future SDK
 * that renames the field degrades to its own buffer instead of breaking.
 */
export function useLinearReadBuffer(transport: object, maxBufferSize: number): boolean {
  const t = transport as { _readBuffer?: unknown };
  if (!t._readBuffer || typeof (t._readBuffer as MessageBuffer).readMessage !== 'function') return false;
  t._readBuffer = createLineBuffer(maxBufferSize);
  return true;
}
