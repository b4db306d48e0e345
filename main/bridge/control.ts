/**
 * The command line's end of the bridge channel (`mcp-approval-console status|stop|open`): asks
 * the console running on a data folder about itself over the same owner-only socket the bridges
 * use, with the token from the same owner-only file (main/bridge/paths.ts) — so only the user the
 * console runs as can ask, and the page's token never leaves owner-only places. One control
 * message, one answer (shared/contract/bridge-protocol.ts `control` → `status`), then the console
 * closes the connection.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { BRIDGE_MAX_LINE_BYTES, BRIDGE_PROTOCOL_VERSION, ConsoleToBridgeSchema, parseChannelLine, type BridgeControl, type ConsoleStatus } from '../../shared/contract/bridge-protocol.js';
import { createLineSplitter } from './lines.js';
import { bridgeSocketPath, bridgeTokenPath } from './paths.js';

/** How long the console may take to answer, in ms. */
export const CONTROL_TIMEOUT_MS = 5000;

/** No console answers on the data folder: no token file, or nothing listens on its socket. */
export class ConsoleNotRunning extends Error {
  override name = 'ConsoleNotRunning';
}

/** Where to ask and how long to wait. */
export interface AskConsoleOptions {
  platform?: NodeJS.Platform;
  timeoutMs?: number;
}

/**
 * Asks the console on `dir` for its status (`status`), to shut down (`stop`) or to show its window
 * (`show`).
 * @returns the console's status (`stopping` set for `stop`, `shown` for `show`)
 * @throws ConsoleNotRunning when no console uses `dir`; Error when the console refused (another
 *   version, a wrong token), did not answer within the timeout, or closed without answering
 */
export async function askConsole(dir: string, action: BridgeControl['action'], opts: AskConsoleOptions = {}): Promise<ConsoleStatus> {
  let token: string;
  try {
    token = readFileSync(bridgeTokenPath(dir), 'utf8').trim();
  } catch {
    throw new ConsoleNotRunning(`no console uses ${dir}`);
  }
  const socketPath = bridgeSocketPath(dir, opts.platform);
  const timeoutMs = opts.timeoutMs ?? CONTROL_TIMEOUT_MS;
  return new Promise<ConsoleStatus>((resolve, reject) => {
    const socket = net.connect(socketPath);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`the console did not answer within ${Math.round(timeoutMs / 1000)} s`))), timeoutMs);
    const splitter = createLineSplitter(BRIDGE_MAX_LINE_BYTES, (line) => {
      const message = parseChannelLine(ConsoleToBridgeSchema, line);
      if (message?.type === 'status') settle(() => resolve(message));
      else if (message?.type === 'refused') settle(() => reject(new Error(`the console refused: ${message.message}`)));
      else settle(() => reject(new Error('the console sent an answer this command does not understand (is it another version?)')));
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        splitter.push(chunk);
      } catch (err) {
        settle(() => reject(err as Error));
      }
    });
    socket.once('connect', () => {
      const control: BridgeControl = { type: 'control', protocol: BRIDGE_PROTOCOL_VERSION, token, action };
      socket.write(`${JSON.stringify(control)}\n`);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const gone = err.code === 'ENOENT' || err.code === 'ECONNREFUSED';
      settle(() => reject(gone ? new ConsoleNotRunning(`nothing listens on ${socketPath}`) : err));
    });
    socket.once('close', () => settle(() => reject(new Error('the console closed the connection without answering (is it another version?)'))));
  });
}
