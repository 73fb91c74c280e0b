/**
 * The trash (issue 25, docs/web-files.md "Trash"). A folder of 1,000 files, linked, is deleted in
 * Chromium: the confirmation says it goes to the trash, the link stops at once, the space stays
 * counted and the meter says how much the trash holds. /trash lists it with where it was; Restore
 * puts it back with every name, size and byte as before, and the link works again. An editor's
 * delete in a shared folder arrives live in the owner's open trash. A restore into a folder where
 * the name is taken asks, and Keep both gives a numbered name. Delete forever and Empty trash free
 * the space. After every step the account's usedSpace equals the bytes of everything it stores
 * (the tree and the trash). Screenshots at 375 and 1280 px, light and dark, with the axe check.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import {
  apiCreateFolder,
  apiLogin,
  apiUploadFile,
  apiUserWithFolder,
  folderLink,
  ok,
  type ApiFolder,
  type ApiSession,
} from '../../support/files.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { apiCreateLink, apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, waitForSummary } from '../../support/transfers.ts';
import { toast } from '../accounts/pages.ts';

const SLOW = 300_000;
const suite = browserSuite({ timeoutMs: SLOW });
const FILES = 1000;
const UPLOADED_ONE = '1 file uploaded successfully!';

let alice: TestUser;
let session: ApiSession;
let project: ApiFolder;
let shared: ApiFolder;
let linkId: string;
let bob: ApiSession;
let bobName: string;
let bobsTarget: ApiFolder;

const body = (page: Page) => page.locator('.browser__body');
const row = (page: Page, name: string) => body(page).locator('tr', { has: page.getByRole('button', { name, exact: true }) });

async function api(path: string, init: RequestInit = {}, as: ApiSession = session): Promise<any> {
  return ok(await fetch(`${as.baseUrl}${path}`, { ...init, headers: { cookie: as.cookie, ...init.headers } }), path);
}

interface Stored {
  id: string;
  parentId: string | null;
  size: number;
  isDirectory: boolean;
  encryptedFileName: string;
}

/** Everything in the tree (as the owner lists it), by id. */
async function tree(): Promise<Map<string, Stored>> {
  const listing = await api('/api/file?depth=20&limit=2147483648&offset=0');
  return new Map((listing.files as Stored[]).map((item) => [item.id, item]));
}

/** usedSpace equals the bytes of every file in the tree plus what the trash holds. */
async function expectQuotaExact(): Promise<number> {
  const [profile, items, trash] = await Promise.all([api('/api/profile'), tree(), api('/api/trash?limit=1000')]);
  const inTree = [...items.values()].reduce((sum, item) => sum + (item.isDirectory ? 0 : item.size), 0);
  expect(profile.reservedSpace).toBe(0);
  expect(profile.usedSpace).toBe(inTree + trash.bytes);
  return profile.usedSpace;
}

/** The SHA-256 of each file's stored ciphertext under `folder`, by id. */
async function contents(folder: ApiFolder): Promise<Map<string, string>> {
  const listing = await api(`/api/file?id=${folder.id}&depth=1&limit=2147483648&offset=0`);
  const out = new Map<string, string>();
  for (const item of listing.files as Stored[]) {
    const bytes = await (
      await fetch(`${session.baseUrl}/api/file/data/${item.id}`, { headers: { cookie: session.cookie } })
    ).arrayBuffer();
    out.set(`${item.id}:${item.encryptedFileName}:${item.size}`, new Bun.CryptoHasher('sha256').update(bytes).digest('hex'));
  }
  return out;
}

const linkStatus = async () => (await fetch(`${session.baseUrl}/api/file?linkId=${linkId}&depth=1&limit=10&offset=0`)).status;

