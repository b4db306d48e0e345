/**
 * The Electron main process's entry (built to out/main/index.js): turns on Node's compile cache
 * in the user-data folder (main/compile-cache.ts), then loads the app (main.ts) with `import()`,
 * so its modules are compiled with the cache on.
 */
import { app } from 'electron';
import { enableCompileCacheIn } from '../../main/compile-cache.js';

enableCompileCacheIn(app.getPath('userData'));
await import('./main.js');
