/**
 * Newline-delimited text in linear time: chunks of the pending line are kept in a list, each new
 * chunk is searched for newlines once, and a line is joined once when complete.
 */

/** Splits a byte stream into lines (without the `\n`; a trailing `\r` is kept). */
export interface LineSplitter {
  /**
   * Adds a chunk; calls `onLine` for every line it completes.
   * @throws Error when the pending line grows past the limit (the stream should be closed)
   */
  push(chunk: Buffer): void;
}

/** Creates a splitter calling `onLine` per complete line; lines above `maxBytes` bytes throw. */
export function createLineSplitter(maxBytes: number, onLine: (line: string) => void): LineSplitter {
  let parts: Buffer[] = [];
  let pending = 0;
  return {
    push(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
        parts.push(chunk.subarray(start, nl));
        const line = parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
        parts = [];
        pending = 0;
        start = nl + 1;
        if (line.length > 0) onLine(line);
      }
      if (start < chunk.length) {
        pending += chunk.length - start;
        if (pending > maxBytes) throw new Error(`a message is longer than ${maxBytes} bytes`);
        parts.push(chunk.subarray(start));
      }
    },
  };
}
