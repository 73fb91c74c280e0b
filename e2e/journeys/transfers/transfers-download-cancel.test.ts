/**
 * Downloads in the transfers panel, cancelled and retried through the built web app and the real
 * server. The download service worker's request for the file's ciphertext is routed on the browser
 * context to a relay that sends the first MiB and stalls (support/held-downloads.ts), so the
 * browser is reliably saving the file part-way when the row's Cancel is pressed: the row says
 * Cancelled, the browser's download ends unfinished, and Retry then saves exactly the file.
 * A download failed by the network shows the failed state, and Retry saves it too.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, openFolder, signInToFiles } from '../../support/files.ts';
import { failFirstData, holdFirstDataMidway } from '../../support/held-downloads.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { sameBytes, transfersPanel } from '../../support/transfers.ts';

const SLOW = 120_000;
const MIB = 1024 * 1024;

const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });

let user: TestUser;
const files = new Map<string, { id: string; bytes: Uint8Array }>();

/** The panel's row of a download, by the name it shows. */
const downloadRow = (page: Page, name: string) =>
  transfersPanel(page).locator('.transfer-row[data-kind="download"]', { hasText: name });

/** Every download the browser starts saving, in order. */
function watchDownloads(page: Page): Download[] {
  const seen: Download[] = [];
  page.on('download', (d) => seen.push(d));
  return seen;
}

/** Starts downloading `name` from its row's Actions menu (as downloadViaMenu does, without waiting). */
async function startDownload(page: Page, name: string): Promise<void> {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Download' }).click();
}

async function savedBytes(download: Download): Promise<Uint8Array> {
  expect(await download.failure()).toBeNull();
  return new Uint8Array(await readFile(await download.path()));
}

/** Retry on the row saves the file again: the row reaches Downloaded and the `nth` save is exactly `bytes`. */
async function retrySavesExactly(page: Page, name: string, downloads: Download[], nth: number, bytes: Uint8Array) {
  await transfersPanel(page)
    .getByRole('button', { name: `Retry ${name}` })
    .click();
  await downloadRow(page, name).getByText('Downloaded', { exact: true }).waitFor({ timeout: 60_000 });
  expect(downloads.length).toBe(nth + 1);
  expect(sameBytes(await savedBytes(downloads[nth]!), bytes)).toBe(true);
}

describe.skipIf(skipWithoutBrowser)('transfers panel: downloads cancelled and retried', () => {
  beforeAll(async () => {
    user = await createUser(suite.server.url);
    const session = await apiLogin(suite.server.url, user);
    const folder = await apiCreateFolder(session, null, 'Downloads Folder');
    for (const [name, size] of [
      ['held-download.bin', 3 * MIB + 123],
      ['flaky-download.bin', 2 * MIB + 45],
    ] as const) {
      const bytes = crypto.getRandomValues(new Uint8Array(size));
      const item = await apiUploadFile(session, folder, name, bytes);
      files.set(name, { id: item.id, bytes });
    }
  }, SLOW);

  test(
    'a download held mid-way is cancelled from its row: it says Cancelled and the browser download ends unfinished; Retry saves exactly the file',
    async () => {
      const name = 'held-download.bin';
      const file = files.get(name)!;
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      await page.getByText('Login successful! Redirecting...').waitFor({ state: 'detached' });
      await openFolder(page, 'Downloads Folder');
      const downloads = watchDownloads(page);
      const held = await holdFirstDataMidway(page.context(), suite.server.url, file.id, MIB);
      const row = downloadRow(page, name);
      try {
        await startDownload(page, name);
        // The browser is saving the file, and the relay stalls after its first MiB.
        await held.stalled;
        await row.getByText('Downloading...', { exact: true }).waitFor();
        await row.getByText(/^[1-9]\d?%/).waitFor();
        await transfersPanel(page).getByRole('status').getByText('Downloading 1 item', { exact: true }).waitFor();
        expect(downloads.length).toBe(1);

        await transfersPanel(page)
          .getByRole('button', { name: `Cancel ${name}` })
          .click();
        await row.getByText('Cancelled', { exact: true }).waitFor();
        await transfersPanel(page)
          .getByRole('button', { name: `Retry ${name}` })
          .waitFor();
        // The browser's own download ends unfinished: nothing half-written is kept as the file.
        expect(await downloads[0]!.failure()).not.toBeNull();
        await saveScreenshot(page, 'transfers-download-cancelled-1280-light', { fullPage: false });

        // The rest of the held answer arrives: the cancelled download stays cancelled.
        held.release();
        await page.waitForTimeout(1_000);
        expect(await row.getByText('Cancelled', { exact: true }).count()).toBe(1);
        expect(downloads.length).toBe(1);

        await retrySavesExactly(page, name, downloads, 1, file.bytes);
        expect(held.seen()).toBe(2);
      } finally {
        await held.close();
      }
    },
    SLOW,
  );

  test(
    'a download failed by the network shows the failed state; Retry saves exactly the file',
    async () => {
      const name = 'flaky-download.bin';
      const file = files.get(name)!;
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      await openFolder(page, 'Downloads Folder');
      const downloads = watchDownloads(page);
      const seen = await failFirstData(page.context(), file.id);

      await startDownload(page, name);
      const row = downloadRow(page, name);
      await row.getByText('Error downloading file/folder. Please try again.', { exact: true }).waitFor({ timeout: 30_000 });
      await transfersPanel(page)
        .getByRole('button', { name: `Retry ${name}` })
        .waitFor();
      expect(downloads.length).toBe(0);

      await retrySavesExactly(page, name, downloads, 0, file.bytes);
      expect(seen()).toBe(2);
    },
    SLOW,
  );
});
