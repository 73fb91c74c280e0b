/**
 * Phone and browser conventions (docs/web-files.md "Phone and browser conventions"): the
 * browser's Back closes the previewer and stays on the folder, while its X and Escape leave no
 * stray history entry; a Move (one item, or the selection's) clears the selection; a toast raised
 * while a dialog is open shows above the dialog's backdrop; a viewer of a shared folder sees no
 * Upload File button. Screenshots at 375 and 1280 px, light and dark, and the axe check of each.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, signInToFiles, type ApiFolder } from '../../support/files.ts';
import { saveScreenshot, saveScreenshots } from '../../support/screenshots.ts';
import { apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });

const bytes = (text: string) => new TextEncoder().encode(text);
const body = (page: Page) => page.locator('.browser__body');
const nameButton = (page: Page, name: string) => body(page).getByRole('button', { name, exact: true });
const row = (page: Page, name: string) =>
  page.locator('tbody tr[data-item-id]', { has: page.getByRole('button', { name, exact: true }) });
const bar = (page: Page) => page.getByRole('region', { name: 'Selection' });
const previewer = (page: Page) => page.locator('dialog.preview[open]');
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

let owner: TestUser;
let viewer: TestUser;

/** A fresh folder of the owner's, with three files and a subfolder, open in a new browser. */
async function openFolder(name: string): Promise<{ page: Page; folder: ApiFolder; url: string }> {
  const session = await apiLogin(suite.server.url, owner);
  const folder = await apiCreateFolder(session, null, name);
  await apiCreateFolder(session, folder, 'Inbox');
  for (const file of ['a.txt', 'b.txt', 'c.txt']) await apiUploadFile(session, folder, file, bytes(`${file}\n`), 'text/plain');
  const page = await signInToFiles(
    await suite.newBrowser({ expectHttpErrors: [{ status: 500, path: /^\/api\/file\// }] }),
    suite.server.url,
    owner,
  );
  const url = `${suite.server.url}/files?parentId=${folder.id}&sortBy=name&sortOrder=asc`;
  await page.goto(url);
  await row(page, 'c.txt').waitFor();
  return { page, folder, url };
}

/** The axe check once the theme's colours have faded over (a toast's countdown aside). */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) =>
          a.playState !== 'running' ||
          a.effect?.getComputedTiming().iterations === Infinity ||
          (a.effect instanceof KeyframeEffect && a.effect.target?.closest('.sb-toaster')),
      ),
  );
  expect(await checkA11y(page, screen)).toBe('');
}

