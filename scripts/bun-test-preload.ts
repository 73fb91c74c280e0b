/**
 * Preloaded by every `bun test` at the root (bunfig.toml): a test has 120 s unless it says
 * otherwise, as npm test and CI always gave it. The suites start servers, databases and Chromium,
 * which bun's own 5 s cuts short on a busy machine; bunfig.toml has no setting for it.
 */
import { setDefaultTimeout } from 'bun:test';

setDefaultTimeout(120_000);
