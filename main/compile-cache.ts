/**
 * Node's on-disk compile cache for the console's own process (`module.enableCompileCache`, Node
 * ≥ 22.1; Electron's Node has it): the V8 code of every module loaded after the call is kept in
 * `<userDataDir>/compile-cache` and reused by the next start, which then skips most parsing and
 * compiling of the console's modules (the bench's `p5.start_overhead_ms`). A changed module is
 * compiled afresh (the cache checks each module's source). Servers the console launches are not
 * affected: the call does not set `NODE_COMPILE_CACHE` for child processes.
 *
 * Hosts call {@link enableCompileCacheIn} first thing in a small entry module and then import the
 * rest with `import()`: a module's static imports are compiled before any of its code runs.
 */
import { mkdirSync } from 'node:fs';
import { constants, enableCompileCache } from 'node:module';
import path from 'node:path';

/** The cache's folder in the user-data folder. */
export const COMPILE_CACHE_DIR = 'compile-cache';

/**
 * Turns the compile cache on in `<userDataDir>/compile-cache` (created owner-only, 0700, with any
 * missing parent). Never throws: a start without the cache is only slower.
 * @returns whether the cache is on (also when `NODE_COMPILE_CACHE` had turned it on already)
 */
export function enableCompileCacheIn(userDataDir: string): boolean {
  try {
    const dir = path.join(userDataDir, COMPILE_CACHE_DIR);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { status } = enableCompileCache(dir);
    return status === constants.compileCacheStatus.ENABLED || status === constants.compileCacheStatus.ALREADY_ENABLED;
  } catch {
    return false;
  }
}
