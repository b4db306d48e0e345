/**
 * The bridge's side toward the agent host: the host runs the bridge as a stdio MCP server, so
 * messages arrive as JSON lines on stdin and leave as JSON lines on stdout. Lines are parsed with
 * `JSON.parse` only — the bridge forwards what it does not intercept unchanged, and the real
 * server judges it. Non-JSON lines are dropped (with a note on stderr).
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { BRIDGE_MAX_LINE_BYTES } from '../../shared/contract/bridge-protocol.js';
import { createLineSplitter } from './lines.js';

/**
 * A Transport over a line-delimited pair of streams (the process's stdin/stdout by default).
 * `send` writes at once and resolves (stream order is message order); `onclose` fires once,
 * when the input ends or `close` is called.
 */
export function createHostStdioTransport(input: Readable = process.stdin, output: Writable = process.stdout, onNote: (text: string) => void = (t) => process.stderr.write(`${t}\n`)): Transport {
  let closed = false;
  const transport: Transport = {
    async start() {
      const splitter = createLineSplitter(BRIDGE_MAX_LINE_BYTES, (line) => {
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          onNote('bridge: the host sent a line that is not JSON; dropped');
          return;
        }
        if (typeof message === 'object' && message !== null) transport.onmessage?.(message as JSONRPCMessage);
      });
      input.on('data', (chunk: Buffer) => {
        try {
          splitter.push(chunk);
        } catch (err) {
          transport.onerror?.(err as Error);
          void transport.close();
        }
      });
      input.once('end', () => void transport.close());
      input.once('close', () => void transport.close());
    },
    async send(message) {
      if (!closed) output.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      if (closed) return;
      closed = true;
      input.pause();
      transport.onclose?.();
    },
  };
  return transport;
}
