/**
 * Import boundaries (DESIGN 2, README "Layout"), checked by `bun run lint`. Each rule names
 * the layer it protects; tests may reach across (they assemble what main/adapters assemble).
 */
const TESTS = '\\.test\\.tsx?$|/test/';
/** Every rule here is an error: an import that crosses a boundary fails the lint. */
const forbid = (name, comment, from, to) => ({ name, severity: 'error', comment, from, to });
module.exports = {
  forbidden: [
    forbid('no-cycles', 'A cycle makes load order matter and two modules one.', {}, { circular: true }),
    forbid(
      'server-domain-is-pure',
      'domain/ holds the rules: it knows ports, never HTTP or an adapter.',
      { path: '^apps/server/src/domain/', pathNot: TESTS },
      { path: '^apps/server/src/(http|infra|config)/|^apps/server/src/(adapters|server|main)\\.ts$' },
    ),
    forbid(
      'server-quota-port-only-in-quota',
      'Owners\' space moves only through domain/files/quota.ts (docs/protocol.md "Quota"); the rest of the domain uses its Quota.',
      { path: '^apps/server/src/domain/', pathNot: ['^apps/server/src/domain/files/quota\\.ts$', TESTS] },
      { path: '^apps/server/src/ports/files/quota\\.ts$' },
    ),
    forbid(
      'server-http-picks-no-adapter',
      'http/ speaks to domain and ports; only adapters.ts turns configuration into adapters.',
      { path: '^apps/server/src/http/', pathNot: TESTS },
      { path: '^apps/server/src/infra/' },
    ),
    forbid(
      'server-ports-import-nothing-of-the-app',
      'ports/ are the interfaces both sides meet at.',
      { path: '^apps/server/src/ports/' },
      { path: '^apps/server/src/(domain|http|infra|config)/' },
    ),
    forbid(
      'server-infra-serves-ports',
      'An adapter implements a port; it never calls back into HTTP.',
      { path: '^apps/server/src/infra/', pathNot: TESTS },
      { path: '^apps/server/src/http/' },
    ),
    forbid(
      'rules-are-pure',
      'packages/rules is shared by the server, the web app and the command-line client: pure code that imports nothing outside itself (no app, no framework, no Node or browser module).',
      { path: '^packages/rules/src/', pathNot: TESTS },
      { pathNot: '^packages/rules/src/' },
    ),
    forbid(
      'web-workers-never-import-features',
      'Workers are thin facades over packages/crypto and the network; the UI builds on them, not the reverse.',
      { path: '^apps/web/src/workers/' },
      { path: '^apps/web/src/features/' },
    ),
    forbid(
      'web-feature-through-its-index',
      'A feature is used only through its public index.ts; its inside may change freely.',
      { path: '^apps/web/src/features/([^/]+)/', pathNot: TESTS },
      {
        path: '^apps/web/src/features/[^/]+/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.tsx?$'],
      },
    ),
    forbid(
      'web-outside-features-through-index',
      'Routes and the shell compose features through their public index.ts.',
      { path: '^apps/web/src/', pathNot: ['^apps/web/src/features/', TESTS] },
      { path: '^apps/web/src/features/[^/]+/', pathNot: '^apps/web/src/features/[^/]+/index\\.tsx?$' },
    ),
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
