/**
 * Issue 14's polish of the file browser, in Chromium through the real server: names refused
 * before anything is sent (bad characters, only dots, duplicates on any page), the storage meter
 * near full, a 429 saying when to try again, a folder the user may not open, page and page size
 * in the URL. Screenshots at 375 and 1280 px, light and dark, and axe on the new screens. The
 * account-safety touches and the looks: browser-polish-looks.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import type { Page, Request } from 'playwright-core';
import { createUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, apiUploadFile, folderLink, signInToFiles } from '../../support/files.ts';
import { apiRevokeUser, apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { POLISH_SERVER, QUOTA, SIZES, expectNoA11yProblems, noToasts, shots } from './polish.ts';

const SLOW = 120_000;
const suite = browserSuite({ timeoutMs: SLOW, server: POLISH_SERVER });
const { newBrowser } = suite;
const url = (path: string) => `${suite.server.url}${path}`;

/** Requests that would change something on the server (create, rename, move, delete). */
function watchChanges(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith('/api/')) sent.push(request);
  });
  return sent;
}

async function menuAction(page: Page, item: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${item}`, exact: true }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${action}`) }).click();
}

describe.skipIf(skipWithoutBrowser)('file browser polish (issue 14)', () => {
  test(
    'New Folder and Rename refuse bad and duplicate names in the dialog, before any request',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const work = await apiCreateFolder(session, null, 'Work');
      // 21 folders and a file: "Zulu" sorts onto page 2, so a duplicate is found on any page.
      await apiCreateFolders(session, work, [...Array.from({ length: 20 }, (_, i) => `Folder ${i + 10}`), 'Zulu']);
      await apiUploadFile(session, work, 'notes.txt', new TextEncoder().encode('hello'), 'text/plain');
      const page = await signInToFiles(await newBrowser(), suite.server.url, user);
      await page.goto(url(`/files?parentId=${work.id}&sortBy=name&sortOrder=asc`));
      await page.getByText('Page 1 of 2').waitFor();
      const sent = watchChanges(page);

      await page.getByRole('button', { name: 'New Folder' }).click();
      const create = page.getByRole('dialog', { name: 'Create folder' });
      const field = create.getByLabel('Folder name');
      const refusals: Array<[string, string]> = [
        ['a/b', 'Names cannot contain "/" or "\\".'],
        ['a\\b', 'Names cannot contain "/" or "\\".'],
        ['bell\u0007', 'Names cannot contain control characters.'],
        ['..', 'A name cannot be only dots.'],
        ['.', 'A name cannot be only dots.'],
        ['ZULU', 'A folder named "ZULU" already exists here.'],
        [' Notes.TXT ', 'A file named "Notes.TXT" already exists here.'],
      ];
      for (const [name, message] of refusals) {
        await field.fill(name);
        await create.getByRole('alert').getByText(message, { exact: true }).waitFor();
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        await field.press('Enter');
        await create.getByRole('button', { name: 'Create' }).click();
        expect(await create.isVisible()).toBe(true);
      }
      await noToasts(page);
      await shots(page, 'name-refused', 1280);
      await page.setViewportSize({ width: 375, height: 760 });
      await shots(page, 'name-refused', 375);
      await page.setViewportSize({ width: 1280, height: 800 });
      await expectNoA11yProblems(page, 'create folder, name refused');
      await field.fill('   ');
      await create.getByRole('alert').getByText('Enter a name.').waitFor();
      expect(await create.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
      expect(sent.map((r) => `${r.method()} ${r.url()}`)).toEqual([]);

      // A good name goes through.
      await field.fill('Budget');
      expect(await create.getByRole('alert').count()).toBe(0);
      await create.getByRole('button', { name: 'Create' }).click();
      await create.waitFor({ state: 'detached' });
      expect(sent.map((r) => `${r.method()} ${new URL(r.url()).pathname}`)).toEqual(['POST /api/upload']);

      // Rename: another item's name (any case) and bad characters are refused; its own name is not "taken".
      sent.length = 0;
      await menuAction(page, 'Budget', 'Rename');
      const rename = page.getByRole('dialog', { name: 'Rename folder' });
      const newName = rename.getByLabel('New name');
      await newName.fill('notes.TXT');
      await rename.getByText('A file named "notes.TXT" already exists here.').waitFor();
      await newName.press('Enter');
      await newName.fill('zulu');
      await rename.getByText('A folder named "zulu" already exists here.').waitFor();
      await newName.fill('Bud/get');
      await rename.getByText('Names cannot contain "/" or "\\".').waitFor();
      await rename.getByRole('button', { name: 'Rename' }).click();
      await newName.fill('BUDGET');
      expect(await rename.getByRole('alert').count()).toBe(0);
      expect(sent).toEqual([]);
      await rename.getByRole('button', { name: 'Rename' }).click();
      await rename.waitFor({ state: 'detached' });
      await folderLink(page, 'BUDGET').waitFor();
      expect(sent.map((r) => `${r.method()} ${new URL(r.url()).pathname.replace(/[0-9a-f-]{36}$/, 'ID')}`)).toEqual([
        'PUT /api/file/ID',
      ]);
    },
    SLOW,
  );

  test(
    'the storage meter turns warning at 80 % and danger at 95 %, and says so',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const box = await apiCreateFolder(session, null, 'Box');
      await apiUploadFile(session, box, 'big.bin', new Uint8Array(Math.ceil(QUOTA * 0.82)));
      const page = await signInToFiles(await newBrowser(), suite.server.url, user);
      const storage = page.locator('.storage');
      await storage.getByText('Almost full').waitFor();
      expect(await page.getByRole('meter', { name: 'Storage used' }).getAttribute('aria-valuetext')).toBe(
        '82% used, almost full',
      );
      const colourOf = () => storage.locator('.storage__level').evaluate((el) => getComputedStyle(el).color);
      expect(await colourOf()).toBe('rgb(138, 90, 0)');
      // The bar's value takes the same colour (sidebar.css reads --storage-level).
      const barColour = () => storage.evaluate((el) => getComputedStyle(el).getPropertyValue('--storage-level').trim());
      expect(await barColour()).toBe('#8a5a00');
      await noToasts(page);
      await shots(page, 'storage-warning', 1280);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await colourOf()).toBe('rgb(240, 180, 41)');
      await page.emulateMedia({ colorScheme: 'light' });

      await apiUploadFile(session, box, 'more.bin', new Uint8Array(Math.ceil(QUOTA * 0.14)));
      await page.reload();
      await storage.getByText('Almost out of space').waitFor();
      expect(await colourOf()).toBe('rgb(198, 47, 61)');
      expect(await barColour()).toBe('#c62f3d');
      await noToasts(page);
      await shots(page, 'storage-danger', 1280);
      await page.setViewportSize({ width: 375, height: 760 });
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await page.locator('#files-sidebar.sidebar--open').getByText('Almost out of space').waitFor();
      await shots(page, 'storage-danger-drawer', 375);
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 800 });
      await expectNoA11yProblems(page, 'storage meter, danger');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(400);
      await expectNoA11yProblems(page, 'storage meter, danger, dark');
    },
    SLOW,
  );

  test(
    'a 429 says when to try again, from its Retry-After',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await signInToFiles(
        await newBrowser({ expectHttpErrors: [{ status: 429, path: '/api/file' }] }),
        suite.server.url,
        user,
      );
      // The folder's own listing, not the search index's tree fetched in the background (depth 20).
      await page.route(
        (target) => target.pathname === '/api/file' && target.searchParams.get('depth') !== '20',
        (route) => route.fulfill({ status: 429, headers: { 'Retry-After': '30' }, body: '{"error":"RATE_LIMITED"}' }),
        { times: 1 },
      );
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page
        .locator('.sb-toaster')
        .getByText('You are sending too many requests. Please slow down. Try again in 30 seconds.', { exact: true })
        .waitFor();
    },
    SLOW,
  );

  test(
    "another user's folder and a revoked share say 'You do not have access to this folder.' with a way back",
    async () => {
      const owner = await createUser(suite.server.url);
      const other = await createUser(suite.server.url);
      const ownerSession = await apiLogin(suite.server.url, owner);
      const secret = await apiCreateFolder(ownerSession, null, 'Secret plans');
      const shared = await apiCreateFolder(ownerSession, null, 'Team');
      const recipient = await publicUser(ownerSession, other.id);
      await apiShareWithUser(ownerSession, shared, recipient, false);
      const page = await signInToFiles(
        await newBrowser({ expectHttpErrors: [{ status: 404, path: '/api/file' }] }),
        suite.server.url,
        other,
      );
      const toasts = page.locator('.sb-toaster');

      for (const width of SIZES) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(url(`/files?parentId=${secret.id}`));
        await page.getByText('You do not have access to this folder.').waitFor();
        expect(await toasts.getByText('Error fetching files.').count()).toBe(0);
        await shots(page, 'no-access', width);
        await expectNoA11yProblems(page, `no access ${width}`);
      }
      await page.getByRole('button', { name: 'Back to My Files' }).click();
      await page.waitForURL((u) => u.pathname === '/files' && !u.searchParams.has('parentId'));
      await page.getByText('Upload a file to get started').waitFor();

      // A share revoked while it is open.
      await page.goto(url(`/shared?parentId=${shared.id}`));
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Team').waitFor();
      await apiRevokeUser(ownerSession, shared, recipient);
      await page.getByText('You do not have access to this folder.').waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Back to Files Shared with Me' }).click();
      await page.getByText('No files have been shared with you yet').waitFor();
    },
    SLOW,
  );

  test(
    'page and page size live in the URL: reload, back and forward keep them; bad values fall back',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const many = await apiCreateFolder(session, null, 'Many');
      await apiCreateFolders(
        session,
        many,
        Array.from({ length: 45 }, (_, i) => `Item ${String(i + 1).padStart(2, '0')}`),
      );
      const page = await signInToFiles(await newBrowser(), suite.server.url, user);
      await page.goto(url(`/files?parentId=${many.id}`));
      await page.getByText('Page 1 of 3').waitFor();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.waitForURL((u) => u.searchParams.get('page') === '2');
      await page.getByText('21–40 of 45').waitFor();

      await page.reload();
      await page.getByText('Page 2 of 3').waitFor();
      await page.getByText('21–40 of 45').waitFor();

      await page.getByLabel('Items per page').selectOption('100');
      await page.waitForURL((u) => u.searchParams.get('pageSize') === '100' && !u.searchParams.has('page'));
      await page.getByText('1–45 of 45').waitFor();

      await page.goBack();
      await page.getByText('Page 2 of 3').waitFor();
      expect(new URL(page.url()).searchParams.get('page')).toBe('2');
      await page.goForward();
      await page.getByText('1–45 of 45').waitFor();
      await page.reload();
      await page.getByText('1–45 of 45').waitFor();
      expect(await page.getByLabel('Items per page').inputValue()).toBe('100');

      // Another folder starts at its first page.
      await page.getByLabel('Items per page').selectOption('20');
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.waitForURL((u) => u.searchParams.get('page') === '2');
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Home' }).click();
      await page.waitForURL((u) => !u.searchParams.has('parentId'));
      expect(new URL(page.url()).searchParams.has('page')).toBe(false);

      await page.goto(url(`/files?parentId=${many.id}&page=abc&pageSize=7`));
      await page.getByText('1–20 of 45').waitFor();
      await page.getByText('Page 1 of 3').waitFor();
    },
    SLOW,
  );

  test(
    'a large folder shows its first items at once, every name opened, then sorts the whole folder (issue 27)',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const big = await apiCreateFolder(session, null, 'Big');
      // Made one at a time from the end, so the server's order (creation) is the reverse of the
      // name order: the first 101 items are "Item 300" down to "Item 200".
      const names = Array.from({ length: 300 }, (_, i) => `Item ${String(300 - i).padStart(3, '0')}`);
      await apiCreateFolders(session, big, names, 1);
      const page = await signInToFiles(await newBrowser(), suite.server.url, user);
      // The whole folder's answer is held back, so the first items stay on screen long enough to look at.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(
        (u) => u.pathname === '/api/file' && u.searchParams.get('id') === big.id && u.searchParams.get('limit') === '2147483648',
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await page.goto(url(`/files?parentId=${big.id}&sortBy=name&sortOrder=asc`));
      const hint = page.locator('.browser__opening');
      await hint.waitFor();
      expect(await hint.textContent()).toBe(
        'Opening the rest of this folder… Its first 101 items are shown, sorted among themselves by name.',
      );
      expect(await hint.getAttribute('role')).toBe('status');
      const rowNames = () => page.locator('tbody tr[data-item-id] .item-name__text').allTextContents();
      // Every row shown has its real name: the first 101 made, in name order among themselves.
      expect(await rowNames()).toEqual(Array.from({ length: 20 }, (_, i) => `Item ${String(200 + i).padStart(3, '0')}`));
      await page.getByText('1–20 of 101').waitFor();
      await noToasts(page);
      await shots(page, 'large-folder-opening', 1280);
      // Names cannot all be checked yet: New Folder's Create waits ("Item 050" is not among those shown).
      await page.getByRole('button', { name: 'New Folder' }).first().click();
      const create = page.getByRole('dialog', { name: 'Create folder' });
      await create.getByLabel('Folder name').fill('Item 050');
      expect(await create.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);

      release();
      await hint.waitFor({ state: 'detached' });
      // Now it is checked against the whole folder.
      await create.getByRole('alert').getByText('A folder named "Item 050" already exists here.', { exact: true }).waitFor();
      await create.getByLabel('Folder name').fill('Item 301');
      expect(await create.getByRole('button', { name: 'Create' }).isDisabled()).toBe(false);
      await create.getByRole('button', { name: 'Cancel' }).click();
      await page.getByText('1–20 of 300').waitFor();
      expect(await rowNames()).toEqual(Array.from({ length: 20 }, (_, i) => `Item ${String(1 + i).padStart(3, '0')}`));
      // The last page ends with the last name: the order is over the whole folder.
      await page.goto(url(`/files?parentId=${big.id}&sortBy=name&sortOrder=desc`));
      await page.getByText('1–20 of 300').waitFor();
      expect((await rowNames())[0]).toBe('Item 300');
      // Held whole now: a refresh asks for the whole folder again and never shows the hint.
      await page
        .getByRole('button', { name: /refresh/i })
        .first()
        .click();
      await page.waitForTimeout(300);
      expect(await hint.count()).toBe(0);
    },
    SLOW,
  );
});
