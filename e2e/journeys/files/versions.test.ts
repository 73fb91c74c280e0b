/**
 * File versions in the browser (issue 25 part 2, docs/web-files.md "Versions"). A file uploaded in
 * Chromium is replaced three times: twice through the duplicate-name question's Replace and once
 * through "Upload new version" (sent in parts, over one part's size). Info then lists four
 * entries, the current one first; each downloads decrypted, byte for byte as it was uploaded.
 * Restoring the first makes it current and keeps the others; deleting one frees its bytes. After
 * every step the account's usedSpace equals what it stores (tree, trash and versions:
 * docs/protocol.md "Quota"), and a share and a link made before the first replace serve the
 * newest content. Screenshots of the list at 375 and 1280 px, light and dark, with the axe check.
 * An editor's new version reaches the owner's open list live, and only the owner may delete one;
 * each entry previews its own content;
 * a new version in parts that failed part-way resumes with only the missing parts.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import { createDecryptStream, fromBase64, unwrapItemKey } from '@sealbox/crypto';
import type { Locator, Page } from 'playwright-core';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import {
  apiCreateFolder,
  apiLogin,
  apiUploadFile,
  apiUserWithFolder,
  folderLink,
  openFolder,
  ok,
  type ApiFolder,
  type ApiSession,
} from '../../support/files.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { apiCreateLink, apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { closeTransfers, pickFiles, pseudoRandom, sameBytes, waitForSummary } from '../../support/transfers.ts';

const SLOW = 300_000;
const suite = browserSuite({ timeoutMs: SLOW });
const NAME = 'report.bin';
const UPLOADED_ONE = '1 file uploaded successfully!';

/** What each upload sent: the first, two Replaces, and one over a part's size (sent in parts). */
const CONTENTS = [
  pseudoRandom(1_000, 1),
  pseudoRandom(300_000, 2),
  pseudoRandom(9 * 1024 * 1024 + 123, 3),
  pseudoRandom(5_000, 4),
];

let alice: TestUser;
let session: ApiSession;
let docs: ApiFolder;
let bob: ApiSession;
let linkId: string;

async function api(path: string, as: ApiSession = session, init: RequestInit = {}): Promise<any> {
  return ok(await fetch(`${as.baseUrl}${path}`, { ...init, headers: { cookie: as.cookie, ...init.headers } }), path);
}

interface Listed {
  id: string;
  size: number;
  isDirectory: boolean;
  fileNonce: string | null;
  encryptedKey: string;
  keyNonce: string;
}

/** usedSpace equals the bytes of every file in the tree, the trash and every kept version. */
async function expectQuotaExact(): Promise<number> {
  const [profile, listing, trash] = await Promise.all([
    api('/api/profile'),
    api('/api/file?depth=20&limit=2147483648&offset=0'),
    api('/api/trash?limit=1000'),
  ]);
  const files = (listing.files as Listed[]).filter((item) => !item.isDirectory);
  const versionBytes = await Promise.all(
    files.map(async (file) =>
      ((await api(`/api/file/${file.id}/versions`)).versions as Array<{ size: number }>).reduce((sum, v) => sum + v.size, 0),
    ),
  );
  const inTree = files.reduce((sum, file) => sum + file.size, 0);
  expect(profile.reservedSpace).toBe(0);
  expect(profile.usedSpace).toBe(inTree + trash.bytes + versionBytes.reduce((a, b) => a + b, 0));
  return profile.usedSpace;
}

/**
 * The file as `query` (a share's or a link's view of Docs) lists it, decrypted with its K (wrapped
 * under the folder's key) and the nonce listed: what a recipient or a link holder opens.
 */
async function openedThrough(as: ApiSession | undefined, query: string): Promise<Uint8Array> {
  const headers: Record<string, string> = as ? { cookie: as.cookie } : {};
  const listing = await ok(
    await fetch(`${session.baseUrl}/api/file?id=${docs.id}&depth=1&limit=10&offset=0${query}`, { headers }),
    'listing',
  );
  const file = (listing.files as Listed[]).find((item) => !item.isDirectory)!;
  const key = await unwrapItemKey(docs.key, file.id, file.encryptedKey, file.keyNonce);
  const data = await fetch(`${session.baseUrl}/api/file/data/${file.id}${query.replace('&', '?')}`, { headers });
  expect(data.status).toBe(200);
  return new Uint8Array(
    await new Response(data.body!.pipeThrough(createDecryptStream(key, fromBase64(file.fileNonce!)))).arrayBuffer(),
  );
}

