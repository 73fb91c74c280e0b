/**
 * File browser journeys through the built web app and the real server (docs/product.md "Screens",
 * "Input rules", "Roles" and "Messages"): folders created, renamed, moved and deleted through the
 * UI and found again after a reload (names decrypt in the browser from keys in IndexedDB); search
 * with Jump to Folder; pagination, sorting by header, list and grid; the move dialog's refusals;
 * screenshots at 375 and 1280 px in light and dark. Every page is watched for console errors and
 * CSP violations.
 */
import { describe, expect, test } from 'bun:test';
import type { Locator, Page } from 'playwright-core';
import { createUser, type TestUser } from '../../support/accounts.ts';
import {
  apiCreateFolder,
  apiCreateFolders,
  apiLogin,
  createFolderViaUi,
  folderLink,
  signInToFiles,
} from '../../support/files.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 120_000;

const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });
const { newBrowser } = suite;

/** A signed-in browser on /files. */
async function signedIn(user: TestUser, options: Parameters<typeof newBrowser>[0] = {}): Promise<Page> {
  return signInToFiles(await newBrowser(options), suite.server.url, user);
}

const rows = (page: Page) => page.locator('tbody tr[data-item-id]');
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
const search = (page: Page) => new URL(page.url()).searchParams;

async function menuAction(page: Page, item: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${item}`, exact: true }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${action}`) }).click();
}

async function names(page: Page): Promise<string[]> {
  return page.locator('tbody tr[data-item-id] .item-name__text').allTextContents();
}

async function crumbTexts(page: Page): Promise<string[]> {
  return (await page.getByRole('navigation', { name: 'Breadcrumb' }).locator('li').allTextContents()).map((t) =>
    t.replace('/', '').trim(),
  );
}

async function expectDisabled(locator: Locator, disabled = true) {
  expect(await locator.isDisabled()).toBe(disabled);
}

