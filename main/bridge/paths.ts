/**
 * Where the console and its bridges meet: the channel's socket (a named pipe on Windows) and the
 * token file, both derived from the user-data folder alone, so a bridge finds the console that
 * uses the same folder.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** File name of the channel's socket in the user-data folder. */
export const BRIDGE_SOCKET_FILE = 'bridge.sock';
/** File name of the channel's token (owner-only, rewritten at every console start). */
export const BRIDGE_TOKEN_FILE = 'bridge.token';
/** File name of the loopback HTTP serving's token (owner-only, kept across starts: hosts' configs carry it). */
export const BRIDGE_HTTP_TOKEN_FILE = 'bridge-http-token';

/** Longest socket path used as is, in bytes (Unix socket paths are capped at 104–108). */
const MAX_SOCKET_PATH_BYTES = 100;

/**
 * The channel's socket path for `userDataDir`: `<dir>/bridge.sock`; when that is too long for a
 * Unix socket, `<tmp>/mcp-approval-console-<hash>.sock`; on Windows the named pipe
 * `\\.\pipe\mcp-approval-console-<hash>` (pipes live outside the file system).
 */
export function bridgeSocketPath(userDataDir: string, platform: NodeJS.Platform = process.platform): string {
  const hash = createHash('sha256').update(path.resolve(userDataDir)).digest('hex').slice(0, 16);
  if (platform === 'win32') return `\\\\.\\pipe\\mcp-approval-console-${hash}`;
  const inside = path.join(userDataDir, BRIDGE_SOCKET_FILE);
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH_BYTES) return inside;
  return path.join(os.tmpdir(), `mcp-approval-console-${hash}.sock`);
}

/** The token file's path for `userDataDir`. */
export function bridgeTokenPath(userDataDir: string): string {
  return path.join(userDataDir, BRIDGE_TOKEN_FILE);
}

/** The loopback HTTP serving's token file path for `userDataDir`. */
export function bridgeHttpTokenPath(userDataDir: string): string {
  return path.join(userDataDir, BRIDGE_HTTP_TOKEN_FILE);
}
