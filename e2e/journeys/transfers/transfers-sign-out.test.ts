/**
 * Signing out forgets the tab's transfers (issue 14, found in review): the panel lists plaintext
 * file names, and a failed row keeps its File, so a Retry after another user signs in on the same
 * tab would upload the first user's file into the second one's account.
 */
import { describe, expect, test } from 'bun:test';
import { createUser, loginViaUi } from '../../support/accounts.ts';
import { signInToFiles } from '../../support/files.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, transferRow, transfersPanel } from '../../support/transfers.ts';

const SLOW = 120_000;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });

describe.skipIf(skipWithoutBrowser)('transfers and signing out', () => {
  test(
    "after sign-out the panel is gone, and the next user on the tab cannot retry the last user's upload",
    async () => {
      const alice = await createUser(suite.server.url);
      const bob = await createUser(suite.server.url);
      const page = await signInToFiles(
        await suite.newBrowser({ expectHttpErrors: [{ status: 503, path: '/api/upload' }] }),
        suite.server.url,
        alice,
      );
      // alice's upload fails (the server is "unavailable"), so its row offers Retry.
      await page.route('**/api/upload', (route) => route.fulfill({ status: 503, body: '{"error":"UNAVAILABLE"}' }));
      await pickFiles(page, { name: 'alice-private.txt', mimeType: 'text/plain', buffer: Buffer.from('alice only\n') });
      await transferRow(page, 'alice-private.txt').getByRole('button', { name: /Retry/ }).waitFor();
      await page.unroute('**/api/upload');

      await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname !== '/files');
      // Logout leaves the signed-in screens first, then ends the session and forgets: the panel
      // goes a moment after the address changes (a busy machine makes that moment longer).
      await transfersPanel(page).waitFor({ state: 'detached', timeout: 15_000 });
      expect(await transfersPanel(page).count()).toBe(0);
      expect(await page.getByText('alice-private.txt').count()).toBe(0);

      await loginViaUi(page, suite.server.url, bob);
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      expect(await transfersPanel(page).count()).toBe(0);
      expect(await page.getByText('alice-private.txt').count()).toBe(0);
    },
    SLOW,
  );
});