describe.skipIf(skipWithoutBrowser)('file browser', () => {
  test(
    'folders: create nested, rename, move, delete, then reload and find everything',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await signedIn(user);

      // Empty state of a new account.
      await page.getByText('No files found', { exact: true }).waitFor();
      await page.getByText('Upload a file to get started', { exact: true }).waitFor();

      // Create is disabled while the name is blank after trimming (docs/product.md "Input rules").
      await page.getByRole('button', { name: 'New Folder' }).click();
      const create = dialog(page, 'Create folder');
      await expectDisabled(create.getByRole('button', { name: 'Create' }));
      await create.getByLabel('Folder name').fill('   ');
      await expectDisabled(create.getByRole('button', { name: 'Create' }));
      await create.getByRole('button', { name: 'Cancel' }).click();
      await create.waitFor({ state: 'detached' });

      await createFolderViaUi(page, 'Projects');
      await createFolderViaUi(page, 'Archive');
      // The profile's default sort (name, ascending) applies while the URL has none.
      expect(await names(page)).toEqual(['Archive', 'Projects']);

      // Nested: Projects / Drafts / Deep.
      await folderLink(page, 'Projects').click();
      await page.waitForURL((url) => url.searchParams.has('parentId'));
      const projectsId = search(page).get('parentId');
      await page.getByText('No files found', { exact: true }).waitFor();
      await createFolderViaUi(page, 'Drafts');
      await folderLink(page, 'Drafts').click();
      await page.waitForURL((url) => url.searchParams.get('parentId') !== projectsId);
      await createFolderViaUi(page, 'Deep');
      expect(await crumbTexts(page)).toEqual(['Home', 'Projects', 'Drafts']);

      // Home through the breadcrumbs.
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Home' }).click();
      await page.waitForURL((url) => !url.searchParams.has('parentId'));
      await folderLink(page, 'Archive').waitFor();

      // Rename (non-blank).
      await menuAction(page, 'Archive', 'Rename');
      const rename = dialog(page, 'Rename folder');
      await rename.getByLabel('New name').fill('  ');
      await expectDisabled(rename.getByRole('button', { name: 'Rename' }));
      await rename.getByLabel('New name').fill('Old stuff');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await rename.waitFor({ state: 'detached' });
      await folderLink(page, 'Old stuff').waitFor();

      // Move Old stuff into Projects: the dialog opens at its current folder, which cannot take
      // it; a neutral hint (no red refusal before the user chose anything), Move here disabled.
      await menuAction(page, 'Old stuff', 'Move');
      const move = dialog(page, 'Move Old stuff');
      await move.getByText('Choose a folder to move this item to.').waitFor();
      await expectDisabled(move.getByRole('button', { name: 'Move here' }));
      // The item itself cannot be entered.
      await expectDisabled(move.getByRole('button', { name: /^Old stuff/ }));
      await move.getByRole('button', { name: /^Projects/ }).click();
      await move.getByText('Move to Projects').waitFor();
      await move.getByRole('button', { name: 'Move here' }).click();
      await move.waitFor({ state: 'detached' });
      await folderLink(page, 'Old stuff').waitFor({ state: 'detached' });
      expect(await names(page)).toEqual(['Projects']);

      // Delete Deep (inside Projects / Drafts).
      await folderLink(page, 'Projects').click();
      await folderLink(page, 'Old stuff').waitFor();
      await folderLink(page, 'Drafts').click();
      await folderLink(page, 'Deep').waitFor();
      await menuAction(page, 'Deep', 'Delete');
      const del = dialog(page, 'Delete folder?');
      await del.getByRole('button', { name: 'Delete' }).click();
      await del.waitFor({ state: 'detached' });
      await page.getByText('No files found', { exact: true }).waitFor();

      // Reload: the path and every name decrypt again from the keys kept in this browser.
      await page.reload();
      await page.getByText('No files found', { exact: true }).waitFor();
      expect(await crumbTexts(page)).toEqual(['Home', 'Projects', 'Drafts']);
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Projects' }).click();
      await folderLink(page, 'Old stuff').waitFor();
      expect((await names(page)).sort()).toEqual(['Drafts', 'Old stuff']);
      await page.goto(`${suite.server.url}/files`);
      await folderLink(page, 'Projects').waitFor();
      expect(await names(page)).toEqual(['Projects']);

      // Info shows the fields of an item.
      await menuAction(page, 'Projects', 'Info');
      const info = dialog(page, 'Folder info');
      await info.getByText('Can edit').waitFor();
      await info.getByText(`${user.username} (you)`).first().waitFor();
      await info.getByRole('button', { name: 'Close' }).first().click();
      await info.waitFor({ state: 'detached' });
    },
    SLOW,
  );

  test(
    'move dialog: refuses the item itself, its descendants, the current parent, and explains why',
    async () => {
      const user = await createUser(suite.server.url);
      const api = await apiLogin(suite.server.url, user);
      const a = await apiCreateFolder(api, null, 'Alpha');
      const b = await apiCreateFolder(api, a, 'Beta');
      await apiCreateFolder(api, b, 'Gamma');
      await apiCreateFolder(api, null, 'Other');
      const page = await signedIn(user);
      await folderLink(page, 'Alpha').waitFor();

      // Moving Alpha: root is its current parent; Alpha itself (and so all under it) cannot be entered.
      await menuAction(page, 'Alpha', 'Move');
      const move = dialog(page, 'Move Alpha');
      await move.getByText('Choose a folder to move this item to.').waitFor();
      expect(await move.getByText('The item is already in this folder.').count()).toBe(0);
      await expectDisabled(move.getByRole('button', { name: 'Move here' }));
      await expectDisabled(move.getByRole('button', { name: /^Alpha/ }));
      await move.getByRole('button', { name: /^Other/ }).click();
      await move.getByText('Move to Other').waitFor();
      await expectDisabled(move.getByRole('button', { name: 'Move here' }), false);
      await move.getByRole('button', { name: 'Cancel' }).click();

      // Moving Beta (in Alpha): Alpha is its current parent; the top level is allowed (owner).
      await folderLink(page, 'Alpha').click();
      await folderLink(page, 'Beta').waitFor();
      await menuAction(page, 'Beta', 'Move');
      const moveBeta = dialog(page, 'Move Beta');
      await expectDisabled(moveBeta.getByRole('button', { name: 'Move here' }), false);
      await moveBeta.getByRole('button', { name: /^Alpha/ }).click();
      await moveBeta.getByText('The item is already in this folder.').waitFor();
      await expectDisabled(moveBeta.getByRole('button', { name: 'Move here' }));
      await expectDisabled(moveBeta.getByRole('button', { name: /^Beta/ }));
      await screenshotPair(page, 'files-move-dialog');
      await moveBeta.getByRole('button', { name: 'My Files' }).click();
      await moveBeta.getByRole('button', { name: 'Move here' }).click();
      await moveBeta.waitFor({ state: 'detached' });
      await page.getByText('No files found', { exact: true }).waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Home' }).click();
      await folderLink(page, 'Beta').waitFor();
      expect((await names(page)).sort()).toEqual(['Alpha', 'Beta', 'Other']);

      // The server refuses what the dialog refuses (a move into a descendant), in case a UI check is skipped.
      const refused = await fetch(`${suite.server.url}/api/file/${a.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie: api.cookie },
        body: JSON.stringify({ type: 'move', parentId: a.id, encryptedKey: 'A'.repeat(64), keyNonce: 'A'.repeat(16) }),
      });
      expect(refused.status).toBe(400);
    },
    SLOW,
  );

  test(
    'search over the whole tree, No files found, and Jump to Folder',
    async () => {
      const user = await createUser(suite.server.url);
      const api = await apiLogin(suite.server.url, user);
      const work = await apiCreateFolder(api, null, 'Work');
      const y2024 = await apiCreateFolder(api, work, '2024');
      await apiCreateFolder(api, y2024, 'Quarterly report');
      await apiCreateFolder(api, null, 'Holiday photos');
      const page = await signedIn(user);
      await folderLink(page, 'Work').waitFor();

      const box = page.getByPlaceholder('Search files...');
      await box.fill('REPORT');
      const results = page.getByRole('list', { name: 'Search results' });
      await results.getByText('Quarterly report', { exact: true }).waitFor();
      await results.getByText('My Files / Work / 2024').waitFor();
      await screenshotPair(page, 'files-search');

      await box.fill('no such thing');
      await page.getByText('No files found', { exact: true }).waitFor();

      await box.fill('quarterly');
      await results.getByRole('button', { name: 'Jump to Folder' }).click();
      await page.waitForURL((url) => url.searchParams.get('parentId') === y2024.id);
      await folderLink(page, 'Quarterly report').waitFor();
      expect(await box.inputValue()).toBe('');
      expect(await crumbTexts(page)).toEqual(['Home', 'Work', '2024']);
    },
    SLOW,
  );

  test(
    'pagination 20/100/All, sorting by header (asc, desc, cleared), list and grid',
    async () => {
      const user = await createUser(suite.server.url);
      const api = await apiLogin(suite.server.url, user);
      const labels = Array.from({ length: 25 }, (_, i) => `Folder ${String(i + 1).padStart(2, '0')}`);
      // Created in a shuffled order, so sorting by name is visible.
      const shuffled = [...labels].sort((x, y) => (x.charCodeAt(8) % 3) - (y.charCodeAt(8) % 3) || y.localeCompare(x));
      for (const name of shuffled) {
        await apiCreateFolder(api, null, name);
        await Bun.sleep(2); // distinct createdAt milliseconds, so "Created" has one right order
      }
      const page = await signedIn(user);
      await rows(page).first().waitFor();

      // Default 20 per page.
      expect(await rows(page).count()).toBe(20);
      await page.getByText('1–20 of 25').waitFor();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText('21–25 of 25').waitFor();
      expect(await rows(page).count()).toBe(5);
      await page.getByLabel('Items per page').selectOption('0');
      await page.getByText('1–25 of 25').waitFor();
      expect(await rows(page).count()).toBe(25);
      await page.getByLabel('Items per page').selectOption('100');
      expect(await rows(page).count()).toBe(25);
      await page.getByLabel('Items per page').selectOption('20');

      // Header sort: asc → desc → cleared (the params leave the URL and the profile's name order returns).
      const createdHeader = page.getByRole('columnheader', { name: 'Created' }).getByRole('button');
      await createdHeader.click();
      await page.waitForURL((url) => url.searchParams.get('sortBy') === 'created' && url.searchParams.get('sortOrder') === 'asc');
      expect((await names(page)).slice(0, 3)).toEqual(shuffled.slice(0, 3));
      expect(await page.getByRole('columnheader', { name: 'Created' }).getAttribute('aria-sort')).toBe('ascending');
      await createdHeader.click();
      await page.waitForURL((url) => url.searchParams.get('sortOrder') === 'desc');
      expect((await names(page)).slice(0, 3)).toEqual(shuffled.slice(-3).reverse());
      await createdHeader.click();
      await page.waitForURL((url) => !url.searchParams.has('sortBy') && !url.searchParams.has('sortOrder'));
      expect((await names(page)).slice(0, 3)).toEqual(['Folder 01', 'Folder 02', 'Folder 03']);
      const nameHeader = page.getByRole('columnheader', { name: 'Name' }).getByRole('button');
      await nameHeader.click();
      await page.waitForURL((url) => url.searchParams.get('sortBy') === 'name' && url.searchParams.get('sortOrder') === 'desc');
      expect((await names(page)).slice(0, 3)).toEqual(['Folder 25', 'Folder 24', 'Folder 23']);
      expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
      await nameHeader.click();
      await page.waitForURL((url) => !url.searchParams.has('sortBy'));

      // All eight columns at 1400+, fewer below.
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.getByRole('columnheader', { name: 'Uploader' }).waitFor();
      expect(await page.getByRole('columnheader').count()).toBe(8);
      await page.setViewportSize({ width: 900, height: 800 });
      await page.getByRole('columnheader', { name: 'Owner' }).waitFor({ state: 'detached' });
      expect(await page.getByRole('columnheader').count()).toBe(5);
      await page.setViewportSize({ width: 1280, height: 800 });

      // Grid: 6 columns at 1280, the sort selector and the direction toggle.
      await page.getByRole('button', { name: 'Grid', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('view') === 'grid');
      const grid = page.locator('.file-grid');
      await grid.waitFor();
      expect(await grid.getAttribute('data-columns')).toBe('6');
      expect(await grid.locator('.file-card').count()).toBe(20);
      await page.getByRole('button', { name: /^Sort by:/ }).click();
      await page.getByRole('menuitemradio', { name: 'Name' }).click();
      await page.waitForURL((url) => url.searchParams.get('sortBy') === 'name');
      expect(await grid.locator('.item-name__text').first().textContent()).toBe('Folder 01');
      await page.getByRole('button', { name: 'Sort ascending' }).click();
      await page.waitForURL((url) => url.searchParams.get('sortOrder') === 'desc');
      expect(await grid.locator('.item-name__text').first().textContent()).toBe('Folder 25');

      // The view and sort survive a reload (URL state).
      await page.reload();
      await grid.locator('.file-card').first().waitFor();
      expect(await grid.locator('.item-name__text').first().textContent()).toBe('Folder 25');
      await screenshotPair(page, 'files-grid');
      await page.setViewportSize({ width: 375, height: 800 });
      await page.locator('.file-grid[data-columns="2"]').waitFor();
      await page.setViewportSize({ width: 1000, height: 800 });
      await page.locator('.file-grid[data-columns="4"]').waitFor();
    },
    SLOW,
  );

  test(
    'screenshots: list, grid, a dialog, the empty state and the mobile sidebar, at 375 and 1280 px in light and dark',
    async () => {
      const user = await createUser(suite.server.url);
      const empty = await createUser(suite.server.url);
      const api = await apiLogin(suite.server.url, user);
      const docs = await apiCreateFolder(api, null, 'Documents');
      await apiCreateFolders(api, docs, ['Taxes 2024', 'Receipts', 'A folder with a rather long name to see how it wraps']);
      await apiCreateFolders(api, null, ['Photos', 'Music', 'Work', 'Archive 2019']);

      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [1280, 375]) {
          const tag = `${width}-${colorScheme}`;
          const page = await signedIn(user, { width, colorScheme });
          await folderLink(page, 'Documents').waitFor();
          await saveScreenshot(page, `files-list-${tag}`);
          await page.getByRole('button', { name: 'Grid', exact: true }).click();
          await page.locator('.file-card').first().waitFor();
          await saveScreenshot(page, `files-grid-${tag}`);
          await page.getByRole('button', { name: 'List', exact: true }).click();
          await menuAction(page, 'Documents', 'Rename');
          await dialog(page, 'Rename folder').waitFor();
          await saveScreenshot(page, `files-dialog-${tag}`, { fullPage: false });
          await page.keyboard.press('Escape');
          await dialog(page, 'Rename folder').waitFor({ state: 'detached' });
          await page.getByRole('button', { name: 'Actions for Documents' }).click();
          await page.getByRole('menuitem', { name: /^Share/ }).waitFor();
          await saveScreenshot(page, `files-menu-${tag}`, { fullPage: false });
          await page.keyboard.press('Escape');
          // The Upload File button opens the transfers overlay (its own journeys:
          // e2e/journeys/transfers/transfers.test.ts).
          await page.getByRole('button', { name: 'Upload File' }).click();
          await dialog(page, 'Upload files').waitFor();
          await saveScreenshot(page, `files-upload-${tag}`, { fullPage: false });
          await page.keyboard.press('Escape');
          await dialog(page, 'Upload files').waitFor({ state: 'detached' });
          if (width === 375) {
            await page.getByRole('button', { name: 'Menu' }).click();
            await page.locator('.sidebar--open').waitFor();
            await saveScreenshot(page, `files-sidebar-${tag}`, { fullPage: false });
            await page.keyboard.press('Escape');
            await page.locator('.sidebar--open').waitFor({ state: 'detached' });
          } else {
            await page.getByRole('button', { name: 'Collapse sidebar' }).click();
            await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
            await saveScreenshot(page, `files-sidebar-collapsed-${tag}`, { fullPage: false });
          }
        }
        const page = await signedIn(empty, { width: 1280, colorScheme });
        await page.getByText('Upload a file to get started', { exact: true }).waitFor();
        await saveScreenshot(page, `files-empty-1280-${colorScheme}`);
        await page.setViewportSize({ width: 375, height: 800 });
        await saveScreenshot(page, `files-empty-375-${colorScheme}`);
        await page.goto(`${suite.server.url}/shared`);
        await page.getByText('No files have been shared with you yet', { exact: true }).waitFor();
        await page.getByRole('heading', { name: 'Files Shared with Me' }).waitFor();
      }
    },
    SLOW * 2,
  );
});

async function screenshotPair(page: Page, name: string) {
  await saveScreenshot(page, `${name}-1280-light`, { fullPage: false });
}