async function expectAccessibleInBoth(page: Page, screen: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, `${screen} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Moves through the Move dialog now open into the folder's Inbox. */
async function moveToInbox(page: Page, title: string, folderName: string): Promise<void> {
  const move = page.getByRole('dialog', { name: title });
  await move.getByRole('button', { name: new RegExp(folderName) }).click();
  await move.getByRole('button', { name: /Inbox/ }).click();
  await move.getByRole('button', { name: 'Move here' }).click();
  await move.waitFor({ state: 'detached' });
}

describe.skipIf(skipWithoutBrowser)('phone and browser conventions', () => {
  beforeAll(async () => {
    owner = await createUser(suite.server.url);
    viewer = await createUser(suite.server.url);
  }, SLOW);

  test(
    'Back closes the previewer and stays on the folder; X and Escape leave no stray entry',
    async () => {
      const { page, url } = await openFolder('Back');
      const atFolder = () => expect(page.url()).toBe(url);

      await nameButton(page, 'a.txt').click();
      await previewer(page).waitFor();
      await page.goBack();
      await previewer(page).waitFor({ state: 'detached' });
      atFolder();
      await row(page, 'a.txt').waitFor();
      await saveScreenshots(page, 'phone-conventions-back', { fullPage: false });

      // Closed by its X, then by Escape: Back afterwards leaves the folder, as before opening.
      await nameButton(page, 'b.txt').click();
      await previewer(page).getByRole('button', { name: 'Close preview' }).click();
      await previewer(page).waitFor({ state: 'detached' });
      await nameButton(page, 'c.txt').click();
      await previewer(page).waitFor();
      await page.keyboard.press('Escape');
      await previewer(page).waitFor({ state: 'detached' });
      atFolder();
      await page.goBack();
      await page.waitForURL((next) => next.href !== url);
      expect(new URL(page.url()).searchParams.get('parentId')).toBeNull();
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      expect(await previewer(page).count()).toBe(0);
    },
    SLOW,
  );

  test(
    'a Move clears the selection, one item or the selection bar',
    async () => {
      const { page } = await openFolder('Moves');
      // a and b selected; c moved through its own menu: nothing stays selected.
      await row(page, 'a.txt').getByRole('checkbox', { name: 'Select a.txt' }).click();
      await row(page, 'b.txt').getByRole('checkbox', { name: 'Select b.txt' }).click();
      await bar(page).getByText('2 selected', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Actions for c.txt', exact: true }).click();
      await page.getByRole('menuitem', { name: /^Move/ }).click();
      await moveToInbox(page, 'Move c.txt', 'Moves');
      await row(page, 'c.txt').waitFor({ state: 'detached' });
      await bar(page).waitFor({ state: 'detached' });
      expect(await page.locator('input.select-box:checked').count()).toBe(0);

      // The selection bar's Move: in the folder they went to, none of them is still selected.
      await row(page, 'a.txt').getByRole('checkbox', { name: 'Select a.txt' }).click();
      await row(page, 'b.txt').getByRole('checkbox', { name: 'Select b.txt' }).click();
      await bar(page).getByRole('button', { name: 'Move', exact: true }).click();
      await moveToInbox(page, 'Move 2 items', 'Moves');
      await row(page, 'a.txt').waitFor({ state: 'detached' });
      await nameButton(page, 'Inbox').click();
      await row(page, 'b.txt').waitFor();
      expect(await bar(page).count()).toBe(0);
      expect(await page.locator('input.select-box:checked').count()).toBe(0);
      await saveScreenshots(page, 'phone-conventions-moved', { fullPage: false });
      await expectAccessibleInBoth(page, 'after a move');
    },
    SLOW,
  );

  test(
    'a toast raised while a dialog is open shows above its backdrop',
    async () => {
      const { page } = await openFolder('Toasts');
      await page.route('**/api/file**', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Error moving file."}' })
          : route.fallback(),
      );
      await page.getByRole('button', { name: 'Actions for a.txt', exact: true }).click();
      await page.getByRole('menuitem', { name: /^Move/ }).click();
      const move = page.getByRole('dialog', { name: 'Move a.txt' });
      await move.getByRole('button', { name: /Toasts/ }).click();
      await move.getByRole('button', { name: /Inbox/ }).click();
      // Each screenshot raises its own toast: one lasts 3 seconds.
      for (const width of [1280, 375])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 800 });
          await page.emulateMedia({ colorScheme });
          await move.getByRole('button', { name: 'Move here' }).click();
          const shown = notifications(page).getByText('Error moving file.').last();
          await shown.waitFor();
          // What the pointer would hit at the toast's middle is the toast, not the backdrop.
          const onTop = await shown.evaluate((toast) => {
            const box = toast.getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return hit !== null && toast.contains(hit);
          });
          expect(onTop).toBe(true);
          // And the dialog's own buttons stay free: on a phone the toasts stand at the top.
          const free = await move.getByRole('button', { name: 'Move here' }).evaluate((button) => {
            const box = button.getBoundingClientRect();
            return button.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
          });
          expect(free).toBe(true);
          await expectAccessible(page, `toast over a dialog (${width} ${colorScheme})`);
          await saveScreenshot(page, `phone-conventions-toast-${width}-${colorScheme}`, { fullPage: false });
        }
    },
    SLOW,
  );

  test(
    'a viewer of a shared folder sees no Upload File button',
    async () => {
      const session = await apiLogin(suite.server.url, owner);
      const folder = await apiCreateFolder(session, null, 'Look only');
      await apiUploadFile(session, folder, 'notes.txt', bytes('notes\n'), 'text/plain');
      await apiShareWithUser(session, folder, await publicUser(session, viewer.id), false);

      const page = await suite.newBrowser();
      await loginViaUi(page, suite.server.url, viewer);
      await page.goto(`${suite.server.url}/shared`);
      await page.getByRole('heading', { name: 'Files Shared with Me' }).waitFor();
      await nameButton(page, 'Look only').click();
      await row(page, 'notes.txt').waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Look only').first().waitFor();
      expect(await page.getByRole('button', { name: 'Upload File' }).count()).toBe(0);
      await saveScreenshots(page, 'phone-conventions-viewer', { fullPage: false });
      await expectAccessibleInBoth(page, 'a viewer in a shared folder');
    },
    SLOW,
  );

  test(
    'Undo on the move and rename toasts puts the item back',
    async () => {
      const { page } = await openFolder('Undos');
      await page.getByRole('button', { name: 'Actions for a.txt', exact: true }).click();
      await page.getByRole('menuitem', { name: /^Rename/ }).click();
      const rename = page.getByRole('dialog', { name: 'Rename file' });
      await rename.getByLabel('New name').fill('renamed.txt');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await row(page, 'renamed.txt').waitFor();
      await notifications(page).getByText('Renamed to renamed.txt', { exact: true }).waitFor();
      await saveScreenshots(page, 'phone-conventions-undo', { fullPage: false });
      await expectAccessibleInBoth(page, 'a toast with Undo');
      await notifications(page).getByRole('button', { name: 'Undo' }).click();
      await row(page, 'a.txt').waitFor();
      await notifications(page).getByText('Renamed back to a.txt', { exact: true }).waitFor();
      expect(await row(page, 'renamed.txt').count()).toBe(0);

      await page.getByRole('button', { name: 'Actions for b.txt', exact: true }).click();
      await page.getByRole('menuitem', { name: /^Move/ }).click();
      await moveToInbox(page, 'Move b.txt', 'Undos');
      await row(page, 'b.txt').waitFor({ state: 'detached' });
      const moved = notifications(page).locator('.sb-toast', { hasText: 'Moved b.txt to Inbox' });
      await moved.getByRole('button', { name: 'Undo' }).click();
      await row(page, 'b.txt').waitFor();
      await notifications(page).getByText('Moved b.txt back', { exact: true }).waitFor();
      await nameButton(page, 'Inbox').click();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Inbox').first().waitFor();
      // Inbox's own listing, not the folder's kept on screen while it loads: empty again.
      await body(page).getByText('No files found', { exact: true }).waitFor();
      expect(await row(page, 'b.txt').count()).toBe(0);
    },
    SLOW,
  );

  test(
    'on a phone the list shows a long name whole, wrapped, its extension included',
    async () => {
      const session = await apiLogin(suite.server.url, owner);
      const folder = await apiCreateFolder(session, null, 'Long names');
      const long = 'holiday-photo-from-the-harbour.jpeg';
      await apiUploadFile(session, folder, long, bytes('not a photo\n'), 'image/jpeg');
      const page = await signInToFiles(await suite.newBrowser({ width: 375 }), suite.server.url, owner);
      await page.goto(`${suite.server.url}/files?parentId=${folder.id}&view=list`);
      const name = row(page, long).locator('.item-name__text');
      await name.waitFor();
      const box = await name.evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          lines: Math.round(element.getBoundingClientRect().height / Number.parseFloat(style.lineHeight)),
          clipped: element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1,
        };
      });
      await saveScreenshot(page, 'phone-conventions-long-name-375-light', { fullPage: false });
      expect(box.clipped).toBe(false);
      expect(box.lines).toBeGreaterThanOrEqual(2);
    },
    SLOW,
  );
});
