/**
 * What the processes that host the console on Node share (the web host app/web/cli.ts and a team
 * server's `serve`, app/cli/serve-command.ts): where this installation's built renderer is, its
 * folder, the secret store of API keys, and how an agent host launches its bridge. Each is found
 * from this file's own URL, whether it runs from sources (app/web/, under tsx) or bundled in out/web.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createFileSecretStore } from '../../main/secrets/file-store.js';
import type { SecretStore } from '../../main/secrets/secret-store.js';

/** Whether this module runs from the bundle in out/web. */
const bundled = /\/out\/web\/[^/]+$/.test(import.meta.url);

/**
 * The built renderer (out/renderer); `MCP_CONSOLE_STATIC_DIR` overrides it (tests and benchmarks
 * that build elsewhere).
 */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCP_CONSOLE_STATIC_DIR || fileURLToPath(new URL(bundled ? '../renderer/' : '../../out/renderer/', import.meta.url));
}

/** The installation's folder: two folders up from app/web/ and from out/web/ alike. */
export const installRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The secret store of API keys: AES-256-GCM file in the user-data folder, keyed from
 * MCP_CONSOLE_SECRET_PASSPHRASE when set (the variable is then removed from this process's
 * environment so no child process inherits it), else from a 0600 key file.
 */
export function webSecretStore(userDataDir: string): SecretStore {
  const passphrase = process.env.MCP_CONSOLE_SECRET_PASSPHRASE || undefined;
  delete process.env.MCP_CONSOLE_SECRET_PASSPHRASE;
  return createFileSecretStore({ dir: userDataDir, ...(passphrase ? { passphrase } : {}) });
}

/**
 * How an agent host launches this installation's sampling bridge ("Route through the console"):
 * this Node executable and the package's `mcp-approval-console` script, by absolute path. Absent
 * when the script is not there (routing is then refused with a clear error).
 */
export function bridgeLauncher(): { command: string; args: string[] } | undefined {
  const script = fileURLToPath(new URL('../../scripts/mcp-approval-console.mjs', import.meta.url));
  return existsSync(script) ? { command: process.execPath, args: [script] } : undefined;
}
