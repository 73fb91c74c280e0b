/**
 * Unfinished uploads by others (issue 21, findings 3 and 8; docs/protocol.md "Uploads by others"):
 * an anonymous holder of an editor link starts an upload in Chromium and never finishes it (its
 * parts are held back). The owner sees the space it holds in the sidebar and in Profile, where the
 * upload is listed with its name, where it goes and "Anonymous (via link)", and aborts it: the
 * space is free again and the holder's parts are refused. Then deleting the link ends another one
 * at once. Screenshots of Profile at 1280 and 375 px, light and dark, go to the system's temp
 * directory (never the repo).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { ciphertextSize, toBase64Url } from '@sealbox/crypto';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiLogin, apiUserWithFolder, fileMetadata, folderLink, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { openShare, toastText } from '../../support/share-dialog.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles } from '../../support/transfers.ts';
import { linkPageHeading } from '../../support/sharing.ts';

const SLOW = 180_000;
const MiB = 1024 * 1024;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });
const SHOTS = join(tmpdir(), 'sealbox-unfinished-uploads');

let owner: TestUser;
let session: ApiSession;
let drop: ApiFolder;

async function api(path: string, init: RequestInit = {}, cookie = session.cookie): Promise<any> {
  const response = await fetch(`${suite.server.url}${path}`, { ...init, headers: { cookie, ...init.headers } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

async function editorLink(): Promise<string> {
  const body = JSON.stringify({ type: 'link', id: drop.id, expires: 0, edit: true });
  return (await api('/api/share', { method: 'POST', body, headers: { 'content-type': 'application/json' } })).linkId;
}

/** Starts a file in parts in `drop` through the API (as the browser's worker would, without sending a part). */
async function apiStart(name: string, plainSize: number, cookie: string, linkId?: string): Promise<string> {
  const { metadata } = await fileMetadata(drop.key, drop.id, name, 'application/octet-stream', ciphertextSize(plainSize));
  const body = new FormData();
  body.set('metadata', JSON.stringify(metadata));
  return (await api(`/api/upload${linkId ? `?linkId=${linkId}` : ''}`, { method: 'POST', body }, cookie)).uploadId;
}

const profileOf = () => api('/api/profile') as Promise<{ usedSpace: number; reservedSpace: number }>;
const unfinished = () => api('/api/uploads') as Promise<{ total: number; uploads: Array<{ uploadId: string }> }>;

/**
 * The link visitor's page, with a file picked through the link's Upload File dialog: the upload
 * starts on the server (its space reserved) while every part request is held back here.
 */
