/**
 * 'Files Shared with Me' (issue 12, docs/product.md "Screens" /shared, docs/product.md "Roles"):
 * owner A (made through the API with the real crypto package) shares a folder with B, who has
 * /shared open in Chromium. B sees it arrive live with A's name, opens it, downloads a file byte
 * for byte and finds rename, move, delete, upload and New Folder refused with the product's
 * tooltips; A makes B editor, and B uploads a file and makes a folder, which A's listing shows and
 * which count on A's quota; A revokes and B's view loses the folder live. A grant the sharer never
 * signed (the server planting an access entry) is shown as unverified, and nothing can be added
 * under it. Search on /shared covers what is shared with B (the shared items and everything below
 * them), not the sharer's other files.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { decryptName, toBase64, unwrapItemKey } from '@sealbox/crypto';
import { createUser, loginViaUi, type TestUser } from '../../support/accounts.ts';
import {
  apiCreateFolder,
  apiLogin,
  apiUploadFile,
  createFolderViaUi,
  type ApiFolder,
  type ApiSession,
} from '../../support/files.ts';
import { contentNeedles, keyNeedles, leaks, storedByServer, textNeedle } from '../../support/leaks.ts';
import { saveScreenshot, saveScreenshots } from '../../support/screenshots.ts';
import { apiRevokeUser, apiShareWithUser, apiSwitchUser, publicUser, type PublicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, waitForSummary } from '../../support/transfers.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW });

const report = new TextEncoder().encode('Quarterly figures: all up.\n');
const upload = new TextEncoder().encode('written by the editor\n');

let owner: ApiSession;
let ownerUser: TestUser;
let recipient: TestUser;
let recipientKeys: PublicUser;
let project: ApiFolder;

const body = (page: Page) => page.locator('.browser__body');

async function ownerChildren(folder: ApiFolder): Promise<Map<string, { id: string; uploaderId: string }>> {
  const response = await fetch(`${owner.baseUrl}/api/file?id=${folder.id}&depth=1&limit=1000&offset=0`, {
    headers: { cookie: owner.cookie },
  });
  const listing = (await response.json()) as {
    files: Array<{
      id: string;
      uploaderId: string;
      encryptedKey: string;
      keyNonce: string;
      encryptedFileName: string;
      nameNonce: string;
    }>;
  };
  const out = new Map<string, { id: string; uploaderId: string }>();
  for (const item of listing.files) {
    const key = await unwrapItemKey(folder.key, item.id, item.encryptedKey, item.keyNonce);
    out.set(await decryptName(key, item.id, item.encryptedFileName, item.nameNonce), item);
  }
  return out;
}

async function usedBytes(session: ApiSession): Promise<number> {
  const response = await fetch(`${session.baseUrl}/api/profile`, { headers: { cookie: session.cookie } });
  return ((await response.json()) as { usedSpace: number }).usedSpace;
}

async function openShared(page: Page): Promise<void> {
  await loginViaUi(page, suite.server.url, recipient);
  await page.locator('#files-sidebar').getByRole('link', { name: 'Shared with me' }).click();
  await page.getByRole('heading', { name: 'Files Shared with Me' }).waitFor();
}

async function menuItem(page: Page, name: string, action: string) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  const item = page.getByRole('menuitem', { name: new RegExp(`^${action}`) });
  await item.waitFor();
  return item;
}

describe.skipIf(skipWithoutBrowser)('files shared with me', () => {
  beforeAll(async () => {
    ownerUser = await createUser(suite.server.url);
    owner = await apiLogin(suite.server.url, ownerUser);
    recipient = await createUser(suite.server.url);
    recipientKeys = await publicUser(owner, recipient.id);
    project = await apiCreateFolder(owner, null, 'Project');
    await apiUploadFile(owner, project, 'report.txt', report, 'text/plain');
    await apiCreateFolder(owner, project, 'Drafts');
  }, SLOW);

  test(
    'viewer, then editor, then revoked: live, with the permissions of docs/product.md "Roles"',
    async () => {
      const page = await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: '/api/file' }] });
      await openShared(page);
      await body(page).getByText('No files have been shared with you yet').waitFor();

      // Shared while B looks: it appears without a reload, with its owner's name.
      const encryptedKey = await apiShareWithUser(owner, project, recipientKeys, false);
      const folderButton = body(page).getByRole('button', { name: 'Project', exact: true });
      await folderButton.waitFor({ timeout: 10_000 });
      await body(page).getByText(ownerUser.username).first().waitFor();
      // No greyed-out Upload File where uploads are refused (docs/web-files.md).
      expect(await page.getByRole('button', { name: 'Upload File' }).count()).toBe(0);
      await saveScreenshots(page, 'shared-list');

      await folderButton.click();
      await body(page).getByText('report.txt').waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Project').first().waitFor();

      // A viewer: download works, changes are refused with the product's tooltips.
      const started = page.waitForEvent('download', { timeout: 60_000 });
      await (await menuItem(page, 'report.txt', 'Download')).click();
      const got = await started;
      expect(Buffer.compare(Buffer.from(await readFile((await got.path())!)), Buffer.from(report))).toBe(0);
      const rename = await menuItem(page, 'report.txt', 'Rename');
      expect(await rename.getAttribute('aria-disabled')).toBe('true');
      expect(await rename.getAttribute('title')).toBe('You do not have permission to rename/move/delete this file');
      expect(await page.getByRole('menuitem', { name: /^Delete/ }).getAttribute('aria-disabled')).toBe('true');
      expect(await page.getByRole('menuitem', { name: /^Share/ }).getAttribute('title')).toBe(
        'You cannot share files you do not own',
      );
      await page.keyboard.press('Escape');
      // Info says whose share it is, never 'My Files'.
      await (await menuItem(page, 'report.txt', 'Info')).click();
      const info = page.getByRole('dialog', { name: 'File info' });
      await info.getByText(`Shared with me, from ${ownerUser.username} / Project`, { exact: true }).waitFor();
      await info.getByRole('button', { name: 'Close' }).first().click();
      await info.waitFor({ state: 'detached' });
      const newFolder = page.getByRole('button', { name: 'New Folder' });
      expect(await newFolder.isDisabled()).toBe(true);
      const uploadButton = page.getByRole('button', { name: 'Upload File' });
      expect(await uploadButton.count()).toBe(0);

      // Made editor: Upload File appears and New Folder opens up without a reload.
      await apiSwitchUser(owner, project, recipientKeys, encryptedKey, true);
      await uploadButton.waitFor({ timeout: 10_000 });
      await page.locator('#files-sidebar button:enabled', { hasText: 'New Folder' }).waitFor({ timeout: 10_000 });
      const before = await usedBytes(owner);
      await pickFiles(page, { name: 'from-editor.txt', mimeType: 'text/plain', buffer: Buffer.from(upload) });
      await waitForSummary(page, '1 file uploaded successfully!');
      await body(page).getByText('from-editor.txt').first().waitFor({ timeout: 30_000 });
      await createFolderViaUi(page, 'Editor folder');

      // An editor moves inside the shared folder: the dialog starts there, not in B's own files.
      await (await menuItem(page, 'from-editor.txt', 'Move')).click();
      const move = page.getByRole('dialog', { name: 'Move from-editor.txt' });
      await move.getByRole('navigation', { name: 'Move to' }).getByText('Project').waitFor();
      await move.getByRole('button', { name: 'Editor folder' }).click();
      await move.getByRole('button', { name: 'Move here' }).click();
      await move.waitFor({ state: 'detached' });
      await body(page).getByText('from-editor.txt').waitFor({ state: 'detached' });
      await body(page).getByRole('button', { name: 'Editor folder', exact: true }).click();
      await body(page).getByText('from-editor.txt').first().waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Project').first().click();

      // A sees both, uploaded by B, and the upload counts on A's quota.
      const children = await ownerChildren(project);
      const editorFolder = children.get('Editor folder');
      expect(editorFolder?.uploaderId).toBe(recipient.id);
      const inside = await fetch(`${owner.baseUrl}/api/file?id=${editorFolder?.id}&depth=1&limit=10&offset=0`, {
        headers: { cookie: owner.cookie },
      });
      const moved = ((await inside.json()) as { files: Array<{ uploaderId: string }> }).files;
      expect(moved.map((f) => f.uploaderId)).toEqual([recipient.id]);
      expect(await usedBytes(owner)).toBeGreaterThan(before);
      await saveScreenshots(page, 'shared-folder');

      // Revoked: B's view says the folder is no longer B's to open, live; back, the list is empty again.
      await apiRevokeUser(owner, project, recipientKeys);
      await body(page).getByText('You do not have access to this folder.').waitFor({ timeout: 10_000 });
      await body(page).getByRole('button', { name: 'Back to Files Shared with Me' }).click();
      await body(page).getByText('No files have been shared with you yet').waitFor({ timeout: 10_000 });
    },
    SLOW,
  );

  test(
    'a grant the sharer did not sign is shown unverified, and nothing can be added under it',
    async () => {
      const planted = await apiCreateFolder(owner, null, 'Planted');
      // The server's move: an access entry with a key wrapped for B, signed by nobody B knows.
      const bogus = toBase64(crypto.getRandomValues(new Uint8Array(64)));
      await apiShareWithUser(owner, planted, recipientKeys, true, { signature: bogus });
      const page = await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: '/api/file' }] });
      await openShared(page);
      const row = body(page).locator('[data-item-id]', { hasText: 'Planted' });
      await row.waitFor();
      await row.getByRole('img', { name: /Unverified share/ }).waitFor();
      await row.getByRole('button', { name: /^Planted/ }).click();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Planted').first().waitFor();
      expect(await page.getByRole('button', { name: 'Upload File' }).count()).toBe(0);
      await saveScreenshots(page, 'shared-unverified');
      await apiRevokeUser(owner, planted, recipientKeys);
    },
    SLOW,
  );

  test(
    'a grant the server altered (edit flag raised, signature moved to another item) is unverified; an untouched one is not',
    async () => {
      const [honest, raised, swappedA, swappedB] = (await Promise.all(
        ['Honest', 'Raised', 'SwapA', 'SwapB'].map((name) => apiCreateFolder(owner, null, name)),
      )) as [ApiFolder, ApiFolder, ApiFolder, ApiFolder];
      for (const folder of [honest, raised, swappedA, swappedB]) await apiShareWithUser(owner, folder, recipientKeys, false);
      const page = await suite.newBrowser();
      // The server under the browser: GET /api/shared answers with grants it rewrote.
      await page.route('**/api/shared?*', async (route) => {
        const response = await route.fetch();
        const answer = (await response.json()) as {
          files: Array<{ id: string; grant: { signature: string; editPermission: boolean } }>;
        };
        const byId = new Map(answer.files.map((file) => [file.id, file]));
        const r = byId.get(raised.id);
        if (r) r.grant.editPermission = true;
        const a = byId.get(swappedA.id);
        const b = byId.get(swappedB.id);
        if (a && b) [a.grant.signature, b.grant.signature] = [b.grant.signature, a.grant.signature];
        await route.fulfill({ response, json: answer });
      });
      await openShared(page);
      const row = (name: string) => body(page).locator('[data-item-id]', { hasText: name });
      for (const name of ['Raised', 'SwapA', 'SwapB'])
        await row(name)
          .getByRole('img', { name: /Unverified share/ })
          .waitFor();
      await row('Honest').waitFor();
      expect(
        await row('Honest')
          .getByRole('img', { name: /Unverified share/ })
          .count(),
      ).toBe(0);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      for (const folder of [honest, raised, swappedA, swappedB]) await apiRevokeUser(owner, folder, recipientKeys);
    },
    SLOW,
  );

  test(
    "search on /shared finds what lies inside a shared folder, never the sharer's other files; Jump to Folder opens its folder",
    async () => {
      const archive = await apiCreateFolder(owner, null, 'Archive');
      const inner = await apiCreateFolder(owner, archive, 'Inner');
      await apiUploadFile(owner, inner, 'ledger-zeta.txt', new TextEncoder().encode('zeta ledger: balanced\n'), 'text/plain');
      // A's own file with a matching name, in a folder never shared: B's search must not reach it.
      const unshared = await apiCreateFolder(owner, null, 'Private');
      await apiUploadFile(owner, unshared, 'ledger-zeta-private.txt', report, 'text/plain');
      await apiShareWithUser(owner, archive, recipientKeys, false);
      const page = await suite.newBrowser();
      await openShared(page);
      await body(page).getByRole('button', { name: 'Archive', exact: true }).waitFor();

      const box = page.getByPlaceholder('Search files...');
      await box.fill('ZETA');
      const results = page.getByRole('list', { name: 'Search results' });
      await results.getByText('ledger-zeta.txt', { exact: true }).waitFor({ timeout: 30_000 });
      await results.getByText('Files Shared with Me / Archive / Inner').waitFor();
      expect(await results.getByRole('listitem').count()).toBe(1);
      expect(await page.getByText('ledger-zeta-private.txt').count()).toBe(0);
      await saveScreenshots(page, 'shared-search');

      // A file found opens in the previewer, as on /files (its key came with the shared folder's subtree).
      await results.getByRole('button', { name: 'ledger-zeta.txt' }).click();
      await page.getByText('zeta ledger: balanced').waitFor({ timeout: 30_000 });
      await page.keyboard.press('Escape');
      await page.getByText('zeta ledger: balanced').waitFor({ state: 'detached' });

      await box.fill('no such thing');
      await page.getByText('No files found', { exact: true }).waitFor();

      // The shared folder itself jumps to the top list; what is inside it, to its own folder.
      await box.fill('zeta');
      await results.getByRole('button', { name: 'Jump to Folder' }).click();
      await page.waitForURL((url) => url.searchParams.get('parentId') === inner.id);
      await body(page).getByText('ledger-zeta.txt', { exact: true }).waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Inner').first().waitFor();
      expect(await box.inputValue()).toBe('');

      await box.fill('archive');
      await results.getByRole('button', { name: 'Jump to Folder' }).click();
      await page.waitForURL((url) => url.pathname === '/shared' && !url.searchParams.has('parentId'));
      await body(page).getByRole('button', { name: 'Archive', exact: true }).waitFor();
      await apiRevokeUser(owner, archive, recipientKeys);
    },
    SLOW,
  );

  test('nothing the server stored or logged holds a shared name, content or key', async () => {
    const stored = await storedByServer(suite.server);
    expect(stored.some((s) => s.path.includes('blobs'))).toBe(true);
    const needles = [
      ...[
        'Project',
        'report.txt',
        'Drafts',
        'from-editor.txt',
        'Editor folder',
        'Planted',
        'Honest',
        // The search journey's folders and files (the search itself runs in the browser).
        'Archive',
        'Inner',
        'ledger-zeta.txt',
        'ledger-zeta-private.txt',
      ].map((name) => textNeedle(`name ${name}`, name)),
      ...contentNeedles('report content', report),
      ...contentNeedles('editor upload', upload),
      ...keyNeedles('shared folder key', project.key),
    ];
    expect(leaks(stored, needles)).toEqual([]);
  });

  test(
    'a recipient removes a share from their own list; the shared item itself cannot be moved',
    async () => {
      const memo = await apiCreateFolder(owner, null, 'Memo');
      await apiShareWithUser(owner, memo, recipientKeys, true);
      const page = await suite.newBrowser();
      await openShared(page);
      const move = await menuItem(page, 'Memo', 'Move');
      expect(await move.getAttribute('aria-disabled')).toBe('true');
      expect(await move.getAttribute('title')).toBe('You do not have permission to rename/move/delete this file');
      await page.getByRole('menuitem', { name: 'Remove from my list' }).click();
      await body(page).getByText('No files have been shared with you yet').waitFor({ timeout: 10_000 });
      const access = await fetch(`${owner.baseUrl}/api/shared/${memo.id}/users`, { headers: { cookie: owner.cookie } });
      expect(((await access.json()) as { access: unknown[] }).access).toEqual([]);
    },
    SLOW,
  );

  test(
    'thirty shares: the first ones show at once, said to be the first; the rest follow; an altered grant is unverified wherever it is',
    async () => {
      const folders: ApiFolder[] = [];
      for (let i = 0; i < 30; i++) {
        const folder = await apiCreateFolder(owner, null, `Bulk ${String(i).padStart(2, '0')}`);
        await apiShareWithUser(owner, folder, recipientKeys, false);
        folders.push(folder);
      }
      // The server raises the edit flag of one grant among the first shares and of one after them.
      const altered = new Set([folders[2]!.id, folders[27]!.id]);
      const asked: string[] = [];
      // The revokes at the end may meet the search index still fetching the shared subtrees.
      const page = await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: '/api/file' }] });
      await page.route('**/api/shared?*', async (route) => {
        const limit = new URL(route.request().url()).searchParams.get('limit') ?? '';
        asked.push(limit);
        const response = await route.fetch();
        const answer = (await response.json()) as { files: Array<{ id: string; grant: { editPermission: boolean } }> };
        for (const file of answer.files) if (altered.has(file.id)) file.grant.editPermission = true;
        // The whole list is held back a moment, so the first shares are seen on their own.
        if (limit === '1000') await new Promise((resolve) => setTimeout(resolve, 3000));
        await route.fulfill({ response, json: answer });
      });
      await openShared(page);
      const row = (name: string) => body(page).locator('[data-item-id]', { hasText: name });
      const hint = page.locator('.browser__opening');
      await hint.getByText(/^Opening the rest of what is shared with you/).waitFor();
      await row('Bulk 02')
        .getByRole('img', { name: /Unverified share/ })
        .waitFor();
      expect(await page.locator('.listing__count').textContent()).toBe('20 items');
      await saveScreenshot(page, 'shared-first-shares', { fullPage: false });
      await hint.waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByRole('combobox', { name: 'Items per page' }).selectOption('0');
      await row('Bulk 29').waitFor();
      expect(await body(page).locator('[data-item-id]', { hasText: 'Bulk' }).count()).toBe(30);
      for (const name of ['Bulk 02', 'Bulk 27'])
        await row(name)
          .getByRole('img', { name: /Unverified share/ })
          .waitFor();
      expect(
        await body(page)
          .locator('[data-item-id]', { hasText: 'Bulk' })
          .getByRole('img', { name: /Unverified share/ })
          .count(),
      ).toBe(2);
      // The first page of the list, then the whole of it (docs/web-files.md "Opening a large folder").
      expect(asked.slice(0, 2)).toEqual(['20', '1000']);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      for (const folder of folders) await apiRevokeUser(owner, folder, recipientKeys);
    },
    SLOW,
  );
});
