/**
 * Preloaded by every `bun test` at the root (bunfig.toml): 120 s unless a test says otherwise,
 * as npm test and CI give it. The suites start servers, databases and Chromium, which bun's own
 * 5 s cuts short on a busy machine; bunfig.toml has no setting for it. Measured with bun 1.4.5:
 * setDefaultTimeout here reaches only the first test file run, so npm test also passes
 * `--timeout 120000` (scripts/test.ts), and so should a `bun test` of several files by hand.
 */
import { setDefaultTimeout } from 'bun:test';

setDefaultTimeout(120_000);
