/**
 * The hostile-server journeys' readings of the app: what a refused row, download or preview looks
 * like, the owner's real listing (what a hostile server can replay), and text files whose content
 * the previewer would show.
 */
import { expect } from 'bun:test';
import type { Download, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import type { ApiSession } from '../../support/files.ts';
import type { ListedItem, ListingAnswer } from '../../support/hostile.ts';

/** docs/product.md "Messages" download error and why (apps/web/src/model/transfer-plan.ts). */
export const INTEGRITY_TOAST =
  "Unable to decrypt file for download. Please try again. The file's data failed its integrity check, so nothing was saved; trying again will not help while the server sends the same data.";
/** The title of a row that did not open (apps/web/src/features/files/format.ts). */
export const ROW_INTEGRITY =
  "Decryption failed. Its key or name failed the integrity check: the server's data for this item was altered or does not belong here";

/** Readable text of `length` bytes (the previewer shows it), different per `tag`. */
export function text(tag: string, length: number): Uint8Array {
  const line = `${tag} line of the hostile-server suite 0123456789\n`;
  return new TextEncoder().encode(line.repeat(Math.ceil(length / line.length)).slice(0, length));
}

/** The owner's listing of a folder, straight from the server (what a hostile one can replay). */
export async function listing(session: ApiSession, id: string | null): Promise<ListingAnswer> {
  const query = id ? `?id=${id}&depth=1&limit=100` : '?depth=1&limit=100';
  const response = await fetch(`${session.baseUrl}/api/file${query}`, { headers: { cookie: session.cookie } });
  if (!response.ok) throw new Error(`listing ${response.status}`);
  return (await response.json()) as ListingAnswer;
}

export async function itemOf(session: ApiSession, parent: string | null, id: string): Promise<ListedItem> {
  const found = (await listing(session, parent)).files.find((item) => item.id === id);
  if (!found) throw new Error(`item ${id} not listed`);
  return found;
}

export const body = (page: Page) => page.locator('.browser__body');
export const toast = (page: Page, message: string) =>
  page.getByRole('region', { name: 'Notifications' }).getByText(message, { exact: true });
export const previewer = (page: Page) => page.locator('dialog.preview[open]');
/** Rows that did not open, by the tooltip that says why. */
export const refusedRows = (page: Page) => body(page).locator(`[title$="${ROW_INTEGRITY}"]`);

export async function menuDownload(page: Page, name: string): Promise<void> {
  await page
    .getByRole('button', { name: `Actions for ${name}`, exact: true })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Download' }).click();
}

/**
 * Starts a download of `name` and expects it refused with `message`: every download Chromium
 * began for it failed (nothing saved), whether the service worker refused before streaming
 * or errored part-way.
 */
export async function expectRefusedDownload(page: Page, name: string, message = INTEGRITY_TOAST): Promise<void> {
  const downloads: Download[] = [];
  const onDownload = (download: Download) => downloads.push(download);
  page.on('download', onDownload);
  await menuDownload(page, name);
  await toast(page, message).waitFor({ timeout: 30_000 });
  await Bun.sleep(500);
  page.off('download', onDownload);
  for (const download of downloads) expect(await download.failure()).not.toBeNull();
  await toast(page, message).click();
  await toast(page, message).waitFor({ state: 'detached' });
}

/** Opens `name` in the previewer and expects 'Error decrypting file.' and none of its text. */
export async function expectRefusedPreview(page: Page, name: string, how: string): Promise<void> {
  await body(page).getByRole('button', { name, exact: true }).click();
  await page.getByRole('dialog', { name, exact: true }).waitFor();
  await previewer(page).getByText('Error decrypting file.', { exact: true }).waitFor({ timeout: 30_000 });
  expect(await previewer(page).locator('pre').count(), how).toBe(0);
  expect(
    await previewer(page)
      .getByText(/line of the hostile-server suite/)
      .count(),
    how,
  ).toBe(0);
  await page.keyboard.press('Escape');
  await previewer(page).waitFor({ state: 'detached' });
}

export async function savedDownload(page: Page, name: string): Promise<Uint8Array> {
  const started = page.waitForEvent('download', { timeout: 30_000 });
  await menuDownload(page, name);
  const download = await started;
  expect(await download.failure()).toBeNull();
  return new Uint8Array(await readFile((await download.path())!));
}

export function swap(a: ListedItem, b: ListedItem, fields: string[]): void {
  for (const field of fields) [a[field], b[field]] = [b[field], a[field]];
}

export function byId(answer: ListingAnswer, id: string): ListedItem | undefined {
  return answer.files.find((item) => item.id === id);
}
