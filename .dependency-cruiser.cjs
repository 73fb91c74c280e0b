/**
 * Import boundaries (DESIGN 2, README "Layout"), checked by `bun run lint`. Each rule names
 * the layer it protects; tests may reach across (they assemble what main/adapters assemble).
 */
const TESTS = '\\.test\\.tsx?$|/test/';
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes load order matter and two modules one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds the rules: it knows ports, never HTTP or an adapter.',
      from: { path: '^apps/server/src/domain/', pathNot: TESTS },
      to: { path: '^apps/server/src/(http|infra|config)/|^apps/server/src/(adapters|server|main)\\.ts$' },
    },
    {
      name: 'server-quota-port-only-in-quota',
      severity: 'error',
      comment:
        'Owners\' space moves only through domain/files/quota.ts (docs/protocol.md "Quota"); the rest of the domain uses its Quota.',
      from: { path: '^apps/server/src/domain/', pathNot: ['^apps/server/src/domain/files/quota\\.ts$', TESTS] },
      to: { path: '^apps/server/src/ports/files/quota\\.ts$' },
    },
    {
      name: 'server-http-picks-no-adapter',
      severity: 'error',
      comment: 'http/ speaks to domain and ports; only adapters.ts turns configuration into adapters.',
      from: { path: '^apps/server/src/http/', pathNot: TESTS },
      to: { path: '^apps/server/src/infra/' },
    },
    {
      name: 'server-ports-import-nothing-of-the-app',
      severity: 'error',
      comment: 'ports/ are the interfaces both sides meet at.',
      from: { path: '^apps/server/src/ports/' },
      to: { path: '^apps/server/src/(domain|http|infra|config)/' },
    },
    {
      name: 'server-infra-serves-ports',
      severity: 'error',
      comment: 'An adapter implements a port; it never calls back into HTTP.',
      from: { path: '^apps/server/src/infra/', pathNot: TESTS },
      to: { path: '^apps/server/src/http/' },
    },
    {
      name: 'rules-are-pure',
      severity: 'error',
      comment:
        'packages/rules is shared by the server, the web app and the command-line client: pure code that imports nothing outside itself (no app, no framework, no Node or browser module).',
      from: { path: '^packages/rules/src/', pathNot: TESTS },
      to: { pathNot: '^packages/rules/src/' },
    },
    {
      name: 'web-workers-never-import-features',
      severity: 'error',
      comment: 'Workers are thin facades over packages/crypto and the network; the UI builds on them, not the reverse.',
      from: { path: '^apps/web/src/workers/' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'web-feature-through-its-index',
      severity: 'error',
      comment: 'A feature is used only through its public index.ts; its inside may change freely.',
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^apps/web/src/features/[^/]+/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.tsx?$'],
      },
    },
    {
      name: 'web-outside-features-through-index',
      severity: 'error',
      comment: 'Routes and the shell compose features through their public index.ts.',
      from: { path: '^apps/web/src/', pathNot: ['^apps/web/src/features/', TESTS] },
      to: { path: '^apps/web/src/features/[^/]+/', pathNot: '^apps/web/src/features/[^/]+/index\\.tsx?$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.tools)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'bun', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