async function expectShareAndLinkServe(bytes: Uint8Array): Promise<void> {
  expect(sameBytes(await openedThrough(bob, ''), bytes)).toBe(true);
  expect(sameBytes(await openedThrough(undefined, `&linkId=${linkId}`), bytes)).toBe(true);
}

async function menuAction(page: Page, action: string, name = NAME) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

const fileOf = (i: number) => ({ name: NAME, mimeType: 'application/octet-stream', buffer: Buffer.from(CONTENTS[i]!) });

/** Picks version i under the same name and answers the duplicate question with Replace. */
async function replaceWith(page: Page, i: number) {
  // The upload dialog stays up until the question is answered.
  await page.getByRole('button', { name: 'Upload File' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload files' });
  await dialog.locator('input[type="file"][multiple]').setInputFiles([fileOf(i)]);
  const question = page.getByRole('dialog', { name: 'This name is already used' });
  await question.getByText('Replace keeps the old file as an earlier version', { exact: false }).waitFor();
  await question.getByRole('button', { name: 'Replace' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await uploaded(page);
}

async function uploaded(page: Page) {
  await waitForSummary(page, UPLOADED_ONE, 120_000);
  await closeTransfers(page);
}

async function openInfo(page: Page, name = NAME): Promise<{ info: Locator; entries: Locator }> {
  await menuAction(page, 'Info', name);
  const info = page.getByRole('dialog', { name: 'File info' });
  const entries = info.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  return { info, entries };
}

/** Downloads entry `n` of Info's list and answers the bytes saved. */
async function downloadEntry(page: Page, entries: Locator, n: number): Promise<Uint8Array> {
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await entries.nth(n).getByRole('button', { name: 'Download' }).click();
  const got = await started;
  expect(await got.failure()).toBeNull();
  return new Uint8Array(await readFile(await got.path()));
}

/** The entries' sizes as shown, to tell which content each is. */
const sizesShown = async (entries: Locator) =>
  (await entries.locator('.versions__meta').allTextContents()).map((text) => text.split(' · ')[0]);

describe.skipIf(skipWithoutBrowser)('versions', () => {
  beforeAll(async () => {
    ({ user: alice, session, folder: docs } = await apiUserWithFolder(suite.server.url, 'Docs'));
    const bobUser = await createUser(suite.server.url);
    bob = await apiLogin(suite.server.url, bobUser);
    await apiShareWithUser(session, docs, await publicUser(session, bob.userId), false);
    linkId = await apiCreateLink(session, docs.id);
  }, SLOW);

  test(
    'replaced three times: four versions, each byte for byte; restore, delete; quota, share and link follow',
    async () => {
      const page = await suite.signedIn(alice, { expectHttpErrors: [] });
      await openFolder(page, 'Docs');
      await pickFiles(page, [fileOf(0)]);
      await uploaded(page);
      await expectQuotaExact();
      await expectShareAndLinkServe(CONTENTS[0]!);

      // Twice through the duplicate question, once through the menu (in parts), once more the question.
      await replaceWith(page, 1);
      await expectQuotaExact();
      const chooser = page.waitForEvent('filechooser');
      await menuAction(page, 'Upload new version');
      await (await chooser).setFiles(fileOf(2));
      await uploaded(page);
      await expectQuotaExact();
      await replaceWith(page, 3);
      await expectQuotaExact();
      await expectShareAndLinkServe(CONTENTS[3]!);
      // Still one file of that name: each upload became a version of it.
      await expect(page.locator('.browser__body').getByRole('button', { name: NAME, exact: true }).count()).resolves.toBe(1);

      const { info, entries } = await openInfo(page);
      await entries.nth(3).waitFor();
      expect(await entries.count()).toBe(4);
      await entries.first().getByText('Current', { exact: true }).waitFor();
      expect(await sizesShown(entries)).toEqual(['4.9 KiB', '9.0 MiB', '293 KiB', '1000 B']);
      expect(await checkA11y(page, 'file versions')).toBe('');
      await saveScreenshots(page, 'file-versions', { fullPage: false, centre: info.locator('.versions') });

      // Newest first: entry n is CONTENTS[3 - n].
      for (let n = 0; n < 4; n++) expect(sameBytes(await downloadEntry(page, entries, n), CONTENTS[3 - n]!)).toBe(true);

      // Restore the first upload: it becomes current, the other three stay as versions.
      const used = await expectQuotaExact();
      await entries.nth(3).getByRole('button', { name: 'Restore' }).click();
      const restore = page.getByRole('dialog', { name: 'Restore this version?' });
      await restore.getByText('What is current now is kept as an earlier version.', { exact: false }).waitFor();
      await restore.getByRole('button', { name: 'Restore' }).click();
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByText(/^Restored the version of /)
        .waitFor();
      await page.waitForFunction(
        () => document.querySelector('[aria-label="Versions"] li .versions__meta')?.textContent?.startsWith('1000 B'),
        undefined,
        { timeout: 15_000 },
      );
      expect(await entries.count()).toBe(4);
      expect(await sizesShown(entries)).toEqual(['1000 B', '4.9 KiB', '9.0 MiB', '293 KiB']);
      expect(sameBytes(await downloadEntry(page, entries, 0), CONTENTS[0]!)).toBe(true);
      expect(await expectQuotaExact()).toBe(used);
      await expectShareAndLinkServe(CONTENTS[0]!);

      // Delete the oldest version (the second upload): its bytes are freed.
      const versions = (
        await api(`/api/file/${(await api(`/api/file?id=${docs.id}&depth=1&limit=10&offset=0`)).files[0].id}/versions`)
      ).versions as Array<{ size: number }>;
      const freed = versions.at(-1)!.size;
      await entries.nth(3).getByRole('button', { name: 'Delete' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete this version?' });
      await remove.getByText('will be deleted permanently. This cannot be undone.', { exact: false }).waitFor();
      await remove.getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByText(/^Deleted the version of /)
        .waitFor();
      await entries.nth(3).waitFor({ state: 'detached' });
      expect(await sizesShown(entries)).toEqual(['1000 B', '4.9 KiB', '9.0 MiB']);
      expect(await expectQuotaExact()).toBe(used - freed);
      await info.getByRole('button', { name: 'Close' }).first().click();
      await info.waitFor({ state: 'detached' });
    },
    SLOW,
  );

  test(
    "an editor's new version shows live in the owner's open Info, named; only the owner deletes",
    async () => {
      const team = await apiCreateFolder(session, null, 'Team');
      await apiUploadFile(session, team, 'plan.txt', new TextEncoder().encode('the plan, first draft'));
      const carolUser = await createUser(suite.server.url);
      const carol = await apiLogin(suite.server.url, carolUser);
      await apiShareWithUser(session, team, await publicUser(session, carol.userId), true);

      const owner = await suite.signedIn(alice, { expectHttpErrors: [] });
      await folderLink(owner, 'Team').click();
      const { entries } = await openInfo(owner, 'plan.txt');
      await entries.first().waitFor();
      expect(await entries.count()).toBe(1);

      const editor = await suite.signedIn(carolUser, { expectHttpErrors: [] });
      await editor.locator('#files-sidebar').getByRole('link', { name: 'Shared with me' }).click();
      await folderLink(editor, 'Team').click();
      const chooser = editor.waitForEvent('filechooser');
      await menuAction(editor, 'Upload new version', 'plan.txt');
      await (await chooser).setFiles({
        name: 'draft-2.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('the plan, second draft'),
      });
      await uploaded(editor);

      // The owner's open list follows live (item.versions), the new content named by its uploader.
      await entries.nth(1).waitFor({ timeout: 15_000 });
      await entries.first().getByText(carolUser.username, { exact: true }).waitFor();
      await entries.nth(1).getByText(`${alice.username} (you)`, { exact: true }).waitFor();
      await entries.nth(1).getByRole('button', { name: 'Delete' }).waitFor();
      await expectQuotaExact();
      // A text file's entries offer Preview as well: all four buttons fit or wrap under the facts.
      await entries.nth(1).getByRole('button', { name: 'Preview' }).waitFor();
      await saveScreenshots(owner, 'file-versions-preview', {
        fullPage: false,
        centre: owner.getByRole('dialog', { name: 'File info' }).locator('.versions'),
      });

      // The editor restores and downloads but does not delete.
      const { entries: theirs } = await openInfo(editor, 'plan.txt');
      await theirs.nth(1).getByRole('button', { name: 'Restore' }).waitFor();
      expect(await theirs.nth(1).getByRole('button', { name: 'Delete' }).count()).toBe(0);
      expect(new TextDecoder().decode(await downloadEntry(editor, theirs, 1))).toBe('the plan, first draft');

      // Each entry previews its own content, the earlier one said to be a version.
      const preview = editor.locator('dialog.preview');
      await theirs.nth(1).getByRole('button', { name: 'Preview' }).click();
      await preview.getByText('the plan, first draft').waitFor();
      await preview.getByText(/^Version of /).waitFor();
      expect(await checkA11y(editor, 'preview of an earlier version')).toBe('');
      await saveScreenshots(editor, 'version-preview', { fullPage: false });
      await preview.getByRole('button', { name: 'Close preview' }).click();
      await preview.waitFor({ state: 'detached' });
      await theirs.first().getByRole('button', { name: 'Preview' }).click();
      await preview.getByText('the plan, second draft').waitFor();
      await preview.getByText('Current version', { exact: true }).waitFor();
      await editor.keyboard.press('Escape');
      await preview.waitFor({ state: 'detached' });
      // Escape closed the previewer only: Info stays, its Preview button focused again.
      expect(
        await theirs
          .first()
          .getByRole('button', { name: 'Preview' })
          .evaluate((b) => b === document.activeElement),
      ).toBe(true);
    },
    SLOW,
  );

  test(
    'a new version in parts that failed part-way resumes: only the missing parts, and it stays a version',
    async () => {
      const big = await apiCreateFolder(session, null, 'Big');
      await apiUploadFile(session, big, 'big.bin', CONTENTS[0]!);
      const content = pseudoRandom(20 * 1024 * 1024, 5);
      const page = await suite.signedIn(alice, { expectHttpErrors: [{ status: 503, path: /\/api\/upload\/[^/]+\/part\/1$/ }] });
      await openFolder(page, 'Big');

      // Part 1 fails every time (a server error outlasts the worker's retries) until let through.
      let failing = true;
      const sent: number[] = [];
      await page.route('**/api/upload/*/part/*', async (route) => {
        const n = Number(route.request().url().split('/part/')[1]?.split('?')[0]);
        if (failing && n === 1) return route.fulfill({ status: 503, body: 'down' });
        if (!failing) sent.push(n);
        await route.continue();
      });
      const chooser = page.waitForEvent('filechooser');
      await menuAction(page, 'Upload new version', 'big.bin');
      await (await chooser).setFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(content) });
      await waitForSummary(page, '1 file failed to upload. Check errors below.', 120_000);

      failing = false;
      await page.getByRole('button', { name: 'Retry big.bin' }).click();
      await waitForSummary(page, UPLOADED_ONE, 120_000);
      await page.getByRole('region', { name: 'Transfers' }).getByText('Uploaded (resumed)').waitFor();
      expect(sent).toEqual([1]);
      await closeTransfers(page);
      await expectQuotaExact();

      const { entries } = await openInfo(page, 'big.bin');
      await entries.nth(1).waitFor();
      expect(await entries.count()).toBe(2);
      expect(sameBytes(await downloadEntry(page, entries, 0), content)).toBe(true);
      expect(sameBytes(await downloadEntry(page, entries, 1), CONTENTS[0]!)).toBe(true);
    },
    SLOW,
  );
});
