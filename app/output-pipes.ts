/**
 * A host whose output is gone keeps working: a headless console outlives the agent host or
 * terminal that read its stdout and stderr, and a write to a pipe with no reader fails (EPIPE).
 * Unhandled, that failure is an exception that ends the process at once — on SIGTERM before its
 * shutdown ran, leaving `console.lock`, `server-processes.json` and server processes behind.
 */

/**
 * Makes writes to `streams` (default: stdout and stderr) harmless once their reader is gone: the
 * stream's `error` event (EPIPE and the like) is absorbed, and the stream is left alone from then
 * on. Idempotent per stream.
 */
export function tolerateClosedOutput(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (tolerant.has(stream)) continue;
    tolerant.add(stream);
    stream.on('error', () => {
      // The reader is gone: nothing more can be said there, and nothing else depends on it.
    });
  }
}

const tolerant = new WeakSet<NodeJS.WriteStream>();

/** Writes `text` to `stream`, never throwing (a write to a closed or destroyed stream is dropped). */
export function writeQuietly(stream: NodeJS.WriteStream, text: string): void {
  try {
    if (!stream.destroyed && stream.writable) stream.write(text);
  } catch {
    // the reader is gone
  }
}
