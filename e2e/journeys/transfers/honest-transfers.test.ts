/**
 * Honest transfer texts and a panel that keeps out of the way, through the built web app and the
 * real server (docs/web-files.md "Feedback"): one file is summed up in the singular, the panel
 * folds itself away a few seconds after everything succeeded and, open, never covers the
 * listing's last rows, actions or pagination; an upload refused for lack of space says how much
 * is free of how much and what the file needs, and offers no Retry that cannot succeed. Axe
 * checks and screenshots at 1280 and 375 px, light and dark.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiCreateFolders, apiLogin, apiUploadFile, apiCreateFolder, signInToFiles } from '../../support/files.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, pseudoRandom, transferRow, transfersPanel, waitForSummary } from '../../support/transfers.ts';

const SLOW = 180_000;
const MIB = 1024 * 1024;
/** A small quota, so one picked file is more than is free. */
const QUOTA = 10 * MIB;

const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off', DEFAULT_QUOTA_BYTES: String(QUOTA) } } });

let user: TestUser;

/**
 * Whether the page's own element is what is under the middle of each of `selectors` (last match)
 * once the page is scrolled to its end: the panel covers none of them.
 */
async function coveredAtEnd(page: Page, selectors: string[]): Promise<string[]> {
  return page.evaluate((selectors) => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const covered: string[] = [];
    for (const selector of selectors) {
      const all = document.querySelectorAll(selector);
      const target = all[all.length - 1];
      if (!target) {
        covered.push(`${selector} (missing)`);
        continue;
      }
      const box = target.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !target.contains(hit)) covered.push(`${selector} under ${hit?.className || hit?.tagName}`);
    }
    return covered;
  }, selectors);
}

/**
 * The listing picks its columns from its own measured width a frame or two after a resize, so
 * until then its last column may lie beyond the viewport: ask again until the answer holds still
 * (or a few seconds pass) and return the last answer.
 */
async function settledCoverage(page: Page, selectors: string[]): Promise<string[]> {
  let covered = await coveredAtEnd(page, selectors);
  for (let tries = 0; covered.length > 0 && tries < 20; tries++) {
    await Bun.sleep(250);
    covered = await coveredAtEnd(page, selectors);
  }
  return covered;
}

describe.skipIf(skipWithoutBrowser)('honest transfers', () => {
  beforeAll(async () => {
    user = await createUser(suite.server.url);
    // More than a page of items, so the listing has last rows and pagination for the panel to cover.
    const session = await apiLogin(suite.server.url, user);
    await apiCreateFolders(
      session,
      null,
      Array.from({ length: 24 }, (_, i) => `Folder ${String(i + 1).padStart(2, '0')}`),
    );
  }, SLOW);

  test(
    'one file is summed up in the singular; the panel folds away after success and never covers the listing',
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      await pickFiles(page, [{ name: 'honest-one.txt', mimeType: 'text/plain', buffer: Buffer.from('one file\n') }]);
      await waitForSummary(page, '1 file uploaded successfully!');
      const list = transfersPanel(page).getByRole('list', { name: 'Transfers list' });
      expect(await list.isVisible()).toBe(true);
      const problems = await checkA11y(page, 'transfers panel, one file uploaded');
      expect(problems).toBe('');
      await saveScreenshots(page, 'honest-transfers-one', { fullPage: false });

      // Everything succeeded: the panel folds itself to its header a few seconds later.
      await list.waitFor({ state: 'hidden', timeout: 10_000 });
      const expand = transfersPanel(page).getByRole('button', { name: 'Expand transfers' });
      expect(await expand.getAttribute('aria-expanded')).toBe('false');
      await saveScreenshots(page, 'honest-transfers-folded', { fullPage: false });

      // Opened again by hand it stays open, and the listing makes room for it at both widths.
      await expand.click();
      await list.waitFor();
      await Bun.sleep(5_000);
      expect(await list.isVisible()).toBe(true);
      const targets = ['.browser__body [aria-label^="Actions for"]', '.pagination select', '.pagination button'];
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        expect(await settledCoverage(page, targets)).toEqual([]);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    },
    SLOW,
  );

  test(
    'over quota: the row and its toast say used, free, total and needed, and offer no Retry',
    async () => {
      const owner = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, owner);
      const box = await apiCreateFolder(session, null, 'Box');
      await apiUploadFile(session, box, 'already.bin', new Uint8Array(200 * 1024));
      const page = await signInToFiles(
        await suite.newBrowser({ expectHttpErrors: [{ status: 402, path: '/api/upload' }] }),
        suite.server.url,
        owner,
      );
      await pickFiles(page, [
        { name: 'too-big.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(pseudoRandom(25 * MIB, 7)) },
      ]);
      await waitForSummary(page, '1 file failed to upload. Check errors below.');
      const row = transferRow(page, 'too-big.bin');
      const said = 'Not enough storage space: 200 KiB used, 9.8 MiB free of 10.0 MiB; this file needs 25.0 MiB';
      expect(await row.getByRole('alert').textContent()).toBe(said);
      // The toast says the same, once.
      expect(await page.locator('.sb-toaster').getByText(said, { exact: true }).count()).toBe(1);
      expect(await row.getByRole('button', { name: 'Retry too-big.bin' }).count()).toBe(0);
      const problems = await checkA11y(page, 'transfers panel, over quota');
      expect(problems).toBe('');
      await saveScreenshots(page, 'honest-transfers-no-space', { fullPage: false });
      // A failure stays open to be read.
      await Bun.sleep(6_000);
      expect(await transfersPanel(page).getByRole('list', { name: 'Transfers list' }).isVisible()).toBe(true);
    },
    SLOW,
  );
});