async function openTrash(page: Page) {
  await page.getByRole('complementary', { name: 'Files' }).getByRole('link', { name: 'Trash', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();
}

async function openMyFiles(page: Page) {
  await page.getByRole('complementary', { name: 'Files' }).getByRole('link', { name: 'My Files' }).click();
  await page.getByRole('heading', { level: 1, name: 'My Files' }).waitFor();
}

async function menuAction(page: Page, name: string, action: string) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe.skipIf(skipWithoutBrowser)('trash', () => {
  beforeAll(async () => {
    ({ user: alice, session, folder: project } = await apiUserWithFolder(suite.server.url, 'Project'));
    // 1,000 files of different sizes, a few at a time.
    const queue = Array.from({ length: FILES }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
          const content = crypto.getRandomValues(new Uint8Array(50 + ((i * 37) % 900)));
          await apiUploadFile(session, project, `file-${String(i).padStart(4, '0')}.bin`, content);
        }
      }),
    );
    linkId = await apiCreateLink(session, project.id);
    shared = await apiCreateFolder(session, null, 'Shared');
    bobsTarget = await apiUploadFile(session, shared, 'bob-deletes.txt', new TextEncoder().encode('an editor deletes this'));
    const bobUser = await createUser(suite.server.url);
    bob = await apiLogin(suite.server.url, bobUser);
    bobName = bobUser.username;
    await apiShareWithUser(session, shared, await publicUser(session, bob.userId), true);
  }, SLOW);

  test(
    'a folder of 1,000 files deleted, restored byte for byte with its link; an editor delete lands here live',
    async () => {
      const before = await contents(project);
      expect(before.size).toBe(FILES);
      const used = await expectQuotaExact();
      expect(await linkStatus()).toBe(200);

      const page = await suite.signedIn(alice, { expectHttpErrors: [] });
      await menuAction(page, 'Project', 'Delete');
      const dialog = page.getByRole('dialog', { name: 'Delete folder?' });
      await dialog
        .getByText('will be moved to the trash, with everything inside it. You can restore it from there for 30 days.', {
          exact: false,
        })
        .waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Moved Project to the trash').waitFor({ timeout: 30_000 });
      await folderLink(page, 'Project').waitFor({ state: 'detached' });
      // Hidden at once from the link, still counted on the quota, and the meter says where.
      expect(await linkStatus()).toBe(404);
      expect(await expectQuotaExact()).toBe(used);
      await page
        .locator('.storage')
        .getByRole('link', { name: /in the trash$/ })
        .waitFor();

      await openTrash(page);
      await row(page, 'Project').getByText('My Files', { exact: true }).waitFor();
      await page.getByRole('list', { name: 'About the trash' }).getByText('Deleted for good after 30 days').waitFor();
      expect(await checkA11y(page, 'trash')).toBe('');
      await saveScreenshots(page, 'trash', { fullPage: false });

      // The editor's delete in the shared folder goes to the owner's trash, shown here live.
      await ok(
        await fetch(`${bob.baseUrl}/api/file/${bobsTarget.id}`, { method: 'DELETE', headers: { cookie: bob.cookie } }),
        'bob deletes',
      );
      await row(page, 'bob-deletes.txt').getByText('My Files / Shared', { exact: true }).waitFor({ timeout: 15_000 });
      await expectQuotaExact();
      await menuAction(page, 'bob-deletes.txt', 'Info');
      const info = page.getByRole('dialog', { name: 'File info' });
      await info.locator('.info-list__row', { hasText: 'Deleted by' }).getByText(bobName, { exact: true }).waitFor();
      await info
        .locator('.info-list__row', { hasText: 'Deleted from' })
        .getByText('My Files / Shared', { exact: true })
        .waitFor();
      await info.getByRole('button', { name: 'Close' }).first().click();
      await info.waitFor({ state: 'detached' });

      // Restore the folder: where it was, as it was, and its link works again.
      await menuAction(page, 'Project', 'Restore');
      await toast(page, 'Restored Project.').waitFor({ timeout: 30_000 });
      await row(page, 'Project').waitFor({ state: 'detached' });
      expect(await contents(project)).toEqual(before);
      expect(await linkStatus()).toBe(200);
      expect(await expectQuotaExact()).toBe(used);
      await openMyFiles(page);
      await folderLink(page, 'Project').click();
      await page.getByText(`${FILES} items`, { exact: true }).waitFor({ timeout: 30_000 });
    },
    SLOW,
  );

  test(
    'a taken name asks on restore; Delete forever and Empty trash free the space',
    async () => {
      const page = await suite.signedIn(alice, { expectHttpErrors: [] });
      // notes.txt deleted, then a new notes.txt uploaded where it was.
      await pickFiles(page, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('the old notes') }]);
      await waitForSummary(page, UPLOADED_ONE);
      await body(page).getByRole('button', { name: 'notes.txt', exact: true }).waitFor();
      await menuAction(page, 'notes.txt', 'Delete');
      await page.getByRole('dialog', { name: 'Delete file?' }).getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Moved notes.txt to the trash').waitFor({ timeout: 30_000 });
      await pickFiles(page, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('the new notes') }]);
      await waitForSummary(page, 'All 2 files uploaded successfully!');
      await body(page).getByRole('button', { name: 'notes.txt', exact: true }).waitFor();
      await expectQuotaExact();

      await openTrash(page);
      await menuAction(page, 'notes.txt', 'Restore');
      const question = page.getByRole('dialog', { name: 'This name is already used' });
      await question.getByText('Keep both restores it under a numbered name. Skip leaves it in the trash.').waitFor();
      await question.getByRole('button', { name: 'Keep both' }).click();
      await toast(page, 'Restored notes.txt.').waitFor({ timeout: 30_000 });
      await openMyFiles(page);
      await body(page).getByRole('button', { name: 'notes (1).txt', exact: true }).waitFor();
      await body(page).getByRole('button', { name: 'notes.txt', exact: true }).waitFor();
      await expectQuotaExact();

      // Delete forever from the selection bar, with its own confirmation.
      await menuAction(page, 'notes (1).txt', 'Delete');
      await page.getByRole('dialog', { name: 'Delete file?' }).getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Moved notes (1).txt to the trash').waitFor({ timeout: 30_000 });
      await openTrash(page);
      await page.getByRole('checkbox', { name: 'Select notes (1).txt' }).check();
      await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Delete forever' }).click();
      const forever = page.getByRole('dialog', { name: 'Delete file forever?' });
      await forever.getByText('will be deleted permanently. This cannot be undone.', { exact: false }).waitFor();
      await forever.getByRole('button', { name: 'Delete forever' }).click();
      await toast(page, 'Deleted notes (1).txt forever').waitFor({ timeout: 30_000 });
      await row(page, 'notes (1).txt').waitFor({ state: 'detached' });
      await expectQuotaExact();

      // A file whose folder went to the trash after it: restored to the top of My Files.
      const old = await apiCreateFolder(session, null, 'Old');
      const inside = await apiUploadFile(session, old, 'inside.txt', new TextEncoder().encode('kept'));
      await api(`/api/file/${inside.id}`, { method: 'DELETE' });
      await api(`/api/file/${old.id}`, { method: 'DELETE' });
      await row(page, 'Old').waitFor({ timeout: 15_000 });
      await menuAction(page, 'inside.txt', 'Restore');
      await toast(page, 'Restored inside.txt. 1 item went to My Files: the folder was gone.').waitFor({ timeout: 30_000 });
      expect((await tree()).get(inside.id)?.parentId).toBeNull();
      await expectQuotaExact();

      // Empty trash: what is left there goes, and the space with it.
      const beforeEmpty = await expectQuotaExact();
      const trashBytes = (await api('/api/trash?limit=1000')).bytes as number;
      expect(trashBytes).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Empty trash' }).click();
      const confirm = page.getByRole('dialog', { name: 'Empty the trash?' });
      await confirm.getByRole('button', { name: 'Empty trash' }).click();
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByText(/^Emptied the trash: \d+ items? deleted for good$/)
        .waitFor({ timeout: 30_000 });
      await body(page).getByText('The trash is empty. Deleted items stay here for 30 days.').waitFor();
      expect(await expectQuotaExact()).toBe(beforeEmpty - trashBytes);
      expect(await checkA11y(page, 'empty trash')).toBe('');
      await saveScreenshots(page, 'trash-empty', { fullPage: false });
    },
    SLOW,
  );
});
