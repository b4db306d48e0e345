#!/usr/bin/env node
// The `mcp-approval-console` command (package.json `bin`): bridge, bridge install|uninstall,
// status, stop, open, doctor; `--help` on each (app/cli/program.ts; reference: docs/cli.md).
// Runs the built command (out/web/bridge.js, from `npm run build:web`) when it is there and not
// older than the sources of app, main and shared; otherwise the sources through tsx's loader
// (slower to start).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Newest modification time (ms) of the files under `dir`. */
function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const built = path.join(root, 'out/web/bridge.js');
const fresh = existsSync(built) && statSync(built).mtimeMs >= Math.max(...['app', 'main', 'shared'].map((d) => newestMtime(path.join(root, d))));
if (fresh) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'app/bridge/cli.ts')).href);
}
