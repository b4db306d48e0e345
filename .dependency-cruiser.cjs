/**
 * Layering rules (README, "Architecture"), checked by `npm run lint` whatever the import path's
 * depth: the folder says which runtime a module may use.
 * - shared/ is the contract and pure logic: no Node built-ins, DOM-only packages, Electron, React,
 *   and nothing from main/, renderer/ or app/.
 * - main/ runs on plain Node: never electron, react, renderer/ or app/.
 * - renderer/ talks only to the API: never Node built-ins, electron, main/ or app/.
 * - only app/electron/ imports electron.
 * - no import cycles, type-only imports included.
 */
module.exports = {
  forbidden: [
    {
      name: 'shared-is-pure',
      severity: 'error',
      comment: 'shared/ imports nothing runtime-specific and nothing from the other layers.',
      from: { path: '^shared/' },
      to: {
        dependencyTypesNot: ['type-only'],
        path: '^(main|renderer|app)/|(^|/)node_modules/(electron|react|react-dom)/',
      },
    },
    {
      name: 'shared-is-pure-types',
      severity: 'error',
      comment: 'shared/ does not even import types from main/, renderer/ or app/.',
      from: { path: '^shared/' },
      to: { path: '^(main|renderer|app)/' },
    },
    {
      name: 'shared-no-node',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'main-no-electron-ui',
      severity: 'error',
      comment: 'main/ runs on plain Node: OS things come through injected ports.',
      from: { path: '^main/' },
      to: { path: '^(renderer|app)/|(^|/)node_modules/(electron|react|react-dom)/' },
    },
    {
      name: 'renderer-only-api',
      severity: 'error',
      comment: 'renderer/ talks to main only through the ConsoleApi.',
      from: { path: '^renderer/' },
      to: { path: '^(main|app)/|(^|/)node_modules/electron/' },
    },
    {
      name: 'renderer-no-node',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'electron-only-in-app-electron',
      severity: 'error',
      from: { pathNot: '^(app/electron|e2e)/' },
      to: { path: '(^|/)node_modules/electron/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles, type-only ones included.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|dist|release|test-results|playwright-report|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
