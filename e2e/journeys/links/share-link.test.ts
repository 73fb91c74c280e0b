/**
 * Link visitors (issue 12, docs/product.md "Screens" /share): an owner made through the API shares
 * a folder by a password link; an anonymous Chromium opens `/share?linkId=ID#KEY`, gets the
 * password prompt, 'Invalid password!' on a wrong one, then the files of the linked folder
 * (breadcrumbs start at it, folders open inside it), downloads a file and a folder (zip) byte for
 * byte, all under the link key. Screenshots of the prompt and the link view at 375 and 1280 px,
 * light and dark. Afterwards the server's log holds no link key.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { unzipSync } from 'fflate';
import { toBase64Url } from '@sealbox/crypto';
import { createUser, type TestUser } from '../../support/accounts.ts';
import {
  apiCreateFolder,
  apiUploadFile,
  apiUserWithFolder,
  createFolderViaUi,
  folderLink,
  signInToFiles,
  type ApiFolder,
  type ApiSession,
} from '../../support/files.ts';
import { solidPng } from '../../support/png.ts';
import { saveScreenshot, saveScreenshots } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { downloadViaMenu, dragFiles, expectDownloadOf, pickFiles, transferRow, waitForSummary } from '../../support/transfers.ts';
import { linkPageHeading } from '../../support/sharing.ts';
import { createLink, ownerNames, randomBytes, same } from './links.ts';

const SLOW = 180_000;
const PASSWORD = 'open sesame, please';
const suite = browserSuite({ timeoutMs: SLOW });

const notes = new TextEncoder().encode('Meet at the harbour at nine.\n');
const photo = randomBytes(300_000);
const deep = randomBytes(70_000);

let owner: ApiSession;
let linkId = '';
let linkKey = '';
let fileLinkId = '';
let fileLinkKey = '';
let visitor: TestUser;
let workbench: ApiFolder;
let holiday: ApiFolder;
let editLinkId = '';

const linkUrl = () => `${suite.server.url}/share?linkId=${linkId}#${linkKey}`;
const expected401 = () => [{ status: 401, path: `/api/shared/${linkId}` }];

async function openLink(page: Page): Promise<void> {
  await page.goto(linkUrl());
  await page.getByLabel('This link requires a password to access:').waitFor();
}

async function unlock(page: Page): Promise<void> {
  await page.getByLabel('This link requires a password to access:').fill(PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
  await linkPageHeading(page).waitFor();
  await page.locator('.browser__body').getByText('notes.txt').first().waitFor();
}

describe.skipIf(skipWithoutBrowser)('share links for visitors', () => {
  beforeAll(async () => {
    ({ session: owner, folder: holiday } = await apiUserWithFolder(suite.server.url, 'Holiday'));
    const notesFile = await apiUploadFile(owner, holiday, 'notes.txt', notes, 'text/plain');
    await apiUploadFile(owner, holiday, 'photo.bin', photo);
    await apiUploadFile(owner, holiday, 'sunset.png', new Uint8Array(solidPng(64, 48, [230, 120, 40])), 'image/png');
    const inner = await apiCreateFolder(owner, holiday, 'Inner');
    await apiUploadFile(owner, inner, 'deep.bin', deep);
    linkId = await createLink(owner, holiday.id, PASSWORD);
    // docs/protocol.md: the fragment is the shared item's K, unpadded base64url.
    linkKey = toBase64Url(holiday.key);
    fileLinkId = await createLink(owner, notesFile.id, null);
    fileLinkKey = toBase64Url(notesFile.key);
    visitor = await createUser(suite.server.url);
    workbench = await apiCreateFolder(owner, null, 'Workbench');
    await apiUploadFile(owner, workbench, 'draft.txt', notes, 'text/plain');
    await apiUploadFile(owner, workbench, 'old.txt', notes, 'text/plain');
    await apiCreateFolder(owner, workbench, 'Archive');
    editLinkId = await createLink(owner, workbench.id, null, true);
  }, SLOW);

  test(
    'an anonymous visitor: password prompt, Invalid password!, the files, folders inside, downloads byte for byte',
    async () => {
      const page = await suite.newBrowser({ expectHttpErrors: expected401() });
      await openLink(page);
      const submit = page.getByRole('button', { name: 'Submit' });
      expect(await submit.isDisabled()).toBe(true);
      await page.getByLabel('This link requires a password to access:').fill('not the password');
      expect(await submit.isDisabled()).toBe(false);
      await submit.click();
      await page.getByText('Invalid password!').waitFor();

      await unlock(page);
      const body = page.locator('.browser__body');
      await body.getByText('photo.bin').first().waitFor();
      await body.getByRole('button', { name: 'Inner', exact: true }).first().waitFor();
      // Breadcrumbs start at the shared folder.
      await page
        .getByRole('navigation', { name: /breadcrumb/i })
        .getByText('Holiday')
        .first()
        .waitFor();
      // Link mode: Sign In, and the sidebar's links disabled.
      // Link mode, anonymous: no sidebar of places they do not have; the navbar's Sign in.
      expect(await page.locator('#files-sidebar').count()).toBe(0);
      await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
      expect(await page.getByRole('button', { name: 'Upload File' }).count()).toBe(0);

      const file = await expectDownloadOf(page, 'photo.bin', photo);
      expect(file.suggestedFilename()).toBe('photo.bin');

      const zip = await downloadViaMenu(page, 'Inner');
      expect(zip.download.suggestedFilename()).toBe('Inner.zip');
      const entries = unzipSync(zip.bytes);
      expect(same(entries['Inner/deep.bin'], deep)).toBe(true);

      // The grid's thumbnails are fetched and decrypted through the link too.
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).click();
      await page
        .locator('.file-card', { has: page.getByText('sunset.png', { exact: true }) })
        .locator('img')
        .waitFor();
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();

      // Search over the link's tree: a result inside a subfolder, its place, and the jump there.
      await page.getByPlaceholder('Search files...').fill('deep');
      await body.getByText('Holiday / Inner').first().waitFor();
      await body.getByRole('button', { name: 'Jump to Folder' }).first().click();
      await body.getByText('deep.bin').first().waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Holiday').first().click();
      await body.getByText('notes.txt').first().waitFor();

      // Into the folder and back by the first crumb, the link key kept in the URL.
      await body.getByRole('button', { name: 'Inner', exact: true }).first().click();
      await body.getByText('deep.bin').first().waitFor();
      expect(new URL(page.url()).hash).toBe(`#${linkKey}`);
      await page
        .getByRole('navigation', { name: /breadcrumb/i })
        .getByText('Holiday')
        .first()
        .click();
      await body.getByText('notes.txt').first().waitFor();
    },
    SLOW,
  );

  test(
    'a link to one file, without a password, shows that file and downloads it',
    async () => {
      const page = await suite.newBrowser();
      await page.goto(`${suite.server.url}/share?linkId=${fileLinkId}#${fileLinkKey}`);
      await linkPageHeading(page).waitFor();
      await page.locator('.browser__body').getByText('notes.txt').first().waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('notes.txt').first().waitFor();
      const file = await expectDownloadOf(page, 'notes.txt', notes);
      expect(file.suggestedFilename()).toBe('notes.txt');
    },
    SLOW,
  );

  test(
    'a signed-in user opens the link in link mode, and stays signed in',
    async () => {
      const page = await suite.newBrowser({ expectHttpErrors: expected401() });
      await signInToFiles(page, suite.server.url, visitor);
      await openLink(page);
      await unlock(page);
      // Signed in, they keep their own places beside the link's page.
      await page.locator('#files-sidebar').getByRole('link', { name: 'Shared with me' }).waitFor();
      expect(await page.locator('#files-sidebar').getByRole('link', { name: 'Sign In' }).count()).toBe(0);
      await page.goto(`${suite.server.url}/files`);
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
    },
    SLOW,
  );

  test(
    'an editor link: new folder, rename, move, delete and uploads inside the linked folder, all sealed under its keys',
    async () => {
      const page = await suite.newBrowser();
      await page.goto(`${suite.server.url}/share?linkId=${editLinkId}#${toBase64Url(workbench.key)}`);
      const body = page.locator('.browser__body');
      await body.getByText('draft.txt').first().waitFor();
      // No sidebar: New Folder stands beside Upload File.
      expect(await page.getByRole('button', { name: 'New Folder' }).isDisabled()).toBe(false);
      await saveScreenshots(page, 'share-link-editor', { fullPage: false });

      await createFolderViaUi(page, 'From visitor');

      await page.getByRole('button', { name: 'Actions for draft.txt' }).first().click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename file' });
      await rename.getByLabel('New name').fill('final.txt');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await rename.waitFor({ state: 'detached' });
      await body.getByText('final.txt').first().waitFor();

      await page.getByRole('button', { name: 'Actions for final.txt' }).first().click();
      await page.getByRole('menuitem', { name: 'Move' }).click();
      const move = page.getByRole('dialog', { name: 'Move final.txt' });
      await move.getByRole('button', { name: 'Archive' }).click();
      await move.getByRole('button', { name: 'Move here' }).click();
      await move.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Actions for old.txt' }).first().click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete file?' });
      await remove.getByRole('button', { name: 'Delete' }).click();
      await remove.waitFor({ state: 'detached' });
      await body.getByText('old.txt').waitFor({ state: 'detached' });

      // Uploads through the link: one part, and several parts (over 8 MiB).
      const big = randomBytes(9 * 1024 * 1024 + 123);
      const small = new TextEncoder().encode('uploaded by a link visitor\n');
      await pickFiles(page, [
        { name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from(small) },
        { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(big) },
      ]);
      await waitForSummary(page, 'All 2 files uploaded successfully!');
      // Dropped on the link's listing, a file goes up through the link too (issue 14).
      await dragFiles(page, [{ name: 'dropped.txt', bytes: new TextEncoder().encode('dropped by a link visitor\n') }]);
      await waitForSummary(page, 'All 3 files uploaded successfully!');
      await body.getByText('dropped.txt').first().waitFor();
      await body.getByText('big.bin').first().waitFor();
      await expectDownloadOf(page, 'big.bin', big);

      await folderLink(page, 'Archive').first().click();
      await body.getByText('final.txt').first().waitFor();

      const names = await ownerNames(owner, workbench);
      expect([...names.keys()].sort()).toEqual([
        '/Archive',
        '/Archive/final.txt',
        '/From visitor',
        '/big.bin',
        '/dropped.txt',
        '/small.txt',
      ]);
    },
    SLOW,
  );

  test(
    'an upload through an editor link, cut off by a reload, resumes from the link after the same file is picked again',
    async () => {
      const page = await suite.newBrowser();
      const url = `${suite.server.url}/share?linkId=${editLinkId}#${toBase64Url(workbench.key)}`;
      await page.goto(url);
      await folderLink(page, 'Archive').first().waitFor();
      const bytes = randomBytes(30 * 1024 * 1024);
      const partOf = (u: string) => Number(/\/api\/upload\/[0-9a-f-]+\/part\/(\d+)/.exec(new URL(u).pathname)?.[1] ?? Number.NaN);
      const stored = new Set<number>();
      page.on('requestfinished', async (request) => {
        if (request.method() === 'PUT' && !Number.isNaN(partOf(request.url())) && (await request.response())?.status() === 204)
          stored.add(partOf(request.url()));
      });
      // Slow parts, so the reload lands mid-way; the old page's parts are cut off while it reloads.
      let phase: 'uploading' | 'reloading' | 'resumed' = 'uploading';
      await page.route('**/api/upload/*/part/*', async (route) => {
        if (phase === 'uploading') await new Promise((r) => setTimeout(r, 400));
        if (phase === 'reloading') return route.abort();
        await route.continue();
      });
      const overlay = page.getByRole('dialog', { name: 'Upload files' });
      const file = { name: 'resumed.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) };
      await pickFiles(page, file);
      for (const deadline = Date.now() + 60_000; stored.size < 1; ) {
        if (Date.now() > deadline) throw new Error('no part was stored before the reload');
        await Bun.sleep(50);
      }
      phase = 'reloading';
      await page.reload();
      phase = 'resumed';
      await folderLink(page, 'Archive').first().waitFor();

      await page.getByRole('button', { name: 'Upload File' }).click();
      const pending = overlay.getByRole('region', { name: 'Unfinished uploads' });
      await pending.getByText('resumed.bin', { exact: true }).waitFor({ timeout: 30_000 });
      const chooser = page.waitForEvent('filechooser');
      await pending.getByRole('button', { name: 'Resume resumed.bin' }).click();
      await (await chooser).setFiles(file);
      await waitForSummary(page, '1 file uploaded successfully!', 120_000);
      await transferRow(page, 'resumed.bin').getByText('Uploaded (resumed)').waitFor();
      await page.unroute('**/api/upload/*/part/*');
      await expectDownloadOf(page, 'resumed.bin', bytes);
    },
    SLOW,
  );

  for (const width of [375, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(
        `screenshots of the prompt and the link view at ${width} px, ${scheme}`,
        async () => {
          const page = await suite.newBrowser({ width, colorScheme: scheme, expectHttpErrors: expected401() });
          await openLink(page);
          await saveScreenshot(page, `share-link-prompt-${width}-${scheme}`);
          await unlock(page);
          await page.locator('.browser__body').getByText('photo.bin').first().waitFor();
          await saveScreenshot(page, `share-link-view-${width}-${scheme}`);
        },
        SLOW,
      );
    }
  }

  test(
    'live: what the owner adds appears at once; a changed password closes the socket and asks again',
    async () => {
      // Once the password changed, a listing racing the socket's close answers 404 like a missing link.
      const page = await suite.newBrowser({ expectHttpErrors: [...expected401(), { status: 404, path: '/api/file' }] });
      const frames: string[] = [];
      page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
      await openLink(page);
      await unlock(page);
      const body = page.locator('.browser__body');
      // The link's socket brought it (its event is on the socket), not the 5 s refresh of an
      // offline page. How soon is bench/live's to measure; the wait only stops a hang.
      const late = await apiUploadFile(owner, holiday, 'late.txt', notes, 'text/plain');
      await body.getByText('late.txt').first().waitFor({ timeout: 15_000 });
      expect(frames.some((frame) => frame.includes('"event"') && frame.includes(late.id))).toBe(true);

      const changed = await fetch(`${owner.baseUrl}/api/share`, {
        method: 'PUT',
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'link', linkId, password: 'a brand new password' }),
      });
      expect(changed.status).toBe(200);
      const field = page.getByLabel('This link requires a password to access:');
      await field.waitFor({ timeout: 10_000 });
      await field.fill('a brand new password');
      await page.getByRole('button', { name: 'Submit' }).click();
      await body.getByText('late.txt').first().waitFor();
    },
    SLOW,
  );

  test('the server never saw the link key: no fragment in its log', () => {
    const log = suite.server.output();
    expect(log).toContain('/api/shared/:id');
    expect(log).not.toContain(linkKey);
    expect(log).not.toContain(linkId);
    expect(log).not.toContain(fileLinkKey);
    expect(log).not.toContain(fileLinkId);
    expect(log).not.toContain(editLinkId);
    expect(log).not.toContain(toBase64Url(workbench.key));
  });
});
