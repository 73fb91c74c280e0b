/**
 * Issue 14's polish of the file browser, in Chromium through the real server: names refused
 * before anything is sent (bad characters, only dots, duplicates on any page), the storage meter
 * near full, a 429 saying when to try again, a folder the user may not open, page and page size
 * in the URL, the account-safety touches (no-recovery notice, username carried to login, a wrong
 * TOTP code cleared, the TOTP secret copied), and the looks (radix theme and sort menus by
 * keyboard, one menu button at 375 px, breadcrumbs on one line). Screenshots at 375 and 1280 px,
 * light and dark, and axe on the new screens.
 */
import { describe, expect, test } from 'bun:test';
import type { Page, Request } from 'playwright-core';
import { createUser, loginViaUi, submitLogin, uniqueName } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import {
  apiCreateFolder,
  apiCreateFolders,
  apiLogin,
  apiUploadFile,
  folderLink,
  signInToFiles,
  type ApiFolder,
} from '../../support/files.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { apiRevokeUser, apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 120_000;
const QUOTA = 1_048_576;
// A small quota, so a few API uploads bring the meter near full.
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off', DEFAULT_QUOTA_BYTES: String(QUOTA) } } });
const { newBrowser } = suite;
const url = (path: string) => `${suite.server.url}${path}`;

const SIZES = [375, 1280] as const;
const SCHEMES = ['light', 'dark'] as const;

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

async function expectNoA11yProblems(page: Page, screen: string) {
  expect(await checkA11y(page, screen)).toBe('');
}

/** Both themes of the page as it is now (forced on the document, whatever the preference), at its current width. */
async function shots(page: Page, name: string, width: number) {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  for (const scheme of SCHEMES) {
    await page.evaluate((theme) => {
      document.documentElement.dataset.theme = theme;
    }, scheme);
    await saveScreenshot(page, `polish-${name}-${width}-${scheme}`, { fullPage: false });
  }
  await page.evaluate((theme) => {
    document.documentElement.dataset.theme = theme;
  }, before);
  // Colours ease between themes (0.3 s): let them settle before anything reads them (axe).
  await page.waitForTimeout(400);
}

/** Waits for the toasts (e.g. 'Login successful!') to go, so they cover nothing in a screenshot. */
async function noToasts(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('.sb-toast').length === 0, undefined, { timeout: 10_000 });
}

/**
 * Waits for the sort in the address bar, read from location itself: the sort changes the URL
 * within the document, and polling it does not depend on seeing that change as a navigation.
 */
async function sortInUrl(page: Page, sortBy: string, sortOrder?: string) {
  await page
    .waitForFunction(
      ([by, order]) => {
        const params = new URL(location.href).searchParams;
        return params.get('sortBy') === by && (order === undefined || params.get('sortOrder') === order);
      },
      [sortBy, sortOrder] as const,
      { timeout: 10_000 },
    )
    .catch(async (error: Error) => {
      const state = await page.evaluate(() => ({
        search: location.search,
        focus: document.activeElement?.outerHTML.slice(0, 160),
        menus: document.querySelectorAll('[role="menu"]').length,
      }));
      throw new Error(`sort ${sortBy} ${sortOrder ?? ''} never reached the URL: ${JSON.stringify(state)}\n${error.message}`);
    });
}

/**
 * Moves through an open menu with the arrow keys to `name`, then picks it with Enter. Radix moves
 * the focus on a timer after each key, and just after a menu opens, while its items are still
 * registering, it lets an arrow pass without moving (seen under load in CI): each press waits for
 * the focus to move, and is pressed again when it did not.
 */
