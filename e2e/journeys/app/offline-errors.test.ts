/**
 * Errors that say what happened and recover by themselves (issue 23, docs/web-files.md "Errors
 * that say what happened"): offline, a banner says so on every screen; Refresh says it cannot
 * reach the server; a preview opened offline says the browser is offline (not "Error decrypting
 * file."), keeps Try again and Download, and loads by itself once the connection is back; a
 * download started offline says so and starts by itself once back; so does an upload. Screenshots at 375 and 1280
 * px, light and dark, and the axe check of the offline screen.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { checkA11y } from '../../support/axe.ts';
import { apiUploadFile, apiUserWithFolder, folderLink, type ApiFolder } from '../../support/files.ts';
import type { TestUser } from '../../support/accounts.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, transferRow, waitForSummary } from '../../support/transfers.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW });
const OFFLINE_BANNER = 'You are offline. Uploads, downloads and changes wait until the connection is back.';
const PREVIEW_OFFLINE = 'You are offline. It will load again by itself when the connection is back.';
const REFRESH_OFFLINE = 'Cannot reach the server: you are offline. The list updates by itself when the connection is back.';
const UPLOAD_OFFLINE = 'Upload stopped: you are offline. It goes on by itself when the connection is back.';
const DOWNLOAD_OFFLINE = 'Download stopped: you are offline. It starts again by itself when the connection is back.';
const notes = new TextEncoder().encode('The spare key is under the blue pot.\n');

let user: TestUser;
let folder: ApiFolder;

const toastText = (page: Page, text: string) => page.locator('.sb-toaster').getByText(text, { exact: true }).first();

async function goOffline(page: Page, offline: boolean): Promise<void> {
  await page.context().setOffline(offline);
  await page.waitForFunction((wanted) => navigator.onLine === wanted, !offline);
}

describe.skipIf(skipWithoutBrowser)('offline, told and recovered', () => {
  beforeAll(async () => {
    const made = await apiUserWithFolder(suite.server.url, 'Keys');
    user = made.user;
    folder = made.folder;
    await apiUploadFile(made.session, folder, 'notes.txt', notes, 'text/plain');
  }, SLOW);

  test(
    'a banner, Refresh that says why, a preview and a download that resume once back online',
    async () => {
      const page = await suite.signedIn(user, { expectOffline: true });
      await folderLink(page, 'Keys').click();
      const body = page.locator('.browser__body');
      await body.getByText('notes.txt').first().waitFor();

      await goOffline(page, true);
      await page.getByText(OFFLINE_BANNER, { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await toastText(page, REFRESH_OFFLINE).waitFor();
      expect(await checkA11y(page, 'offline banner')).toBe('');
      await saveScreenshots(page, 'offline-banner', { fullPage: false });

      // A preview opened offline says so, keeps Try again and Download, and loads once back.
      await body.getByText('notes.txt').first().click();
      const preview = page.getByRole('dialog', { name: 'notes.txt' });
      await preview.getByText(PREVIEW_OFFLINE, { exact: true }).waitFor();
      expect(await preview.getByText('Error decrypting file.').count()).toBe(0);
      await preview.getByRole('button', { name: 'Try again' }).waitFor();
      await preview.getByRole('button', { name: 'Download' }).waitFor();
      await saveScreenshots(page, 'offline-preview', { fullPage: false });
      await goOffline(page, false);
      await preview.getByText('The spare key is under the blue pot.').waitFor({ timeout: 30_000 });
      expect(await page.getByText(OFFLINE_BANNER, { exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Close preview' }).click();

      // A download started offline says so, and starts by itself once back.
      await goOffline(page, true);
      await page.getByRole('button', { name: 'Actions for notes.txt' }).first().click();
      await page.getByRole('menuitem', { name: 'Download' }).click();
      await toastText(page, DOWNLOAD_OFFLINE).waitFor();
      const started = page.waitForEvent('download', { timeout: 60_000 });
      await goOffline(page, false);
      const got = await started;
      expect(await got.failure()).toBeNull();
      expect(got.suggestedFilename()).toBe('notes.txt');
      expect(new Uint8Array(await readFile(await got.path()))).toEqual(notes);
    },
    SLOW,
  );

  test(
    'an upload that failed offline goes on by itself once back online',
    async () => {
      const page = await suite.signedIn(user, { expectOffline: true });
      await goOffline(page, true);
      await pickFiles(page, [{ name: 'while-away.txt', mimeType: 'text/plain', buffer: Buffer.from('written offline\n') }]);
      await transferRow(page, 'while-away.txt').getByText(UPLOAD_OFFLINE, { exact: true }).waitFor();
      await saveScreenshots(page, 'offline-upload', { fullPage: false });
      await goOffline(page, false);
      await waitForSummary(page, '1 file uploaded successfully!');
      await page.locator('.browser__body').getByText('while-away.txt').first().waitFor();
    },
    SLOW,
  );
});
