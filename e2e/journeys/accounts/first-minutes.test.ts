/**
 * A new user's first minutes (issue 23, docs/web-files.md "First minutes"): registering signs the
 * account in at once (no second typing of the password, no "Redirecting to login..." left over),
 * and the empty My Files says how to start: Upload File, or drop files here. Screenshots at 375
 * and 1280 px, light and dark, and the axe check.
 */
import { describe, expect, test } from 'bun:test';
import { storedKeyCount, uniqueName, submitRegistration } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { passRecoveryStep } from '../../support/recovery.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 120_000;
const suite = browserSuite({ timeoutMs: SLOW });

describe.skipIf(skipWithoutBrowser)('first minutes', () => {
  test(
    'register, land signed in on an empty My Files that says how to start',
    async () => {
      const page = await suite.newBrowser();
      await submitRegistration(page, suite.server.url, uniqueName('new'), 'correct horse battery');
      // The new account's recovery phrase comes first (issue 24).
      await passRecoveryStep(page);

      await page.getByRole('heading', { name: 'My Files' }).waitFor({ timeout: 60_000 });
      expect(new URL(page.url()).pathname).toBe('/files');
      await page.locator('.sb-toaster').getByText('Registration successful! You are signed in.').waitFor();
      expect(await page.getByText('Redirecting to login', { exact: false }).count()).toBe(0);
      // Signed in for real: the keys are kept for this session.
      expect(await storedKeyCount(page)).toBe(1);

      const empty = page.locator('.empty-state');
      await empty.getByText('No files found', { exact: true }).waitFor();
      await empty.getByText('Upload a file to get started', { exact: true }).waitFor();
      await empty.getByText('or drop files here', { exact: true }).waitFor();
      expect(await checkA11y(page, 'empty My Files')).toBe('');
      await saveScreenshots(page, 'first-minutes-empty', { fullPage: false });
    },
    SLOW,
  );
});