async function pickByKeyboard(page: Page, name: string) {
  const active = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  for (let i = 0; i < 20 && (await active()) !== name; i++) {
    const before = await active();
    await page.keyboard.press('ArrowDown');
    await page
      .waitForFunction((text) => (document.activeElement?.textContent?.trim() ?? '') !== text, before, { timeout: 500 })
      .catch(() => undefined);
  }
  expect(await active()).toBe(name);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitemradio');
  await page.keyboard.press('Enter');
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
      // The bar's value takes the same colour (files.css reads --storage-level).
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
      await page.route(
        (target) => target.pathname === '/api/file',
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
    'registration warns there is no recovery and carries the username to the login form',
    async () => {
      const page = await newBrowser();
      const username = uniqueName('reg');
      await page.goto(url('/register'));
      const notice = page.getByText('There is no password recovery.');
      await notice.waitFor();
      expect(await page.locator('.auth-card__warning').textContent()).toContain('your files are lost for good');
      for (const width of SIZES) {
        await page.setViewportSize({ width, height: 900 });
        await shots(page, 'register', width);
      }
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await page.getByLabel('Confirm password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 60_000 });
      expect(await page.getByLabel('Username').inputValue()).toBe(username);
      expect(page.url()).not.toContain(username);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'My Files' }).waitFor({ timeout: 30_000 });
    },
    SLOW,
  );

  test(
    'a wrong TOTP code is cleared and refocused with its error; the TOTP secret copies',
    async () => {
      const withTotp = await createUser(suite.server.url, { totp: true });
      const page = await newBrowser({ expectHttpErrors: [{ status: 401, path: '/api/login' }] });
      await page.goto(url('/login'));
      await submitLogin(page, withTotp);
      const code = page.getByLabel('Enter the TOTP code from your authenticator app');
      await code.waitFor();
      await code.fill('000000');
      await page.getByRole('button', { name: 'Verify TOTP' }).click();
      await page.getByText('Invalid TOTP code. Please try again.').waitFor();
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'totpCode');
      expect(await code.inputValue()).toBe('');
      for (const width of SIZES) {
        await page.setViewportSize({ width, height: 800 });
        await shots(page, 'totp-wrong', width);
      }

      const user = await createUser(suite.server.url);
      const profile = await newBrowser();
      await profile.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
      await loginViaUi(profile, suite.server.url, user);
      await profile.goto(url('/profile'));
      await profile.getByLabel('Password', { exact: true }).fill(user.password);
      await profile.getByRole('button', { name: 'Set up TOTP' }).click();
      const secret = await profile.locator('.totp-secret').getAttribute('data-secret');
      await profile.getByRole('button', { name: 'Copy secret' }).click();
      await profile.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await profile.evaluate(() => navigator.clipboard.readText())).toBe(secret!);
      for (const width of SIZES) {
        await profile.setViewportSize({ width, height: 900 });
        await profile.locator('.totp-setup').scrollIntoViewIfNeeded();
        await shots(profile, 'totp-copy', width);
      }
      await expectNoA11yProblems(profile, 'TOTP setup with copy');
    },
    SLOW,
  );

  test(
    'the theme switcher and the grid sort are radix menus, operated by keyboard',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const folder = await apiCreateFolder(session, null, 'Sorted');
      await apiCreateFolders(session, folder, ['b-folder', 'a-folder', 'c-folder']);
      const page = await signInToFiles(await newBrowser(), suite.server.url, user);

      await noToasts(page);
      // Theme: focus, Enter opens, arrows move, Enter picks.
      const theme = page.getByRole('button', { name: 'Theme: System' });
      await theme.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitemradio', { name: 'System' }).waitFor();
      expect(await page.getByRole('menuitemradio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');
      await shots(page, 'theme-menu', 1280);
      await expectNoA11yProblems(page, 'theme menu open');
      await pickByKeyboard(page, 'Dark');
      await page.getByRole('button', { name: 'Theme: Dark' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      // Focus goes back to the switcher once the menu has closed (radix moves it after its exit).
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Theme: Dark', undefined, {
        timeout: 15_000,
      });

      // Grid sort (a new account sorts by name).
      await page.goto(url(`/files?parentId=${folder.id}&view=grid`));
      const sort = page.getByRole('button', { name: 'Sort by: Name' });
      await sort.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitemradio', { name: 'Unsorted' }).waitFor();
      await shots(page, 'sort-menu', 1280);
      await expectNoA11yProblems(page, 'sort menu open, dark');
      await pickByKeyboard(page, 'Modification Date');
      await sortInUrl(page, 'modified');
      await page.getByRole('button', { name: 'Sort by: Modification Date' }).waitFor();
      await page.getByRole('button', { name: 'Sort ascending' }).click();
      await sortInUrl(page, 'modified', 'desc');
      await page.getByRole('button', { name: 'Sort by: Modification Date' }).press('Enter');
      await pickByKeyboard(page, 'Name');
      await sortInUrl(page, 'name', 'desc');
      expect(await page.locator('.file-grid .item-name__text').allTextContents()).toEqual(['c-folder', 'b-folder', 'a-folder']);

      await page.setViewportSize({ width: 375, height: 800 });
      await page.getByRole('button', { name: 'Sort by: Name' }).click();
      await page.getByRole('menuitemradio', { name: 'Name' }).waitFor();
      await shots(page, 'sort-menu', 375);
      await expectNoA11yProblems(page, 'sort menu open at 375');
      await page.keyboard.press('Escape');
    },
    SLOW,
  );

  test(
    'at 375 px one menu button opens one drawer holding the folders and the site links',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await signInToFiles(await newBrowser({ width: 375, height: 760 }), suite.server.url, user);
      const menuButtons = page.getByRole('button', { name: /^(Menu|Open sidebar)$/ });
      const visible = async () => {
        let count = 0;
        for (const button of await menuButtons.all()) if (await button.isVisible()) count += 1;
        return count;
      };
      expect(await visible()).toBe(1);
      const menu = page.getByRole('button', { name: 'Menu', exact: true });
      await menu.click();
      const drawer = page.locator('#files-sidebar.sidebar--open');
      await drawer.waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await drawer.getByRole('button', { name: 'New Folder' }).waitFor();
      await drawer.getByRole('link', { name: 'Shared with me' }).waitFor();
      await drawer.getByRole('link', { name: 'About' }).waitFor();
      await drawer.getByRole('button', { name: /^Theme:/ }).waitFor();
      // Profile and Log out once, in the drawer's account menu (the navbar's copies are left out).
      await drawer.getByRole('button', { name: /^Account menu/ }).waitFor();
      expect(await drawer.getByRole('button', { name: 'Logout' }).count()).toBe(0);
      await noToasts(page);
      await shots(page, 'drawer', 375);
      await expectNoA11yProblems(page, 'drawer open');
      await page.keyboard.press('Escape');
      await page.locator('#files-sidebar.sidebar--open').waitFor({ state: 'detached' });

      // The theme menu works from inside the drawer.
      await menu.click();
      await drawer.getByRole('button', { name: /^Theme:/ }).click();
      await page.getByRole('menuitemradio', { name: 'Dark' }).waitFor();
      await shots(page, 'drawer-theme-menu', 375);
      await expectNoA11yProblems(page, 'theme menu in the drawer');
      await page.getByRole('menuitemradio', { name: 'Dark' }).click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

      // Through the drawer's link the other page keeps a single menu button too.
      await page.keyboard.press('Escape');
      await page.goto(url('/shared'));
      await page.getByRole('heading', { name: 'Files Shared with Me' }).waitFor();
      expect(await visible()).toBe(1);

      // Wide: the navbar shows its links, and no menu button at all.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('banner').getByRole('link', { name: 'About' }).waitFor();
      expect(await visible()).toBe(0);
    },
    SLOW,
  );

  test(
    'breadcrumbs of an 8-deep path stay on one line at 375 and 1280 px, the hidden folders in a menu',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      let parent: ApiFolder | null = null;
      const chain: ApiFolder[] = [];
      for (let depth = 1; depth <= 8; depth++) {
        const name = depth === 8 ? 'The quarterly figures of the northern region, final version' : `Level ${depth} folder`;
        parent = await apiCreateFolder(session, parent, name);
        chain.push(parent);
      }
      const page = await signInToFiles(await newBrowser(), suite.server.url, user);
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
      for (const width of SIZES) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(url(`/files?parentId=${chain[7]!.id}`));
        const current = crumbs.locator('[aria-current="page"]');
        await current.getByText('The quarterly figures', { exact: false }).waitFor();
        // One line: every crumb at the same height, and the list no taller than one crumb.
        const tops = await crumbs.locator('li').evaluateAll((items) => items.map((li) => li.getBoundingClientRect().top));
        expect(new Set(tops.map(Math.round)).size).toBe(1);
        const listHeight = await crumbs.locator('ol').evaluate((ol) => ol.clientHeight);
        const crumbHeight = await current.evaluate((el) => el.getBoundingClientRect().height);
        expect(listHeight).toBeLessThanOrEqual(crumbHeight + 8);
        // The current folder is always shown, its whole name as a tooltip.
        expect(await current.isVisible()).toBe(true);
        expect(await current.getAttribute('title')).toBe('The quarterly figures of the northern region, final version');
        await crumbs.getByRole('button', { name: 'Show hidden folders' }).waitFor();
        // A long current name leaves room for nothing else between: Home, …, the current folder.
        expect(await crumbs.locator('li').count()).toBe(3);
        await shots(page, 'crumbs', width);
      }
      // The ellipsis lists the hidden folders; picking one goes there.
      await crumbs.getByRole('button', { name: 'Show hidden folders' }).click();
      await page.getByRole('menuitem', { name: 'Level 2 folder' }).waitFor();
      await shots(page, 'crumbs-menu', 1280);
      await expectNoA11yProblems(page, 'breadcrumb menu open');
      await page.getByRole('menuitem', { name: 'Level 2 folder' }).click();
      await page.waitForURL((u) => u.searchParams.get('parentId') === chain[1]!.id);
      // A short path shows whole.
      await crumbs.locator('[aria-current="page"]').getByText('Level 2 folder').waitFor();
      expect(await crumbs.getByRole('button', { name: 'Show hidden folders' }).count()).toBe(0);
    },
    SLOW,
  );
});
