/**
 * Accessibility, measured (issue 14 item 9): axe-core's WCAG 2.1 A/AA rules on every screen,
 * signed out and in, light and dark, at 1280 px (and 375 px for the key ones). Any serious or
 * critical violation fails the test, listed by screen, rule and element (support/axe.ts).
 *
 * Screens: home, about, login (credentials and the TOTP step), register, the 404 page; /files
 * empty and with items (list and grid), the Info, Rename, Move, Create folder and Delete dialogs,
 * the upload overlay (files ready, then done), the Share dialog (Users and Links tabs), /shared
 * with items, a link's password prompt, listing and previewer (as a visitor), the previewer (image, text, pdf, video,
 * unsupported), /preview, and the profile (its .badge--on: "This device", as TOTP's "On").
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toBase64Url } from '@sealbox/crypto';
import { createUser, loginViaUi, submitLogin, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { pdf, stream } from '../../support/pdf.ts';
import { solidPng } from '../../support/png.ts';
import { apiShareWithUser, linkPageHeading, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { closeTransfers, pickFiles, waitForSummary } from '../../support/transfers.ts';

const SLOW = 150_000;
const LINK_PASSWORD = 'open sesame, please';
const suite = browserSuite({ timeoutMs: SLOW });

let owner: TestUser;
let totpUser: TestUser;
let session: ApiSession;
let docs: ApiFolder;
let linkId = '';
let linkKey = '';

/** A one-page pdf with a line of text. */
function tinyPdf(): Uint8Array {
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream('BT /F1 24 Tf 72 720 Td (Harbour plans) Tj ET'),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/**
 * Waits for the theme's colour transitions (and any other running animation) to finish. Looked
 * for again after each wait: a transition the scheme change starts a frame late was not running
 * at the first look, and axe once read a button halfway between its dark and light colours.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let look = 0; look < 5; look++) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const running = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

/** Runs axe on `page` in light and then dark, adding what it finds to `found`. */
async function check(page: Page, screen: string, found: string[]): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settled(page);
    const report = await checkA11y(page, `${screen} [${colorScheme}, ${page.viewportSize()?.width} px]`);
    if (report) found.push(report);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const listing = (page: Page) => page.locator('.browser__body');
const previewer = (page: Page) => page.locator('dialog.preview[open]');

async function menuAction(page: Page, item: string, action: string): Promise<void> {
  await page
    .getByRole('button', { name: `Actions for ${item}`, exact: true })
    .first()
    .click();
  await page.getByRole('menuitem', { name: new RegExp(`^${action}`) }).click();
}

/** Opens a dialog through an item's menu, checks it, and closes it with Escape. */
async function checkDialog(page: Page, item: string, action: string, title: string, found: string[]): Promise<void> {
  await menuAction(page, item, action);
  const dialog = page.getByRole('dialog', { name: title, exact: true });
  await dialog.waitFor();
  await check(page, `${action} dialog`, found);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

async function createLink(owner: ApiSession, itemId: string, password: string | null): Promise<string> {
  const response = await fetch(`${owner.baseUrl}/api/share`, {
    method: 'POST',
    headers: { cookie: owner.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'link', id: itemId, expires: 0, password, edit: false }),
  });
  if (!response.ok) throw new Error(`share link: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { linkId: string }).linkId;
}

async function openDocs(page: Page): Promise<void> {
  await page.goto(`${suite.server.url}/files?parentId=${docs.id}&sortBy=name&sortOrder=asc`);
  await listing(page).getByText('notes.txt').first().waitFor();
}

describe.skipIf(skipWithoutBrowser)('accessibility: no serious or critical WCAG 2.1 A/AA violation on any screen', () => {
  beforeAll(async () => {
    const url = suite.server.url;
    owner = await createUser(url);
    session = await apiLogin(url, owner);
    docs = await apiCreateFolder(session, null, 'Docs');
    await apiCreateFolder(session, null, 'Projects');
    await apiUploadFile(session, docs, 'notes.txt', new TextEncoder().encode('Meet at the harbour at nine.\n'), 'text/plain');
    await apiUploadFile(session, docs, 'photo.png', new Uint8Array(solidPng(64, 48, [230, 120, 40])), 'image/png');
    await apiUploadFile(session, docs, 'plans.pdf', tinyPdf(), 'application/pdf');
    const clip = new Uint8Array(await readFile(join(import.meta.dir, '..', '..', 'fixtures', 'preview-clip.mp4')));
    await apiUploadFile(session, docs, 'clip.mp4', clip, 'video/mp4');
    await apiUploadFile(session, docs, 'data.bin', crypto.getRandomValues(new Uint8Array(2048)));
    linkId = await createLink(session, docs.id, LINK_PASSWORD);
    linkKey = toBase64Url(docs.key);
    // Someone shares a folder with the owner, so /shared lists it.
    const friend = await apiLogin(url, await createUser(url));
    const gifts = await apiCreateFolder(friend, null, 'Gifts');
    await apiUploadFile(friend, gifts, 'list.txt', new TextEncoder().encode('socks\n'), 'text/plain');
    await apiShareWithUser(friend, gifts, await publicUser(friend, session.userId), false);
    // The login's second step, shown to an account with TOTP on.
    totpUser = await createUser(url, { totp: true });
  }, SLOW);

  test(
    'signed out: home, about, login (both steps), register, 404, a link (password prompt, listing, previewer)',
    async () => {
      const page = await suite.newBrowser({ expectHttpErrors: [{ status: 401, path: `/api/shared/${linkId}` }] });
      const found: string[] = [];
      const base = suite.server.url;
      await page.goto(`${base}/`);
      await page.locator('main').first().waitFor();
      await check(page, 'home', found);
      await page.goto(`${base}/about`);
      await page.locator('h2').first().waitFor();
      await check(page, 'about', found);
      await page.goto(`${base}/register`);
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await check(page, 'register', found);
      await page.goto(`${base}/no-such-page`);
      await page.locator('h1').first().waitFor();
      await check(page, '404', found);
      await page.goto(`${base}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await check(page, 'login', found);
      await submitLogin(page, totpUser);
      await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
      await check(page, 'login TOTP step', found);
      await page.setViewportSize({ width: 375, height: 800 });
      await check(page, 'login TOTP step', found);
      const differentAccount = page.getByRole('button', { name: 'Use a different account' });
      await differentAccount.click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      // The second step's form leaves as the first comes back: checked once it is gone, not
      // while its faded button still lies over the Sign in button (a colour axe cannot judge).
      await differentAccount.waitFor({ state: 'detached' });
      await check(page, 'login', found);
      await page.goto(`${base}/`);
      await page.locator('main').first().waitFor();
      await check(page, 'home', found);
      await page.locator('.navbar__toggle').click();
      await page.locator('#navbar-menu').waitFor();
      await check(page, 'home, menu open', found);
      await page.goto(`${base}/register`);
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await check(page, 'register', found);
      await page.setViewportSize({ width: 1280, height: 800 });

      // A visitor with a link: the password prompt, then the listing (both widths).
      await page.goto(`${base}/share?linkId=${linkId}#${linkKey}`);
      const prompt = page.getByLabel('This link requires a password to access:');
      await prompt.waitFor();
      await check(page, '/share password prompt', found);
      await prompt.fill(LINK_PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();
      await linkPageHeading(page).waitFor();
      await listing(page).getByText('notes.txt').first().waitFor();
      await check(page, '/share listing', found);
      await listing(page).getByRole('button', { name: 'notes.txt', exact: true }).first().click();
      await previewer(page).locator('pre.text-view__text').waitFor();
      await check(page, '/share previewer notes.txt', found);
      await previewer(page).getByRole('button', { name: 'Close preview' }).click();
      await previewer(page).waitFor({ state: 'detached' });
      await page.setViewportSize({ width: 375, height: 800 });
      await check(page, '/share listing', found);

      expect(found.join('\n\n')).toBe('');
    },
    SLOW,
  );

  test(
    'signed in: files, dialogs, upload, sharing, previewer, /preview, profile; 1280 and 375 px',
    async () => {
      const base = suite.server.url;
      const page = await suite.newBrowser();
      const found: string[] = [];
      await loginViaUi(page, base, owner);
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      await listing(page).getByRole('button', { name: 'Docs', exact: true }).waitFor();
      await check(page, '/files', found);

      // An empty folder, then one with items in list and grid.
      await listing(page).getByRole('button', { name: 'Projects', exact: true }).click();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Projects').waitFor();
      await listing(page).locator('.empty-state').waitFor();
      await check(page, '/files empty folder', found);
      await openDocs(page);
      await check(page, '/files list', found);
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).click();
      await page.waitForFunction(() => document.querySelector('.view-toggle__option--active')?.textContent === 'Grid');
      await check(page, '/files grid', found);
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();

      // The item dialogs.
      await page.goto(`${base}/files`);
      await listing(page).getByRole('button', { name: 'Docs', exact: true }).waitFor();
      await checkDialog(page, 'Projects', 'Info', 'Folder info', found);
      await checkDialog(page, 'Projects', 'Rename', 'Rename folder', found);
      await checkDialog(page, 'Projects', 'Move', 'Move Projects', found);
      await checkDialog(page, 'Projects', 'Delete', 'Delete folder?', found);
      await page.getByRole('button', { name: 'New Folder' }).first().click();
      await page.getByRole('dialog', { name: 'Create folder' }).waitFor();
      await check(page, 'Create folder dialog', found);
      await page.keyboard.press('Escape');

      // The Share dialog, both tabs.
      await menuAction(page, 'Docs', 'Share');
      const share = page.getByRole('dialog', { name: 'Share Docs' });
      await share.waitFor();
      await check(page, 'Share dialog, Users', found);
      await share.getByRole('tab', { name: 'Links' }).click();
      await share.getByRole('tabpanel').waitFor();
      await page.waitForTimeout(300);
      await check(page, 'Share dialog, Links', found);
      await page.keyboard.press('Escape');
      await share.waitFor({ state: 'detached' });

      // The upload overlay, then the transfers panel it hands the picked file to, done.
      await page.getByRole('button', { name: 'Upload File' }).first().click();
      const overlay = page.getByRole('dialog', { name: 'Upload files' });
      await overlay.waitFor();
      await check(page, 'upload overlay', found);
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'hidden' });
      await pickFiles(page, { name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
      await waitForSummary(page, '1 file uploaded successfully!');
      await listing(page).getByText('hello.txt').first().waitFor();
      await settled(page);
      await check(page, 'transfers panel, done', found);
      await closeTransfers(page);

      // The previewer on each kind of file.
      await openDocs(page);
      const kinds: Array<[string, string]> = [
        ['photo.png', 'img.image-view__image'],
        ['notes.txt', 'pre.text-view__text'],
        ['plans.pdf', 'canvas.pdf-view__page:not([hidden])'],
        ['clip.mp4', 'video'],
        ['data.bin', 'button'],
      ];
      for (const [name, ready] of kinds) {
        await listing(page).getByRole('button', { name, exact: true }).first().click();
        await previewer(page).locator(ready).first().waitFor();
        await page.waitForFunction(() => !document.querySelector('dialog.preview[open] .preview__loading'));
        await check(page, `previewer ${name}`, found);
        await previewer(page).getByRole('button', { name: 'Close preview' }).click();
        await previewer(page).waitFor({ state: 'detached' });
      }

      // /shared with an item, /preview, the profile with TOTP on.
      await page.goto(`${base}/shared`);
      await listing(page).getByText('Gifts').first().waitFor();
      await check(page, '/shared', found);
      await page.goto(`${base}/preview`);
      await page.getByRole('button', { name: 'Select File to Preview' }).waitFor();
      await check(page, '/preview', found);
      await page.goto(`${base}/profile`);
      // The current session's "This device" badge (.badge--on, as TOTP's "On").
      await page.locator('.badge--on').first().waitFor();
      await check(page, 'profile', found);

      // 375 px: the key screens.
      await page.setViewportSize({ width: 375, height: 800 });
      await check(page, 'profile', found);
      await openDocs(page);
      await check(page, '/files list', found);
      await checkDialog(page, 'notes.txt', 'Info', 'File info', found);
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).click();
      await page.waitForFunction(() => document.querySelector('.view-toggle__option--active')?.textContent === 'Grid');
      await check(page, '/files grid', found);
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
      await page.getByRole('button', { name: 'Upload File' }).first().click();
      await page.getByRole('dialog', { name: 'Upload files' }).waitFor();
      await check(page, 'upload overlay', found);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Upload files' }).waitFor({ state: 'hidden' });
      await menuAction(page, 'notes.txt', 'Share');
      await page.getByRole('dialog', { name: 'Share notes.txt' }).waitFor();
      await check(page, 'Share dialog, Users', found);
      await page.keyboard.press('Escape');
      await listing(page).getByRole('button', { name: 'photo.png', exact: true }).first().click();
      await previewer(page).locator('img.image-view__image').waitFor();
      await check(page, 'previewer photo.png', found);
      await previewer(page).getByRole('button', { name: 'Close preview' }).click();

      expect(found.join('\n\n')).toBe('');
    },
    SLOW,
  );
});
