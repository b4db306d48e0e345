/**
 * A Vite plugin for the Node bundles (the web host, the bench's bundles): `node:http` loaded with
 * `require` instead of as an ES module. To give an ES module a built-in's namespace, Node reads
 * every one of its exports, and `node:http`'s `WebSocket`, `CloseEvent` and `MessageEvent` are
 * getters that load undici — 25–60 ms of every start, for classes the console never takes from
 * there. Through `require` the getters stay untouched. The module's other exports are re-exported
 * by name, so `import http, { createServer } from 'node:http'` works as written.
 */
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const VIRTUAL_ID = '\0builtin-through-require:node:http';

/** The plugin; see the module's docstring. */
export function builtinsThroughRequire(): Plugin {
  return {
    name: 'builtins-through-require',
    enforce: 'pre',
    resolveId(id) {
      return id === 'node:http' || id === 'http' ? VIRTUAL_ID : undefined;
    },
    load(id) {
      if (id !== VIRTUAL_ID) return undefined;
      const http = createRequire(import.meta.url)('node:http') as Record<string, unknown>;
      const names = Object.keys(http).filter((name) => !Object.getOwnPropertyDescriptor(http, name)?.get && /^[A-Za-z_$][\w$]*$/.test(name));
      return [
        "import { createRequire } from 'node:module';",
        "const http = createRequire(import.meta.url)('node:http');",
        'export default http;',
        ...names.map((name) => `export const ${name} = http.${name};`),
      ].join('\n');
    },
  };
}
