/**
 * Preloaded by every `bun test` at the root (bunfig.toml): 120 s unless a test says otherwise,
 * as npm test and CI always gave it. The suites start servers, databases and Chromium, which
 * bun's own 5 s cuts short on a busy machine; bunfig.toml has no setting for it.
 *
 * bun 1.4.5 puts its default back before each test file, so setDefaultTimeout here alone reaches
 * the first file only. It is said again as each test file loads (a loader that hands bun the
 * file as it is), so `bun test` by hand and npm test's `bun test` give every file the same 120 s.
 */
import { setDefaultTimeout } from 'bun:test';
import { extname } from 'node:path';

const DEFAULT_TIMEOUT_MS = 120_000;

setDefaultTimeout(DEFAULT_TIMEOUT_MS);

const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.js': 'js', '.jsx': 'jsx', '.mjs': 'js', '.mts': 'ts' } as const;

Bun.plugin({
  name: 'sealbox-test-timeout',
  setup(build) {
    build.onLoad({ filter: /\.(test|spec)\.(ts|tsx|js|jsx|mjs|mts)$/ }, async ({ path }) => {
      setDefaultTimeout(DEFAULT_TIMEOUT_MS);
      return { contents: await Bun.file(path).text(), loader: LOADERS[extname(path) as keyof typeof LOADERS] ?? 'ts' };
    });
  },
});
