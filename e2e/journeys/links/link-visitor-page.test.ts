/**
 * The link visitor's page (issue 23, docs/web-files.md "The link visitor's page"): an anonymous
 * visitor is told who shared what ("alice shared “Trip 2026”"), that it is view only and until
 * when, gets a Download all (the zip), an item menu with only what the link allows (no greyed
 * Share, Rename, Move, Delete; narrower than a phone), no owner-only places and one sign-in.
 * When the link is removed while its page is open (the live socket held back, so the page is not
 * told), preview and download say "This link has expired or was removed". Screenshots at 375 and
 * 1280 px, light and dark, and the axe check.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { toBase64Url } from '@sealbox/crypto';
import { checkA11y } from '../../support/axe.ts';
import { apiCreateFolder, apiUploadFile, apiUserWithFolder, ok, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { randomBytes, same } from './links.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW });
const notes = new TextEncoder().encode('Ferry at 7:40, platform 2.\n');
const photo = randomBytes(120_000);

let owner: ApiSession;
let ownerName = '';
let trip: ApiFolder;

/** A view-only link to `itemId` that expires in `seconds`; its id. */
async function expiringLink(itemId: string, seconds: number): Promise<string> {
  const answer = await ok(
    await fetch(`${owner.baseUrl}/api/share`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'link', id: itemId, expires: seconds, password: null, edit: false }),
    }),
    'share link',
  );
  return answer.linkId as string;
}

async function removeLink(linkId: string): Promise<void> {
  await ok(
    await fetch(`${owner.baseUrl}/api/shared`, {
      method: 'DELETE',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'link', linkId }),
    }),
    'delete link',
  );
}

const body = (page: Page) => page.locator('.browser__body');

async function openLinkPage(page: Page, linkId: string): Promise<void> {
  await page.goto(`${suite.server.url}/share?linkId=${linkId}#${toBase64Url(trip.key)}`);
  await page.getByRole('heading', { name: `${ownerName} shared “Trip 2026”` }).waitFor();
  await body(page).getByText('notes.txt').first().waitFor();
}

async function menuItems(page: Page, name: string): Promise<string[]> {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const items = await menu.getByRole('menuitem').allTextContents();
  return items.map((text) => text.trim());
}

