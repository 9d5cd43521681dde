// The layering of the repository, checked by `npm run lint:layers` (docs/architecture.md#layering-rules).
// Each rule names what a folder must not import; a module low in the layers owns what those above share.
// Import cycles are madge's to find (`npm run lint:cycles`).

/** Test code: suites, contract suites and test helpers. */
const TESTS = '\\.(test|contract)\\.ts$|(^|/)test-[a-z-]+\\.ts$|/testing/';

/**
 * The server's layers, each allowed to import only itself and those listed (besides `shared`): folders,
 * or single modules of `server/src/` (`clock.ts`).
 */
const SERVER_BELOW = {
  // Leaves: the caches' budgets import nothing of the server.
  cache: [],
  // The one way out (SSRF guard): it times its limits by the clock and knows nothing else.
  outbound: ['clock.ts'],
  // The settings: OUTBOUND_ALLOW is read by the outbound module's own grammar.
  config: ['cache', 'outbound'],
  // Storage: the repositories, their write algorithm and the log of changes; read settings only.
  storage: ['config'],
};

/** A layer entry as a path: a folder (`cache/`) or one module (`clock\.ts$`). */
const layerPath = (entry) =>
  entry.endsWith('.ts') ? `${entry.replace('.', '\\.')}$` : `${entry}/`;

const serverLayer = ([name, below]) => ({
  name: `server-${name}-imports-downward`,
  comment: `server/src/${name}/ imports only ${['itself', ...below.map((b) => (b.endsWith('.ts') ? b : `${b}/`))].join(', ')} of the server`,
  severity: 'error',
  from: { path: `^server/src/${name}/`, pathNot: TESTS },
  to: {
    path: '^server/src/',
    pathNot: `^server/src/(${[name, ...below].map(layerPath).join('|')})`,
  },
});

/** The page's folders, from the bottom up: each imports only itself and those before it. */
const APP_LAYERS = ['model', 'session', 'state', 'views', 'actions'];

const appLayer = (name, index) => ({
  name: `app-${name}-imports-downward`,
  comment: `web-client/app/${name}/ imports only ${APP_LAYERS.slice(0, index + 1).join(', ')} of the page`,
  severity: 'error',
  from: { path: `^web-client/app/${name}/` },
  to: {
    path: '^web-client/app/',
    pathNot: `^web-client/app/(${APP_LAYERS.slice(0, index + 1).join('|')})/`,
  },
});

export default {
  forbidden: [
    // Packages.
    {
      name: 'shared-imports-no-package',
      comment:
        'shared/ is the bottom: it imports nothing of server, web-client or e2e',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(server|web-client|e2e)/' },
    },
    {
      name: 'server-imports-no-web-client',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(web-client|e2e)/' },
    },
    {
      name: 'web-client-imports-no-server-code',
      comment:
        "web-client/ takes only the server's types (the router type, bundled into its declaration); " +
        'its own tests (web-client/test/) start a real server',
      severity: 'error',
      from: { path: '^web-client/', pathNot: '^web-client/test/' },
      to: { path: '^(server|e2e)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'src-imports-no-test-folder',
      comment:
        'shipped code never imports a test or bench folder; a suite beside its module may use the ' +
        "package's test helpers (server/test/test-app.ts, test-databases.ts)",
      severity: 'error',
      from: { path: '^(shared|server|web-client)/(src|app)/', pathNot: TESTS },
      to: { path: '^(shared|server|web-client)/(test|bench)/' },
    },

    // shared/: the contracts sit below the engine.
    {
      name: 'schemas-import-no-expression',
      comment:
        'shared/src/schemas/ must not import the expression engine (the engine imports the schemas)',
      severity: 'error',
      from: { path: '^shared/src/schemas/', pathNot: TESTS },
      to: { path: '^shared/src/expression/' },
    },

    // server/src: from the bottom up, clock, cache, outbound and config → storage → versions, events, keys,
    // auth, backup, link-health → services → context, trpc → routers → http → start-up (start-server,
    // warm-up, serve, cli, index).
    ...Object.entries(SERVER_BELOW).map(serverLayer),
    {
      name: 'server-middle-imports-no-transport',
      comment:
        'versions/, events/, keys/, backup/, link-health/, hooks/ and services/ never import a transport (routers, tRPC, ' +
        'the request context, http) nor start-up',
      severity: 'error',
      from: {
        path: '^server/src/(versions|events|keys|backup|services|link-health|hooks)/',
        pathNot: TESTS,
      },
      to: {
        path: '^server/src/(routers/|http/|cli/|trpc\\.ts|context\\.ts|start-server\\.ts|serve\\.ts|warm-up\\.ts|index\\.ts|main\\.ts)',
      },
    },
    {
      name: 'server-routers-not-storage',
      comment:
        'routers/ reach stored configs through services/ only, and never import http/; ' +
        'a router suite may build the services on a memory repository',
      severity: 'error',
      from: { path: '^server/src/routers/', pathNot: TESTS },
      to: { path: '^server/src/(storage|http)/' },
    },
    {
      name: 'server-http-only-from-start-up',
      comment: 'only start-up (start-server, warm-up, index) imports http/',
      severity: 'error',
      from: {
        path: '^server/src/',
        pathNot: `^server/src/(http/|cli/|start-server\\.ts|warm-up\\.ts|index\\.ts)|${TESTS}`,
      },
      to: { path: '^server/src/http/' },
    },

    // web-client: the package below the page, and the page's folders in order.
    {
      name: 'web-client-src-not-app',
      comment:
        'the package (web-client/src/) never imports the page (web-client/app/)',
      severity: 'error',
      from: { path: '^web-client/src/' },
      to: { path: '^web-client/app/' },
    },
    {
      name: 'web-client-indexeddb-not-hybrid',
      comment:
        'the browser database and its sync state (web-client/src/indexeddb/: configs, outbox, versions, ' +
        'the cache rule) sit below the hybrid store: hybrid/ imports indexeddb/, never the other way',
      severity: 'error',
      from: { path: '^web-client/src/indexeddb/' },
      to: { path: '^web-client/src/hybrid/' },
    },
    ...APP_LAYERS.map(appLayer),
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.spec.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dist-app|node_modules)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
