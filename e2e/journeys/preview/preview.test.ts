/**
 * The previewer (issue 13, docs/product.md "Screens" (Previewer), "States" and "Messages"): an
 * owner made through the API keeps a folder of an image, texts, an archive, a file without
 * extension and two subfolders. In Chromium, from /files: the image by the item menu's Preview, the
 * text by a click on its name (and the row's double-click); cycling with the arrow keys and the
 * previous/next buttons skips the folders; the unsupported type's two texts; a ciphertext flipped
 * in transit shows 'Error decrypting file.'; /preview shows a local file without any /api request;
 * and /share through a link. Screenshots of the image, the text and the unsupported screen at 375
 * and 1280 px, light and dark.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { toBase64Url } from '@sealbox/crypto';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, signInToFiles, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { solidPng } from '../../support/png.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { apiShareWithUser, linkPageHeading, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser, type BrowserOptions } from '../../support/suite.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW });

const NOTES = 'Meet at the harbour at nine.\n<b>not bold</b> <script>window.__ran = 1</script>\n'.repeat(3);
/** Over 1 MiB: the text view shows its beginning and says so. */
const BIG = `${'0123456789abcdef'.repeat(4)}\n`.repeat(20_000);
const TAMPERED = 'This text will be flipped on its way to the browser.\n';

let owner: TestUser;
let session: ApiSession;
let gallery: ApiFolder;
let tampered: ApiFolder;
let brokenImage: ApiFolder;
let linkId = '';
let recipient: TestUser;
let big: ApiFolder;

const galleryUrl = () => `${suite.server.url}/files?parentId=${gallery.id}&sortBy=name&sortOrder=asc`;
const previewer = (page: Page) => page.locator('dialog.preview[open]');

async function openGallery(options: BrowserOptions = {}): Promise<Page> {
  const page = await signInToFiles(await suite.newBrowser(options), suite.server.url, owner);
  await page.goto(galleryUrl());
  await page.locator('.browser__body').getByText('b-notes.txt').first().waitFor();
  return page;
}

async function menuAction(page: Page, item: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${item}`, exact: true }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${action}`) }).click();
}

async function expectTitle(page: Page, title: string): Promise<void> {
  await page.getByRole('dialog', { name: title, exact: true }).waitFor();
}

/** Waits for the image view's picture to decode and answers its natural width. */
async function imageWidth(page: Page): Promise<number> {
  const image = previewer(page).locator('img.image-view__image');
  await image.waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('dialog.preview img.image-view__image');
    return img?.complete && img.naturalWidth > 0;
  });
  return image.evaluate((img: HTMLImageElement) => img.naturalWidth);
}

async function closePreviewer(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await previewer(page).waitFor({ state: 'detached' });
}