describe.skipIf(skipWithoutBrowser)('the link visitor’s page', () => {
  beforeAll(async () => {
    const made = await apiUserWithFolder(suite.server.url, 'Trip 2026');
    owner = made.session;
    ownerName = made.user.username;
    trip = made.folder;
    await apiUploadFile(owner, trip, 'notes.txt', notes, 'text/plain');
    await apiUploadFile(owner, trip, 'photo.bin', photo);
  }, SLOW);

  test(
    'says who shared what, view only until when; Download all; only allowed actions; one sign-in',
    async () => {
      const linkId = await expiringLink(trip.id, 7 * 86_400);
      const page = await suite.newBrowser();
      await openLinkPage(page, linkId);

      const facts = await page.getByRole('list', { name: 'About this link' }).locator('li').allTextContents();
      expect(facts[0]).toBe('View only');
      expect(facts[1]).toStartWith('Expires ');
      // An anonymous visitor: no sidebar of places they do not have, and one way to sign in.
      expect(await page.locator('#files-sidebar').count()).toBe(0);
      expect(await page.getByRole('button', { name: /New Folder/ }).count()).toBe(0);
      expect(await page.getByRole('link', { name: /^sign in$/i }).allTextContents()).toEqual(['Sign in']);
      expect(await page.getByRole('button', { name: 'Upload File' }).count()).toBe(0);

      // Only what a view-only link allows.
      expect(await menuItems(page, 'notes.txt')).toEqual(['Preview', 'Download', 'Info']);
      await page.keyboard.press('Escape');
      expect(await checkA11y(page, 'link visitor page')).toBe('');
      await saveScreenshots(page, 'link-visitor-page', { fullPage: false });

      // On a phone the menu fits the screen.
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await menuItems(page, 'photo.bin')).toEqual(['Preview', 'Download', 'Info']);
      const box = await page.getByRole('menu').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 800 });

      // Download all: the linked folder as one zip, byte for byte.
      const started = page.waitForEvent('download', { timeout: 60_000 });
      await page.getByRole('button', { name: 'Download all' }).click();
      const got = await started;
      expect(await got.failure()).toBeNull();
      expect(got.suggestedFilename()).toBe('Trip 2026.zip');
      const entries = unzipSync(new Uint8Array(await readFile(await got.path())));
      expect(Object.keys(entries).sort()).toEqual(['Trip 2026/', 'Trip 2026/notes.txt', 'Trip 2026/photo.bin']);
      expect(same(entries['Trip 2026/photo.bin'], photo)).toBe(true);
    },
    SLOW,
  );

  test(
    'a link removed while its page is open: preview and download say it expired or was removed',
    async () => {
      const linkId = await expiringLink(trip.id, 3600);
      const page = await suite.newBrowser({
        expectHttpErrors: [
          { status: 404, path: '/api/file' },
          { status: 404, path: `/api/shared/${linkId}` },
        ],
      });
      // The link's live socket reaches the server, but what the server says (and its close) is
      // held back: the page does not learn of the removal and keeps showing the folder.
      let connected: () => void = () => {};
      const socketUp = new Promise<void>((resolve) => {
        connected = resolve;
      });
      await page.context().routeWebSocket(/\/api\/ws/, (ws) => {
        const server = ws.connectToServer();
        // The server's first message (its hello) says the socket is up.
        server.onMessage(() => connected());
        server.onClose(() => {});
      });
      await openLinkPage(page, linkId);
      // Removed only once the socket is up: one opened after would be refused (404) at its handshake.
      await socketUp;
      await removeLink(linkId);

      await body(page).getByText('notes.txt').first().click();
      const preview = page.getByRole('dialog', { name: 'notes.txt' });
      await preview.getByText('This link has expired or was removed', { exact: true }).waitFor();
      expect(await preview.getByText('Error decrypting file.').count()).toBe(0);
      // Nothing left to fetch: no Try again and no Download.
      expect(await preview.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      expect(await preview.getByRole('button', { name: 'Download' }).count()).toBe(0);
      await saveScreenshots(page, 'link-visitor-gone-preview', { fullPage: false });
      await page.getByRole('button', { name: 'Close preview' }).click();

      await page.getByRole('button', { name: 'Actions for photo.bin' }).first().click();
      await page.getByRole('menuitem', { name: 'Download' }).click();
      await page.locator('.sb-toaster').getByText('This link has expired or was removed', { exact: true }).first().waitFor();
    },
    SLOW,
  );

  test(
    "the owner's listing marks what is shared, live, and only that",
    async () => {
      const made = await apiUserWithFolder(suite.server.url, 'Receipts');
      await apiCreateFolder(made.session, null, 'Private');
      const page = await suite.signedIn(made.user);
      const rowOf = (name: string) =>
        page.locator('tbody tr[data-item-id]', { has: page.getByRole('button', { name, exact: true }) });
      await rowOf('Private').waitFor();
      expect(await rowOf('Receipts').getByRole('img', { name: 'Shared' }).count()).toBe(0);
      // A link made elsewhere (another tab, the API): the mark comes without a reload.
      const answer = await ok(
        await fetch(`${suite.server.url}/api/share`, {
          method: 'POST',
          headers: { cookie: made.session.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'link', id: made.folder.id, expires: 0, password: null, edit: false }),
        }),
        'share link',
      );
      await rowOf('Receipts').getByRole('img', { name: 'Shared' }).waitFor({ timeout: 10_000 });
      expect(await rowOf('Private').getByRole('img', { name: 'Shared' }).count()).toBe(0);
      expect(await checkA11y(page, 'owner listing with a shared mark')).toBe('');
      await saveScreenshots(page, 'owner-shared-mark', { fullPage: false });
      // Removed, the mark goes too.
      await ok(
        await fetch(`${suite.server.url}/api/shared`, {
          method: 'DELETE',
          headers: { cookie: made.session.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'link', linkId: answer.linkId }),
        }),
        'delete link',
      );
      await rowOf('Receipts').getByRole('img', { name: 'Shared' }).waitFor({ state: 'detached', timeout: 10_000 });
    },
    SLOW,
  );
});
