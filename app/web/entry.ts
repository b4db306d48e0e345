/**
 * The web host's process entry (built to out/web/cli.js): turns on Node's compile cache in the
 * user-data folder (main/compile-cache.ts), then loads the host (app/web/cli.ts) with `import()`,
 * so the host's modules are compiled with the cache on.
 */
import os from 'node:os';
import { enableCompileCacheIn } from '../../main/compile-cache.js';
import { webUserDataDir } from './options.js';

enableCompileCacheIn(webUserDataDir(process.env, process.platform, os.homedir()));
await import('./cli.js');