describe.skipIf(skipWithoutBrowser)('the previewer', () => {
  beforeAll(async () => {
    owner = await createUser(suite.server.url);
    session = await apiLogin(suite.server.url, owner);
    gallery = await apiCreateFolder(session, null, 'Gallery');
    const albums = await apiCreateFolder(session, gallery, 'Albums');
    brokenImage = await apiUploadFile(
      session,
      albums,
      'broken.png',
      new Uint8Array(solidPng(20, 20, [10, 200, 90])),
      'image/png',
    );
    big = await apiUploadFile(session, albums, 'big.txt', new TextEncoder().encode(BIG), 'text/plain');
    await apiCreateFolder(session, gallery, 'Zeta');
    const enc = new TextEncoder();
    const sunset = await apiUploadFile(
      session,
      gallery,
      'a-sunset.png',
      new Uint8Array(solidPng(64, 48, [230, 120, 40])),
      'image/png',
    );
    await apiUploadFile(session, gallery, 'b-notes.txt', enc.encode(NOTES), 'text/plain');
    await apiUploadFile(session, gallery, 'c-bundle.zip', new Uint8Array([0x50, 0x4b, 5, 6, 0, 0]), 'application/zip');
    await apiUploadFile(session, gallery, 'd-README', enc.encode('no extension'));
    tampered = await apiUploadFile(session, gallery, 'e-tampered.txt', enc.encode(TAMPERED), 'text/plain');
    const response = await fetch(`${suite.server.url}/api/share`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'link', id: gallery.id, expires: 0, password: null, edit: false }),
    });
    if (!response.ok) throw new Error(`share link: ${response.status} ${await response.text()}`);
    linkId = ((await response.json()) as { linkId: string }).linkId;
    // Shared with a user as a viewer: the folder, and the image on its own.
    recipient = await createUser(suite.server.url);
    const recipientKeys = await publicUser(session, (await apiLogin(suite.server.url, recipient)).userId);
    await apiShareWithUser(session, gallery, recipientKeys, false);
    await apiShareWithUser(session, sunset, recipientKeys, false);
  }, SLOW);

  test(
    'from /files: an image by the menu, a text by its name, the unsupported texts, at 375 and 1280 px, light and dark',
    async () => {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [1280, 375]) {
          const page = await openGallery({ width, height: width < 500 ? 740 : 800, colorScheme });
          const tag = `preview-${width}-${colorScheme}`;

          await menuAction(page, 'a-sunset.png', 'Preview');
          await expectTitle(page, 'a-sunset.png');
          expect(await imageWidth(page)).toBe(64);
          // The download button appears once the decrypted file is here.
          await previewer(page).getByRole('button', { name: 'Download' }).waitFor();
          await saveScreenshot(page, `${tag}-image`, { fullPage: false });
          await closePreviewer(page);

          await page.locator('.browser__body').getByRole('button', { name: 'b-notes.txt', exact: true }).click();
          await expectTitle(page, 'b-notes.txt');
          const text = previewer(page).locator('pre.text-view__text');
          await text.waitFor();
          // Shown as text: the markup is characters on screen, nothing ran.
          expect(await text.textContent()).toBe(NOTES);
          expect(await previewer(page).locator('b, script').count()).toBe(0);
          expect(await page.evaluate(() => (window as { __ran?: number }).__ran)).toBeUndefined();
          await saveScreenshot(page, `${tag}-text`, { fullPage: false });
          await previewer(page).getByRole('button', { name: 'Close preview' }).click();
          await previewer(page).waitFor({ state: 'detached' });

          await menuAction(page, 'c-bundle.zip', 'Preview');
          await expectTitle(page, 'c-bundle.zip');
          await previewer(page).getByText('Unsupported File Type', { exact: true }).waitFor();
          await previewer(page).getByText('Preview is not available for .zip files', { exact: true }).waitFor();
          expect(await previewer(page).getByRole('button', { name: 'Download' }).count()).toBe(0);
          await saveScreenshot(page, `${tag}-unsupported`, { fullPage: false });
          await closePreviewer(page);

          if (width === 1280 && colorScheme === 'light') {
            // A double-click on the row opens too; a file without an extension.
            await page.locator('tbody tr', { hasText: 'd-README' }).dblclick();
            await expectTitle(page, 'd-README');
            await previewer(page).getByText('Preview is not available for this file', { exact: true }).waitFor();
            await closePreviewer(page);
            // Enter on a file's name opens it; closing gives the focus back to that name.
            const name = page.locator('.browser__body').getByRole('button', { name: 'b-notes.txt', exact: true });
            await name.focus();
            await page.keyboard.press('Enter');
            await expectTitle(page, 'b-notes.txt');
            await closePreviewer(page);
            expect(await name.evaluate((element) => element === document.activeElement)).toBe(true);
          }
        }
      }
    },
    SLOW * 2,
  );

  test(
    'previous/next by arrow keys and buttons cycle over the files, skipping folders',
    async () => {
      const page = await openGallery();
      await menuAction(page, 'a-sunset.png', 'Preview');
      await expectTitle(page, 'a-sunset.png');
      await imageWidth(page);
      await page.keyboard.press('ArrowRight');
      await expectTitle(page, 'b-notes.txt');
      await previewer(page).locator('pre.text-view__text').waitFor();
      await page.keyboard.press('ArrowLeft');
      await expectTitle(page, 'a-sunset.png');
      // Back past the start: the folders Albums and Zeta are skipped, the last file comes next.
      await page.keyboard.press('ArrowLeft');
      await expectTitle(page, 'e-tampered.txt');
      await previewer(page).getByRole('button', { name: 'Next file' }).click();
      await expectTitle(page, 'a-sunset.png');
      await previewer(page).getByRole('button', { name: 'Next file' }).click();
      await expectTitle(page, 'b-notes.txt');
      await previewer(page).getByRole('button', { name: 'Previous file' }).click();
      await expectTitle(page, 'a-sunset.png');
      // Back on a file seen before, the cached object URL shows it again.
      expect(await imageWidth(page)).toBe(64);
      // docs/product.md "Input rules" and "Limits": buttons step 0.2, the wheel 0.1, within 0.2 to
      // 5; a double-click resets.
      const zoom = previewer(page).getByLabel('Zoom level');
      await previewer(page).getByRole('button', { name: 'Zoom in' }).click();
      expect(await zoom.textContent()).toBe('120%');
      const stage = previewer(page).locator('.image-view__stage');
      await stage.hover();
      await page.mouse.wheel(0, -100);
      await page.waitForFunction(() => document.querySelector('output.image-view__zoom')?.textContent === '130%');
      for (let i = 0; i < 50; i += 1) await page.mouse.wheel(0, -100);
      await page.waitForFunction(() => document.querySelector('output.image-view__zoom')?.textContent === '500%');
      expect(await previewer(page).getByRole('button', { name: 'Zoom in' }).isDisabled()).toBe(true);
      await stage.dblclick();
      expect(await zoom.textContent()).toBe('100%');
      for (let i = 0; i < 6; i += 1) await previewer(page).getByRole('button', { name: 'Zoom out' }).click({ force: true });
      expect(await zoom.textContent()).toBe('20%');
      await stage.dblclick();
      // The download button saves the file, decrypted, under its name.
      const started = page.waitForEvent('download', { timeout: 60_000 });
      await previewer(page).getByRole('button', { name: 'Download' }).click();
      const got = await started;
      expect(got.suggestedFilename()).toBe('a-sunset.png');
      expect(Buffer.compare(await readFile((await got.path())!), solidPng(64, 48, [230, 120, 40]))).toBe(0);
      // Focus stays in the dialog: Tab never reaches the page behind it.
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => !!document.activeElement?.closest('dialog.preview'))).toBe(true);
      }
      await closePreviewer(page);
    },
    SLOW,
  );

  test(
    'a file opened from search results previews without previous/next',
    async () => {
      const page = await openGallery();
      await page.getByPlaceholder('Search files...').fill('notes');
      const results = page.getByRole('list', { name: 'Search results' });
      await results.getByRole('button', { name: 'b-notes.txt', exact: true }).click();
      await expectTitle(page, 'b-notes.txt');
      await previewer(page).locator('pre.text-view__text').waitFor();
      expect(await previewer(page).getByRole('button', { name: 'Next file' }).count()).toBe(0);
      await page.keyboard.press('ArrowRight');
      await expectTitle(page, 'b-notes.txt');
      await closePreviewer(page);
    },
    SLOW,
  );

  test(
    'a text over 1 MiB shows its beginning and says so',
    async () => {
      const page = await openGallery();
      // Only the chunks that hold the first MiB are fetched: every data request asks for a range.
      const ranges: Array<string | undefined> = [];
      await page.context().route(`**/api/file/data/${big.id}*`, async (route) => {
        ranges.push(route.request().headers().range);
        await route.continue();
      });
      await page.locator('.browser__body').getByRole('button', { name: 'Albums', exact: true }).click();
      await page.locator('.browser__body').getByRole('button', { name: 'big.txt', exact: true }).click();
      await expectTitle(page, 'big.txt');
      await previewer(page)
        .getByText(/^Showing the first 1\.0 MiB of 1\.2 MiB\./)
        .waitFor();
      const shown = await previewer(page).locator('pre.text-view__text').textContent();
      expect(shown?.length).toBe(1024 * 1024);
      expect(BIG.startsWith(shown ?? 'x')).toBe(true);
      expect(ranges.length).toBeGreaterThan(0);
      // Four whole chunks of 256 KiB, each with its 16-byte tag.
      expect(ranges.every((range) => range === `bytes=0-${4 * (256 * 1024 + 16) - 1}`)).toBe(true);
    },
    SLOW,
  );

  test(
    'a ciphertext changed on its way shows Error decrypting file.',
    async () => {
      const page = await openGallery();
      let flipped = 0;
      await page.context().route(`**/api/file/data/${tampered.id}*`, async (route) => {
        const response = await route.fetch();
        const body = Buffer.from(await response.body());
        body[5] = (body[5] ?? 0) ^ 0x01;
        flipped += 1;
        await route.fulfill({ response, body });
      });
      await page.locator('.browser__body').getByRole('button', { name: 'e-tampered.txt', exact: true }).click();
      await expectTitle(page, 'e-tampered.txt');
      await previewer(page).getByText('Error decrypting file.', { exact: true }).waitFor();
      expect(flipped).toBeGreaterThan(0);
      expect(await previewer(page).locator('pre').count()).toBe(0);
      expect(await previewer(page).getByRole('button', { name: 'Download' }).count()).toBe(0);
      await closePreviewer(page);

      // An image, decrypted whole (not just its first chunks): the same.
      await page.context().route(`**/api/file/data/${brokenImage.id}*`, async (route) => {
        const response = await route.fetch();
        const body = Buffer.from(await response.body());
        body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0x80;
        flipped += 1;
        await route.fulfill({ response, body });
      });
      await page.locator('.browser__body').getByRole('button', { name: 'Albums', exact: true }).click();
      await page.locator('.browser__body').getByRole('button', { name: 'broken.png', exact: true }).click();
      await expectTitle(page, 'broken.png');
      await previewer(page).getByText('Error decrypting file.', { exact: true }).waitFor();
      expect(flipped).toBeGreaterThan(1);
      expect(await previewer(page).locator('img').count()).toBe(0);
    },
    SLOW,
  );

  test(
    '/preview opens a local file without any request to the API',
    async () => {
      const page = await suite.newBrowser();
      await page.goto(`${suite.server.url}/preview`);
      await page.getByRole('button', { name: 'Select File to Preview' }).waitFor();
      const api: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) api.push(request.url());
      });
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Select File to Preview' }).click();
      await (await chooser).setFiles({
        name: 'local.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Only on this machine.\n'),
      });
      await expectTitle(page, 'local.txt');
      expect(await previewer(page).locator('pre.text-view__text').textContent()).toBe('Only on this machine.\n');
      const download = previewer(page).getByRole('link', { name: 'Download' });
      await download.waitFor();
      expect(await download.getAttribute('download')).toBe('local.txt');
      await closePreviewer(page);
      expect(api).toEqual([]);
    },
    SLOW,
  );

  test(
    '/preview: a local image larger than the screen fits it, at 375 and 1280 px',
    async () => {
      for (const width of [375, 1280]) {
        const page = await suite.newBrowser({ width, height: 740, colorScheme: width < 500 ? 'dark' : 'light' });
        await page.goto(`${suite.server.url}/preview`);
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: 'Select File to Preview' }).click();
        await (await chooser).setFiles({ name: 'wide.png', mimeType: 'image/png', buffer: solidPng(2400, 1600, [40, 90, 200]) });
        await expectTitle(page, 'wide.png');
        expect(await imageWidth(page)).toBe(2400);
        const box = (await previewer(page).locator('img.image-view__image').boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
        expect(box.y + box.height).toBeLessThanOrEqual(740.5);
        await saveScreenshot(page, `preview-${width}-local-image`, { fullPage: false });
      }
    },
    SLOW,
  );

  test(
    '/shared: a recipient previews a file shared alone and one inside a shared folder',
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, recipient);
      await page.goto(`${suite.server.url}/shared?sortBy=name&sortOrder=asc`);
      const body = page.locator('.browser__body');
      await body.getByRole('button', { name: 'a-sunset.png', exact: true }).click();
      await expectTitle(page, 'a-sunset.png');
      expect(await imageWidth(page)).toBe(64);
      await closePreviewer(page);
      await body.getByRole('button', { name: 'Gallery', exact: true }).click();
      await menuAction(page, 'b-notes.txt', 'Preview');
      await expectTitle(page, 'b-notes.txt');
      expect(await previewer(page).locator('pre.text-view__text').textContent()).toBe(NOTES);
      await page.keyboard.press('ArrowRight');
      await previewer(page).getByText('Preview is not available for .zip files', { exact: true }).waitFor();
    },
    SLOW,
  );

  test(
    '/share: a link visitor previews and cycles under the link key',
    async () => {
      const page = await suite.newBrowser();
      await page.goto(`${suite.server.url}/share?linkId=${linkId}&sortBy=name&sortOrder=asc#${toBase64Url(gallery.key)}`);
      await linkPageHeading(page).waitFor();
      const body = page.locator('.browser__body');
      await body.getByRole('button', { name: 'b-notes.txt', exact: true }).click();
      await expectTitle(page, 'b-notes.txt');
      expect(await previewer(page).locator('pre.text-view__text').textContent()).toBe(NOTES);
      await page.keyboard.press('ArrowLeft');
      await expectTitle(page, 'a-sunset.png');
      expect(await imageWidth(page)).toBe(64);
      await closePreviewer(page);
      await menuAction(page, 'c-bundle.zip', 'Preview');
      await previewer(page).getByText('Preview is not available for .zip files', { exact: true }).waitFor();
    },
    SLOW,
  );
});
