/**
 * Packages built into the console's Node bundles (web host out/web, Electron main out/main, the
 * bench's bundles) instead of loaded from node_modules when the process starts. Node's module
 * loader costs more per file than these libraries' code: libphonenumber-js is 93 files, ~40 ms
 * loaded from node_modules and ~8 ms bundled (the bench's `p5.start_overhead_ms`).
 *
 * Only pure-JS ES-module libraries on the start path whose objects never meet another copy of
 * themselves: leaf libraries the console's own code calls. Packages shared with other
 * dependencies (zod, the MCP SDK packages) and native ones (libsql) stay external.
 */
export const BUNDLED_PACKAGES: string[] = ['libphonenumber-js', 'jsonc-parser', 're2js', 'i18next'];