async function visitorStarts(linkId: string, name: string): Promise<{ page: Page; held: Route[] }> {
  // Refused parts; and once the link is deleted (each test ends it), the page's refetches through it.
  const page = await suite.newBrowser({
    expectHttpErrors: [
      { status: 404, path: /^\/api\/upload\// },
      { status: 404, path: '/api/file' },
      { status: 404, path: `/api/shared/${linkId}` },
    ],
  });
  const held: Route[] = [];
  await page.route('**/api/upload/*/part/*', (route) => {
    held.push(route);
  });
  await page.goto(`${suite.server.url}/share?linkId=${linkId}#${toBase64Url(drop.key)}`);
  await linkPageHeading(page).waitFor();
  const started = page.waitForResponse((r) => r.url().endsWith(`/api/upload?linkId=${linkId}`) && r.status() === 201);
  await pickFiles(page, { name, mimeType: 'application/octet-stream', buffer: Buffer.alloc(12 * MiB, 7) });
  await started;
  for (const deadline = Date.now() + 30_000; held.length === 0; ) {
    if (Date.now() > deadline) throw new Error('the visitor sent no part');
    await Bun.sleep(50);
  }
  return { page, held };
}

/** Lets the held parts go to the server; each is answered 404 once the upload has ended. */
async function release(held: Route[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const route of held.splice(0)) {
    const response = await route.fetch().catch(() => undefined);
    statuses.push(response?.status() ?? 0);
    await route.fulfill(response ? { response } : { status: 599 }).catch(() => undefined);
  }
  return statuses;
}

const section = (page: Page) => page.getByRole('region', { name: 'Unfinished uploads' });
const row = (page: Page, name: string) => section(page).getByRole('listitem').filter({ hasText: name });

describe.skipIf(skipWithoutBrowser)('unfinished uploads by others', () => {
  beforeAll(async () => {
    ({ user: owner, session, folder: drop } = await apiUserWithFolder(suite.server.url, 'Drop box'));
    await mkdir(SHOTS, { recursive: true });
  }, SLOW);

  test(
    "an editor link holder's unfinished upload: the owner sees its space and who started it, and aborts it",
    async () => {
      const linkId = await editorLink();
      const before = await profileOf();
      const visitor = await visitorStarts(linkId, 'holiday.mov');
      const held = ciphertextSize(12 * MiB);
      expect((await profileOf()).reservedSpace).toBe(before.reservedSpace + held);

      // A signed-in user through the link, and the owner's own: listed beside it, each as who they are.
      const bob = await createUser(suite.server.url, { username: `bob${Date.now().toString(36).slice(-6)}` });
      const bobSession = await apiLogin(suite.server.url, bob);
      await apiStart('report.pdf', 20 * MiB, bobSession.cookie, linkId);
      await apiStart('backup.tar', 30 * MiB, session.cookie);

      const page = await suite.signedIn(owner);
      // The sidebar's meter shows the space held beside what is used.
      await page.getByRole('link', { name: '62.0 MiB reserved' }).waitFor();
      expect(await page.getByRole('meter', { name: 'Storage used' }).getAttribute('aria-valuetext')).toBe(
        '0% used, 62.0 MiB reserved by unfinished uploads',
      );
      await page.locator('.storage').screenshot({ path: join(SHOTS, 'sidebar-storage-1280-light.png') });
      await page.goto(`${suite.server.url}/profile`);
      const visitorRow = row(page, 'holiday.mov');
      await visitorRow.waitFor();
      await visitorRow.getByText('Anonymous (via link)').waitFor();
      expect(await visitorRow.getByRole('link', { name: 'My Files / Drop box' }).getAttribute('href')).toBe(
        `/files?parentId=${drop.id}`,
      );
      await row(page, 'report.pdf').getByText(`${bob.username} (via link)`).waitFor();
      await row(page, 'backup.tar').getByText('You', { exact: true }).waitFor();
      await page.getByText('Reserved 62.0 MiB').waitFor();
      for (const width of [1280, 375]) {
        for (const scheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme: scheme });
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: join(SHOTS, `profile-${width}-${scheme}.png`), fullPage: true });
          await section(page).screenshot({ path: join(SHOTS, `unfinished-${width}-${scheme}.png`) });
          expect(await checkA11y(page, `profile with unfinished uploads [${scheme}, ${width} px]`)).toBe('');
        }
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.emulateMedia({ colorScheme: 'light' });

      await visitorRow.getByRole('button', { name: 'Abort upload of holiday.mov' }).click();
      await toastText(page, 'Upload aborted. Its space is free again.').waitFor();
      await visitorRow.waitFor({ state: 'detached' });
      expect((await profileOf()).reservedSpace).toBe(before.reservedSpace + ciphertextSize(50 * MiB));
      // The holder's parts are refused from then on.
      expect(new Set(await release(visitor.held))).toEqual(new Set([404]));

      await section(page).getByRole('button', { name: 'Abort all' }).click();
      await page
        .getByRole('dialog', { name: 'Abort all unfinished uploads?' })
        .getByRole('button', { name: 'Abort all' })
        .click();
      await section(page).getByText('No unfinished uploads.').waitFor();
      expect(await profileOf()).toEqual({ ...(await profileOf()), reservedSpace: before.reservedSpace });
      expect((await unfinished()).total).toBe(0);
      const body = JSON.stringify({ type: 'link', linkId });
      await api('/api/shared', { method: 'DELETE', body, headers: { 'content-type': 'application/json' } });
    },
    SLOW,
  );

  test(
    'deleting the link ends the upload started through it at once and frees its space',
    async () => {
      const linkId = await editorLink();
      const before = await profileOf();
      const visitor = await visitorStarts(linkId, 'dropped.bin');
      const page = await suite.signedIn(owner);
      await page.goto(`${suite.server.url}/profile`);
      await row(page, 'dropped.bin').getByText('Anonymous (via link)').waitFor();
      expect((await profileOf()).reservedSpace).toBe(before.reservedSpace + ciphertextSize(12 * MiB));

      await page.goto(`${suite.server.url}/files`);
      await folderLink(page, 'Drop box').waitFor();
      const share = await openShare(page, 'Drop box');
      await share.getByRole('tab', { name: 'Links' }).click();
      await share.getByRole('button', { name: 'Revoke Link 1' }).click();
      await toastText(page, 'Link revoked').waitFor();
      expect((await profileOf()).reservedSpace).toBe(before.reservedSpace);
      expect((await unfinished()).total).toBe(0);
      await page.keyboard.press('Escape');
      await page.goto(`${suite.server.url}/profile`);
      await section(page).getByText('No unfinished uploads.').waitFor();
      // The link is gone: whatever the holder sends now is refused.
      expect(new Set(await release(visitor.held))).toEqual(new Set([404]));
    },
    SLOW,
  );
});
