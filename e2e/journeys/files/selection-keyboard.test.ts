/**
 * Selection, bulk actions and the keyboard in the file browser (issue 14 items 2-4, 6, 8), in
 * Chromium through the real server: shift and ctrl/cmd clicks in the list and the grid, a bulk
 * move and a bulk delete checked against the server's listing, a selection downloaded as one zip
 * whose entries are compared byte for byte, a viewer's selection refused with the reason, and a
 * keyboard-only session (no mouse after sign-in) that uploads, renames, moves, opens and deletes
 * a file. Screenshots at 375 and 1280 px in light and dark; axe on the bar and the '?' dialog.
 */
import { describe, expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, signInToFiles, type ApiFolder } from '../../support/files.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { waitForSummary } from '../../support/transfers.ts';
import {
  NO_EDIT_TEXT,
  bar,
  barButton,
  body,
  bytes,
  card,
  childIds,
  count,
  expectNoSeriousViolations,
  focused,
  fromTop,
  headerSelectAll,
  nameButton,
  openFolder,
  row,
  selectedNames,
  tabTo,
  toast,
  waitForName,
} from './selection.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });

describe.skipIf(skipWithoutBrowser)('selection and keyboard', () => {
  test(
    'list: shift and ctrl clicks, bulk move into a folder, a zip of files and a folder, bulk delete',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const work = await apiCreateFolder(session, null, 'Work');
      const files: Record<string, ApiFolder> = {};
      for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt'])
        files[name] = await apiUploadFile(session, work, name, bytes(`${name} says hello\n`), 'text/plain');
      const photos = await apiCreateFolder(session, work, 'Photos');
      const docs = await apiCreateFolder(session, work, 'Docs');
      const inner = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);
      await apiUploadFile(session, docs, 'inner.bin', inner);
      await apiCreateFolder(session, docs, 'Empty');

      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      await openFolder(page, 'Work');
      const rows = page.locator('tbody tr[data-item-id]');
      await row(page, 'd.txt').waitFor();

      // A click on a row selects it alone; Shift+click takes the range; Ctrl+click toggles one.
      await row(page, 'a.txt').locator('.file-table__size').click();
      await count(page, 1);
      await row(page, 'c.txt')
        .locator('.file-table__size')
        .click({ modifiers: ['Shift'] });
      await count(page, 3);
      expect(await selectedNames(page, rows)).toEqual(['a.txt', 'b.txt', 'c.txt']);
      await row(page, 'b.txt')
        .locator('.file-table__size')
        .click({ modifiers: ['Control'] });
      await row(page, 'd.txt').getByRole('checkbox', { name: 'Select d.txt' }).click();
      await count(page, 3);
      expect(await selectedNames(page, rows)).toEqual(['a.txt', 'c.txt', 'd.txt']);
      await expectNoSeriousViolations(page, 'selection bar');
      await saveScreenshots(page, 'selection-list', { fullPage: false });

      // Bulk move through the Move dialog: Work -> Photos.
      await barButton(page, 'Move').click();
      const move = page.getByRole('dialog', { name: 'Move 3 items' });
      await move.getByRole('button', { name: /Work/ }).click();
      await move.getByRole('button', { name: /Photos/ }).click();
      await move.getByRole('button', { name: 'Move here' }).click();
      await move.waitFor({ state: 'detached' });
      await toast(page, 'Moved 3 items to Photos');
      await row(page, 'a.txt').waitFor({ state: 'detached' });
      expect(await childIds(session, photos)).toEqual([files['a.txt']!.id, files['c.txt']!.id, files['d.txt']!.id].sort());
      expect(await childIds(session, work)).toEqual([files['b.txt']!.id, photos.id, docs.id].sort());
      expect(await bar(page).count()).toBe(0);

      // A file and a folder as one zip, decrypted in the browser; entries byte for byte.
      await row(page, 'b.txt').getByRole('checkbox').click();
      await row(page, 'Docs').getByRole('checkbox').click();
      await count(page, 2);
      const started = page.waitForEvent('download', { timeout: 60_000 });
      await barButton(page, 'Download').click();
      const download = await started;
      expect(await download.failure()).toBeNull();
      const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
      expect(Object.keys(zip).sort()).toEqual(['Docs/', 'Docs/Empty/', 'Docs/inner.bin', 'b.txt']);
      expect(Buffer.compare(Buffer.from(zip['b.txt']!), Buffer.from(bytes('b.txt says hello\n')))).toBe(0);
      expect(Buffer.compare(Buffer.from(zip['Docs/inner.bin']!), Buffer.from(inner))).toBe(0);

      // Select all from the header, then one confirmation naming them, then the server's listing is empty.
      await headerSelectAll(page).check();
      await count(page, 3);
      await page.keyboard.press('Escape');
      await bar(page).waitFor({ state: 'detached' });
      await headerSelectAll(page).check();
      await barButton(page, 'Delete').click();
      const confirm = page.getByRole('dialog', { name: 'Delete 3 items?' });
      expect((await confirm.getByRole('list', { name: 'Items to delete' }).locator('li').allTextContents()).sort()).toEqual([
        'Docs',
        'Photos',
        'b.txt',
      ]);
      await confirm.getByRole('button', { name: 'Delete 3 items' }).click();
      await confirm.waitFor({ state: 'detached' });
      await toast(page, 'Moved 3 items to the trash');
      await body(page).getByText('No files found', { exact: true }).waitFor();
      expect(await childIds(session, work)).toEqual([]);
    },
    SLOW,
  );

  test(
    'a bulk delete that fails for one item deletes the others and names the one that failed',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const folder = await apiCreateFolder(session, null, 'Mixed');
      await apiUploadFile(session, folder, 'p.txt', bytes('p'), 'text/plain');
      const gone = await apiUploadFile(session, folder, 'q.txt', bytes('q'), 'text/plain');

      const page = await signInToFiles(
        await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: `/api/file/${gone.id}` }] }),
        suite.server.url,
        user,
      );
      await openFolder(page, 'Mixed');
      await row(page, 'q.txt').waitFor();
      await headerSelectAll(page).check();
      await barButton(page, 'Delete').click();
      const confirm = page.getByRole('dialog', { name: 'Delete 2 items?' });
      await confirm.waitFor();
      // Another device deletes q.txt while the confirmation is open.
      const response = await fetch(`${session.baseUrl}/api/file/${gone.id}`, {
        method: 'DELETE',
        headers: { cookie: session.cookie },
      });
      expect(response.ok).toBe(true);
      await confirm.getByRole('button', { name: 'Delete 2 items' }).click();
      await toast(page, 'Moved 1 of 2 items to the trash. Failed: q.txt');
      expect(await childIds(session, folder)).toEqual([]);
    },
    SLOW,
  );

  test(
    'grid: a click selects, shift and ctrl extend, a double click opens; arrows move by columns; long names take two lines',
    async () => {
      const user = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const grid = await apiCreateFolder(session, null, 'Grid');
      const long = 'A very long file name that goes on and on past the width of one grid card, really.txt';
      const names = ['f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt', 'f6.txt', 'f7.txt', 'f8.txt', long];
      for (const name of names) await apiUploadFile(session, grid, name, bytes(name), 'text/plain');

      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      await openFolder(page, 'Grid');
      await page.locator('.view-toggle').getByRole('button', { name: 'Grid' }).click();
      await card(page, 'f8.txt').waitFor();
      const cards = page.locator('li.file-card');
      const order = await cards.locator('.item-name__text').allTextContents();

      await card(page, order[1]!).locator('.file-card__thumb').click();
      await count(page, 1);
      await card(page, order[4]!)
        .locator('.file-card__thumb')
        .click({ modifiers: ['Shift'] });
      await count(page, 4);
      await card(page, order[2]!)
        .locator('.file-card__thumb')
        .click({ modifiers: ['Control'] });
      await count(page, 3);
      expect(await selectedNames(page, cards)).toEqual([order[1]!, order[3]!, order[4]!]);
      await saveScreenshots(page, 'selection-grid', { fullPage: false });

      // The long name: two lines at most, its whole text in the button's name and title.
      const longName = nameButton(page, long);
      expect(await longName.getAttribute('title')).toBe(long);
      const lines = await longName.locator('.item-name__text').evaluate((el) => {
        const style = getComputedStyle(el);
        return Math.round(el.getBoundingClientRect().height / Number.parseFloat(style.lineHeight));
      });
      expect(lines).toBe(2);

      // Keyboard in the grid: Down moves by a row of columns, Right by one.
      const columns = Number(await page.locator('.file-grid').getAttribute('data-columns'));
      await nameButton(page, order[0]!).focus();
      await page.keyboard.press('ArrowDown');
      expect((await focused(page)).item).toBe(await cards.nth(columns).getAttribute('data-item-id'));
      await page.keyboard.press('ArrowRight');
      expect((await focused(page)).item).toBe(await cards.nth(columns + 1).getAttribute('data-item-id'));
      await page.keyboard.press('Escape');
      await bar(page).waitFor({ state: 'detached' });
      await page.keyboard.press('Home');
      expect((await focused(page)).item).toBe(await cards.nth(0).getAttribute('data-item-id'));
      await page.keyboard.press('Shift+End');
      await count(page, names.length);
      await page.keyboard.press('Escape');
      await bar(page).waitFor({ state: 'detached' });

      // A double click opens the previewer.
      await card(page, 'f2.txt').locator('.file-card__thumb').dblclick();
      await page.getByRole('dialog', { name: 'f2.txt', exact: true }).waitFor();
    },
    SLOW,
  );

  test(
    "a viewer's selection: Move and Delete disabled with the reason, Download allowed",
    async () => {
      const owner = await createUser(suite.server.url);
      const viewer = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, owner);
      const shared = await apiCreateFolder(session, null, 'Shared plans');
      await apiUploadFile(session, shared, 'plan-a.txt', bytes('a'), 'text/plain');
      await apiUploadFile(session, shared, 'plan-b.txt', bytes('b'), 'text/plain');
      await apiShareWithUser(session, shared, await publicUser(session, viewer.id), false);

      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, viewer);
      await page.goto(`${suite.server.url}/shared`);
      await openFolder(page, 'Shared plans');
      await row(page, 'plan-b.txt').waitFor();
      await headerSelectAll(page).check();
      await count(page, 2);
      for (const action of ['Move', 'Delete']) {
        expect(await barButton(page, action).isDisabled()).toBe(true);
        await bar(page)
          .locator('.sb-tooltip-trigger', { has: page.getByRole('button', { name: action, exact: true }) })
          .hover();
        await page.getByRole('tooltip').getByText(`${NO_EDIT_TEXT}: plan-a.txt`).waitFor();
        await page.mouse.move(0, 0);
      }
      expect(await barButton(page, 'Download').isDisabled()).toBe(false);
      // The keyboard is held to the same rules: Delete says why and deletes nothing.
      await nameButton(page, 'plan-a.txt').focus();
      await page.keyboard.press('Delete');
      await toast(page, `${NO_EDIT_TEXT}: plan-a.txt`);
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect((await childIds(session, shared)).length).toBe(2);
    },
    SLOW,
  );

  test(
    'keyboard only: upload, rename with F2, move, open with Enter, delete with Delete, the ? dialog; focus visible',
    async () => {
      const user: TestUser = await createUser(suite.server.url);
      const session = await apiLogin(suite.server.url, user);
      const target = await apiCreateFolder(session, null, 'Target');
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, user);
      await nameButton(page, 'Target').waitFor();
      const kb = page.keyboard;

      // Upload File opens the dialog, Browse Files the file chooser; picking starts the upload at
      // once: the dialog closes and the transfers panel lists it.
      await fromTop(page);
      await tabTo(page, 'Upload File');
      await kb.press('Enter');
      const upload = page.getByRole('dialog', { name: /Upload/ });
      await upload.waitFor();
      const chooser = page.waitForEvent('filechooser', { timeout: 15_000 });
      await tabTo(page, 'Browse Files');
      await kb.press('Enter');
      await (await chooser).setFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('typed without a mouse\n'),
      });
      await upload.waitFor({ state: 'detached' });
      await waitForSummary(page, '1 file uploaded successfully!');
      await nameButton(page, 'notes.txt').waitFor();

      // Into the listing: Tab reaches the first item's name; Down moves on; the row shows focus.
      await fromTop(page);
      await tabTo(page, 'Target');
      const order = await page.locator('tbody tr[data-item-id] .item-name__text').allTextContents();
      if (order[0] !== 'notes.txt') await kb.press('ArrowDown');
      expect((await focused(page)).name).toBe('notes.txt');
      const ring = await row(page, 'notes.txt').evaluate((el) => getComputedStyle(el).boxShadow);
      expect(ring).not.toBe('none');
      const outline = await nameButton(page, 'notes.txt').evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline).not.toBe('none');
      await saveScreenshots(page, 'selection-focus', { fullPage: false });

      // Space toggles; Enter on the bar's Clear presses Clear (it does not open the item); Escape clears.
      await kb.press('Space');
      await count(page, 1);
      await barButton(page, 'Clear').focus();
      await kb.press('Enter');
      await bar(page).waitFor({ state: 'detached' });
      expect(await page.getByRole('dialog').count()).toBe(0);
      await nameButton(page, 'notes.txt').focus();
      await kb.press('Space');
      await count(page, 1);
      await kb.press('Escape');
      await bar(page).waitFor({ state: 'detached' });

      // F2 renames (the name without its extension is selected, so typing replaces it).
      await kb.press('F2');
      await page.getByRole('dialog', { name: 'Rename file' }).waitFor();
      await kb.type('renamed');
      await kb.press('Enter');
      await toast(page, 'Renamed to renamed.txt');
      await nameButton(page, 'renamed.txt').waitFor();

      // Move through the item's actions menu (Tab to it, arrows to Move), into Target.
      await nameButton(page, 'renamed.txt').focus();
      await kb.press('Tab');
      expect((await focused(page)).name).toBe('Actions for renamed.txt');
      await kb.press('Enter');
      await page.getByRole('menu').waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem');
      // The menu's typeahead: M is Move.
      await kb.press('m');
      await page.waitForFunction(() => document.activeElement?.textContent?.trim().startsWith('Move'));
      await kb.press('Enter');
      const move = page.getByRole('dialog', { name: 'Move renamed.txt' });
      await move.waitFor();
      await tabTo(page, /Target/);
      await kb.press('Enter');
      await move.getByText('Move to Target').waitFor();
      await tabTo(page, 'Move here');
      await kb.press('Enter');
      await toast(page, 'Moved renamed.txt to Target');
      await nameButton(page, 'renamed.txt').waitFor({ state: 'detached' });

      // Enter opens the folder, and then the file in the previewer.
      await fromTop(page);
      await tabTo(page, 'Target');
      await kb.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('parentId') === target.id);
      await waitForName(page, 'renamed.txt');
      await fromTop(page);
      await tabTo(page, 'renamed.txt');
      await kb.press('Enter');
      const preview = page.getByRole('dialog', { name: 'renamed.txt', exact: true });
      await preview.getByText('typed without a mouse').waitFor();
      await kb.press('Escape');
      await preview.waitFor({ state: 'detached' });

      // Delete asks first, then deletes.
      await fromTop(page);
      await tabTo(page, 'renamed.txt');
      await kb.press('Delete');
      const confirm = page.getByRole('dialog', { name: 'Delete file?' });
      await confirm.waitFor();
      await tabTo(page, 'Delete');
      await kb.press('Enter');
      await toast(page, 'Moved renamed.txt to the trash');
      await body(page).getByText('No files found', { exact: true }).waitFor();
      expect(await childIds(session, target)).toEqual([]);

      // '?' lists the shortcuts; not while typing in the search box.
      await page.getByRole('searchbox').focus();
      await kb.type('?');
      expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
      await kb.press('Backspace');
      await kb.press('Tab');
      await kb.press('?');
      const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await shortcuts.getByText('Extend the selection').waitFor();
      await expectNoSeriousViolations(page, 'shortcuts dialog');
      await saveScreenshots(page, 'selection-shortcuts', { fullPage: false });
      await kb.press('Escape');
      await shortcuts.waitFor({ state: 'detached' });
    },
    SLOW,
  );
});
