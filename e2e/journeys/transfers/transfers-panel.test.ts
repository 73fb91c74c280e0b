/**
 * The transfers panel and drop-anywhere uploads (issue 14 items 1 and 5), through the built web
 * app and the real server: files dropped on the listing start at once and show in the corner
 * panel with overall progress and docs/product.md "States" summary; one is cancelled mid-upload and
 * retried, and what the server keeps is checked byte for byte by downloading it back (the download
 * shows in the panel too); a duplicate name offers keep both and replace; the drop target shows
 * while dragging and refuses in a folder shared as viewer. Axe checks and screenshots of each
 * screen.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiCreateFolder, apiLogin, openFolder, signInToFiles } from '../../support/files.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import {
  closeTransfers,
  downloadViaMenu,
  dragFiles,
  expectDownloadOf,
  leaveDrag,
  pseudoRandom,
  transferRow,
  transfersPanel,
  waitForSummary,
} from '../../support/transfers.ts';

const SLOW = 180_000;
const MIB = 1024 * 1024;

const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });

let user: TestUser;
let sharer: TestUser;

const text = (s: string) => new TextEncoder().encode(s);
const fileRow = (page: Page, name: string) => page.locator('.browser__body').getByText(name, { exact: true }).first();

/** The names listed in the open folder (list view). */
async function listedNames(page: Page): Promise<string[]> {
  return (await page.locator('.browser__body .item-name__text').allTextContents()).map((n) => n.trim()).sort();
}

/**
 * Lets each upload's first part through and holds the others until released, so an upload is
 * reliably mid-way ('Uploading...') when cancelled or photographed.
 */
async function holdParts(page: Page): Promise<() => Promise<void>> {
  let open = false;
  const waiting: Array<() => void> = [];
  await page.route('**/api/upload/*/part/*', async (route) => {
    const part = Number(/\/part\/(\d+)$/.exec(new URL(route.request().url()).pathname)?.[1]);
    if (!open && part > 0) await new Promise<void>((resolve) => waiting.push(resolve));
    // A cancelled upload aborts its held parts: those routes are gone by then.
    await route.continue().catch(() => {});
  });
  return async () => {
    open = true;
    for (const go of waiting.splice(0)) go();
    await page.unroute('**/api/upload/*/part/*');
  };
}

