/**
 * Sharing between two people in two browsers (issue 12): alice shares a folder with bob through
 * her Share dialog; bob, with /shared open, sees it arrive live, finds it read-only, gets editor
 * rights live, uploads into it (alice's open folder shows the file live, on her quota) and loses
 * it live when alice revokes him. Then the server turns hostile under alice's browser: it swaps
 * bob's public keys in the search answer for mallory's, and the pin alice made on the first share
 * stops the share ('Keys changed'), so no key is wrapped for mallory unless alice accepts.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, uniqueName, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, signInToFiles, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { publicUser, type PublicUser } from '../../support/sharing.ts';
import { addWithChangedKeys, openShare, toastText } from '../../support/share-dialog.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, waitForSummary } from '../../support/transfers.ts';

const SLOW = 180_000;
const LIVE_MS = 10_000;
const suite = browserSuite({ timeoutMs: SLOW });

let alice: TestUser;
let bob: TestUser;
let mallory: PublicUser;
let owner: ApiSession;
let project: ApiFolder;
let second: ApiFolder;

const body = (page: Page) => page.locator('.browser__body');

async function accessOf(item: ApiFolder): Promise<Array<{ userId: string; editPermission: boolean }>> {
  const response = await fetch(`${owner.baseUrl}/api/shared/${item.id}/users`, { headers: { cookie: owner.cookie } });
  return ((await response.json()) as { access: Array<{ userId: string; editPermission: boolean }> }).access;
}

describe.skipIf(skipWithoutBrowser)('sharing between two browsers', () => {
  beforeAll(async () => {
    alice = await createUser(suite.server.url, { username: uniqueName('alice') });
    bob = await createUser(suite.server.url, { username: uniqueName('bob') });
    const malloryUser = await createUser(suite.server.url, { username: uniqueName('mallory') });
    owner = await apiLogin(suite.server.url, alice);
    mallory = await publicUser(owner, malloryUser.id);
    project = await apiCreateFolder(owner, null, 'Project');
    second = await apiCreateFolder(owner, null, 'Second');
  }, SLOW);

  test(
    'alice shares with bob as viewer, makes him editor, bob uploads, alice revokes: each seen live by the other',
    async () => {
      const bobPage = await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: '/api/file' }] });
      await loginViaUi(bobPage, suite.server.url, bob);
      await bobPage.locator('#files-sidebar').getByRole('link', { name: 'Shared with me' }).click();
      await body(bobPage).getByText('No files have been shared with you yet').waitFor();

      const alicePage = await signInToFiles(await suite.newBrowser(), suite.server.url, alice);
      const dialog = await openShare(alicePage, 'Project');
      await dialog.getByLabel('Add people').fill(bob.username.slice(0, 4));
      await dialog.getByRole('button', { name: `Add ${bob.username} as viewer` }).click();
      await toastText(alicePage, `Shared with ${bob.username}`).waitFor();

      const shared = body(bobPage).getByRole('button', { name: 'Project', exact: true });
      await shared.waitFor({ timeout: LIVE_MS });
      await shared.click();
      await bobPage.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Project').first().waitFor();
      const upload = bobPage.getByRole('button', { name: 'Upload File' });
      expect(await upload.count()).toBe(0);

      const people = dialog.getByRole('list', { name: 'People with access' });
      await people.getByLabel(`Permission for ${bob.username}`).selectOption('editor');
      await toastText(alicePage, `${bob.username} is now an editor`).waitFor();
      await bobPage.waitForFunction(
        () => document.querySelector<HTMLButtonElement>('.browser__header button')?.disabled === false,
        undefined,
        { timeout: LIVE_MS },
      );

      // alice looks into the folder while bob uploads into it.
      await alicePage.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await body(alicePage).getByRole('button', { name: 'Project', exact: true }).click();
      await body(alicePage).getByText('No files found').waitFor();
      await pickFiles(bobPage, { name: 'from-bob.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from bob\n') });
      await waitForSummary(bobPage, '1 file uploaded successfully!');
      const row = body(alicePage).locator('[data-item-id]', { hasText: 'from-bob.txt' });
      await row.waitFor({ timeout: LIVE_MS });
      await saveScreenshot(alicePage, 'sharing-journey-owner-sees-upload-1280-light');

      // Revoked from the dialog: bob's open folder says it is no longer his, and back, his list is empty again.
      await alicePage.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Home').first().click();
      const again = await openShare(alicePage, 'Project');
      await again.getByRole('button', { name: `Revoke access for ${bob.username}` }).click();
      await toastText(alicePage, `Access removed for ${bob.username}`).waitFor();
      await body(bobPage).getByText('You do not have access to this folder.').waitFor({ timeout: LIVE_MS });
      await body(bobPage).getByRole('button', { name: 'Back to Files Shared with Me' }).click();
      await body(bobPage).getByText('No files have been shared with you yet').waitFor({ timeout: LIVE_MS });
      expect(await accessOf(project)).toEqual([]);
    },
    SLOW,
  );

  test(
    "a server that swaps bob's keys for mallory's while alice shares is stopped by alice's pin",
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, alice);
      // The hostile server: bob's entry in the search answer carries mallory's public keys.
      await page.route('**/api/users/search/**', async (route) => {
        const response = await route.fetch();
        const users = (await response.json()) as PublicUser[];
        const swapped = users.map((user) =>
          user.id === bob.id ? { ...user, publicKey: mallory.publicKey, signingPublicKey: mallory.signingPublicKey } : user,
        );
        await route.fulfill({ response, json: swapped });
      });
      const dialog = await openShare(page, 'Second');
      const warning = await addWithChangedKeys(dialog, bob.username);
      await warning.getByRole('button', { name: 'Cancel' }).click();
      await warning.waitFor({ state: 'detached' });
      expect(await accessOf(second)).toEqual([]);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    },
    SLOW,
  );
});
