/**
 * Issue 14's polish around the file browser, in Chromium through the real server: the
 * account-safety touches (no-recovery notice, username carried to login, a wrong TOTP code
 * cleared, the TOTP secret copied), and the looks (radix theme and sort menus by keyboard, one
 * menu button at 375 px, breadcrumbs on one line). Screenshots at 375 and 1280 px, light and dark,
 * and axe on the new screens. The file browser's own rules: browser-polish.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, submitLogin, uniqueName } from '../../support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, signInToFiles, type ApiFolder } from '../../support/files.ts';
import { passRecoveryStep } from '../../support/recovery.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { POLISH_SERVER, SIZES, expectNoA11yProblems, noToasts, shots } from './polish.ts';

const SLOW = 120_000;
const suite = browserSuite({ timeoutMs: SLOW, server: POLISH_SERVER });
const { newBrowser } = suite;
const url = (path: string) => `${suite.server.url}${path}`;

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
    'registration warns there is no recovery and signs the new account in',
    async () => {
      const page = await newBrowser();
      const username = uniqueName('reg');
      await page.goto(url('/register'));
      const notice = page.getByText('Only you can open your files.');
      await notice.waitFor();
      expect(await page.locator('.auth-card__warning').textContent()).toContain('24-word recovery phrase');
      for (const width of SIZES) {
        await page.setViewportSize({ width, height: 900 });
        await shots(page, 'register', width);
      }
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await page.getByLabel('Confirm password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Register' }).click();
      await passRecoveryStep(page);
      // Signed in at once (issue 23): no second typing of the password.
      await page.waitForURL((u) => u.pathname === '/files', { timeout: 60_000 });
      await page.getByRole('heading', { name: 'My Files' }).waitFor({ timeout: 30_000 });
      expect(page.url()).not.toContain(username);
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