describe.skipIf(skipWithoutBrowser)('transfers panel', () => {
  beforeAll(async () => {
    user = await createUser(suite.server.url);
    sharer = await createUser(suite.server.url);
  }, SLOW);

  test(
    'three files dropped on the listing start at once; one cancelled mid-upload and retried; the server keeps exactly them; a download shows in the panel',
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      const small = { name: 'drop-one.txt', bytes: text('one '.repeat(1000)) };
      const empty = { name: 'drop-empty.dat', bytes: new Uint8Array(0) };
      // Three parts: the upload is mid-way while its parts are held.
      const big = { name: 'drop-big.bin', random: { size: 20 * MIB + 7, seed: 0x7ea5 } };
      const release = await holdParts(page);

      await dragFiles(page, [small, big, empty]);
      const panel = transfersPanel(page);
      await panel.waitFor();
      expect(await panel.locator('.transfer-row').count()).toBe(3);
      await panel.getByRole('progressbar', { name: 'Overall progress' }).waitFor();
      await panel.getByRole('status').getByText('Uploading 1 file', { exact: true }).waitFor({ timeout: 60_000 });
      await transferRow(page, big.name).getByText('Uploading...', { exact: true }).waitFor({ timeout: 60_000 });
      expect(await checkA11y(page, 'transfers panel (expanded, running)')).toBe('');

      // Cancel the big one mid-upload: it stops, says so, and offers Retry.
      await panel.getByRole('button', { name: `Cancel ${big.name}` }).click();
      await transferRow(page, big.name).getByText('Cancelled', { exact: true }).waitFor();
      await release();
      // A cancelled upload is the user's choice, not a failure.
      await waitForSummary(page, 'All 2 files uploaded successfully!');
      await fileRow(page, small.name).waitFor();
      expect(await listedNames(page)).toEqual([empty.name, small.name].sort());

      await panel.getByRole('button', { name: `Retry ${big.name}` }).click();
      await transferRow(page, big.name).getByText('Uploaded', { exact: true }).waitFor({ timeout: 120_000 });
      await waitForSummary(page, 'All 3 files uploaded successfully!');
      await fileRow(page, big.name).waitFor();
      expect(await listedNames(page)).toEqual([big.name, empty.name, small.name].sort());

      // Collapsed to its header, the panel keeps its summary; axe passes both ways.
      await panel.getByRole('button', { name: 'Collapse transfers' }).click();
      expect(await panel.locator('.transfers__rows').isHidden()).toBe(true);
      expect(await checkA11y(page, 'transfers panel (collapsed, done)')).toBe('');
      await panel.getByRole('button', { name: 'Expand transfers' }).click();

      // What the server keeps is what was dropped, byte for byte; the downloads show in the panel.
      const expected = new Map([
        [small.name, small.bytes],
        [empty.name, empty.bytes],
        [big.name, pseudoRandom(big.random.size, big.random.seed)],
      ]);
      for (const [name, bytes] of expected) await expectDownloadOf(page, name, bytes);
      const downloadRow = panel.locator('.transfer-row[data-kind="download"]', { hasText: big.name });
      await downloadRow.getByText('Downloaded', { exact: true }).waitFor({ timeout: 30_000 });

      // Closed once nothing runs: the panel goes away.
      await closeTransfers(page);
      await panel.waitFor({ state: 'detached' });
    },
    SLOW,
  );

  test(
    'a name already in the folder: keep both uploads "name (1).ext"; replace swaps the content and leaves one file',
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      await dragFiles(page, [{ name: 'dup.txt', bytes: text('first version') }]);
      await fileRow(page, 'dup.txt').waitFor({ timeout: 60_000 });

      await dragFiles(page, [{ name: 'dup.txt', bytes: text('second version') }]);
      const question = page.getByRole('dialog', { name: 'This name is already used' });
      await question.getByText('dup.txt', { exact: true }).waitFor();
      await question.getByRole('button', { name: 'Keep both' }).click();
      await fileRow(page, 'dup (1).txt').waitFor({ timeout: 60_000 });

      await dragFiles(page, [{ name: 'dup.txt', bytes: text('third version') }]);
      await question.getByRole('button', { name: 'Replace' }).click();
      await waitForSummary(page, 'All 3 files uploaded successfully!');
      // The new content becomes a version of the old dup.txt: still one dup.txt.
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('.browser__body .item-name__text')].filter((n) => n.textContent?.trim() === 'dup.txt')
            .length === 1,
        undefined,
        { timeout: 30_000 },
      );
      const names = await listedNames(page);
      expect(names.filter((n) => n.startsWith('dup'))).toEqual(['dup (1).txt', 'dup.txt']);
      // Out of the way of the rows' menus (it sits over the listing's bottom right).
      await closeTransfers(page);
      expect(new TextDecoder().decode((await downloadViaMenu(page, 'dup.txt')).bytes)).toBe('third version');
      expect(new TextDecoder().decode((await downloadViaMenu(page, 'dup (1).txt')).bytes)).toBe('second version');

      // Skip leaves it out.
      await dragFiles(page, [{ name: 'dup.txt', bytes: text('fourth') }]);
      await question.getByRole('button', { name: 'Skip' }).click();
      await question.waitFor({ state: 'hidden' });
      expect((await listedNames(page)).filter((n) => n.startsWith('dup'))).toEqual(['dup (1).txt', 'dup.txt']);
    },
    SLOW,
  );

  test(
    'the drop target shows while files are dragged, and a folder shared as viewer refuses the drop',
    async () => {
      const owner = await apiLogin(suite.server.url, sharer);
      const viewed = await apiCreateFolder(owner, null, 'Viewed Folder');
      await apiShareWithUser(owner, viewed, await publicUser(owner, user.id), false);

      const page = await suite.newBrowser();
      await loginViaUi(page, suite.server.url, user);
      await dragFiles(page, [{ name: 'hover.txt', bytes: text('x') }], { drop: false });
      await page.getByText('Drop files to upload to My Files', { exact: true }).waitFor();
      await leaveDrag(page);
      await page.getByText('Drop files to upload to My Files', { exact: true }).waitFor({ state: 'detached' });
      // Dropped beside the listing (on the sidebar), a file is ignored: the browser does not
      // leave the app to show it, and nothing uploads.
      expect(await dragFiles(page, [{ name: 'stray.txt', bytes: text('x') }], { on: '.sidebar' })).toBe(true);
      expect(await transfersPanel(page).count()).toBe(0);

      await page.goto(`${suite.server.url}/shared`);
      await openFolder(page, 'Viewed Folder');
      const sent: string[] = [];
      page.on('request', (r) => r.url().includes('/api/upload') && sent.push(r.url()));
      await dragFiles(page, [{ name: 'refused.txt', bytes: text('no') }], { drop: false });
      await page.getByText('You do not have permission to upload files here', { exact: true }).first().waitFor();
      await saveScreenshot(page, 'transfers-drop-refused-1280-light', { fullPage: false });
      await leaveDrag(page);
      await dragFiles(page, [{ name: 'refused.txt', bytes: text('no') }]);
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByText('You do not have permission to upload files here', { exact: true })
        .waitFor();
      expect(await transfersPanel(page).count()).toBe(0);
      expect(sent).toEqual([]);
    },
    SLOW,
  );

  test(
    'screenshots: the panel running and done, and the duplicate-name question, at 375 and 1280 px in light and dark',
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      // The sign-in toast would cover the panel.
      await page.getByText('Login successful! Redirecting...').waitFor({ state: 'detached' });
      for (const scheme of ['light', 'dark'] as const) {
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          const tag = `${width}-${scheme}`;
          await dragFiles(page, [{ name: 'hover.txt', bytes: text('x') }], { drop: false });
          await page.getByText('Drop files to upload to My Files', { exact: true }).waitFor();
          await saveScreenshot(page, `transfers-drop-target-${tag}`, { fullPage: false });
          await leaveDrag(page);

          const release = await holdParts(page);
          const big = `shot-${tag}-a-rather-long-file-name-for-the-row.bin`;
          await dragFiles(page, [
            { name: big, random: { size: 9 * MIB, seed: width } },
            { name: `shot-${tag}-b.txt`, bytes: text('b') },
          ]);
          await transferRow(page, big).getByText('Uploading...', { exact: true }).waitFor({ timeout: 60_000 });
          await saveScreenshot(page, `transfers-panel-running-${tag}`, { fullPage: false });
          await release();
          await waitForSummary(page, 'All 2 files uploaded successfully!', 120_000);
          await saveScreenshot(page, `transfers-panel-done-${tag}`, { fullPage: false });

          await dragFiles(page, [
            { name: `shot-${tag}-b.txt`, bytes: text('b2') },
            { name: `shot-${tag}-a-rather-long-file-name-for-the-row.bin`, bytes: text('a2') },
          ]);
          const question = page.getByRole('dialog', { name: 'This name is already used' });
          await question.waitFor();
          await saveScreenshot(page, `transfers-duplicate-${tag}`, { fullPage: false });
          expect(await checkA11y(page, `duplicate-name dialog ${tag}`)).toBe('');
          await question.getByLabel(/Apply to all 2 files/).check();
          await question.getByRole('button', { name: 'Skip' }).click();
          await question.waitFor({ state: 'hidden' });
          await closeTransfers(page);
        }
      }
    },
    SLOW * 2,
  );
});
