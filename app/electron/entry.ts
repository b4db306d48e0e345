/**
 * The Electron main process's entry (built to out/main/index.js): turns on Node's compile cache
 * in the user-data folder (main/compile-cache.ts), then loads the app (main.ts) with `import()`,
 * so its modules are compiled with the cache on. Output to a reader that is gone is tolerated
 * (app/output-pipes.ts): a console started headless outlives whoever read its output.
 */
import { app } from 'electron';
import { enableCompileCacheIn } from '../../main/compile-cache.js';
import { tolerateClosedOutput } from '../output-pipes.js';

tolerateClosedOutput();
enableCompileCacheIn(app.getPath('userData'));
await import('./main.js');
