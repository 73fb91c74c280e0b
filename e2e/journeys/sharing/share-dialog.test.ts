/**
 * The owner's Share dialog (docs/product.md "Screens" (Dialogs), "Roles", "Messages" and "Limits")
 * in Chromium through the real server: the owner opens Share on a folder, searches people (2
 * characters send nothing, 3 do), adds bob as viewer (his fingerprint shown, the same the crypto
 * package computes), switches him to editor and revokes him; then creates a link expiring in 2 days
 * with a password, copies its URL, opens it in an anonymous browser (password prompt), removes the
 * password (the link opens at once) and revokes it (the link then fails). After each step the
 * server's own lists (GET /api/shared/{id}/users and /links) say it happened, and every grant it
 * stores verifies under the owner's signing key. Screenshots of both tabs at 375 and 1280 px, light
 * and dark.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { fingerprint, formatFingerprint, openPins, sealPins, toBase64Url, verifyGrant } from '@sealbox/crypto';
import { createUser, uniqueName, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, signInToFiles, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { addWithChangedKeys, openShare, toastText } from '../../support/share-dialog.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { linkPageHeading } from '../../support/sharing.ts';

const SLOW = 180_000;
const PASSWORD = 'a link password';
const suite = browserSuite({ timeoutMs: SLOW });

interface PublicUser {
  id: string;
  username: string;
  publicKey: string;
  signingPublicKey: string;
}
interface AccessView {
  userId: string;
  itemId: string;
  editPermission: boolean;
  encryptedKey: string;
  signature: string;
  sharerId: string;
}
interface LinkView {
  linkId: string;
  itemId: string;
  editPermission: boolean;
  expiresAt: number | null;
  passwordProtected: boolean;
}

let alice: TestUser;
let bob: TestUser;
let owner: ApiSession;
let holiday: ApiFolder;
let shots: ApiFolder;
let trust: ApiFolder;

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${owner.baseUrl}${path}`, { headers: { cookie: owner.cookie } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
const accessOf = (item: ApiFolder) => get<{ access: AccessView[]; users: PublicUser[] }>(`/api/shared/${item.id}/users`);
const linksOf = (item: ApiFolder) => get<LinkView[]>(`/api/shared/${item.id}/links`);
const userOf = (id: string) => get<PublicUser>(`/api/user/${id}`);

/** The stored grant verifies under the owner's signing key, for this recipient, item and role. */
async function grantVerifies(entry: AccessView, item: ApiFolder): Promise<boolean> {
  const sharer = await userOf(owner.userId);
  return verifyGrant(
    sharer.signingPublicKey,
    {
      sharerId: owner.userId,
      recipientId: entry.userId,
      itemId: item.id,
      encryptedKey: entry.encryptedKey,
      edit: entry.editPermission,
    },
    entry.signature,
  ).then(
    () => true,
    () => false,
  );
}

/** Whether `check` holds within `ms` (checked every 50 ms). */
async function until(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(50)) if (await check()) return true;
  return check();
}

describe.skipIf(skipWithoutBrowser)('the Share dialog', () => {
  beforeAll(async () => {
    alice = await createUser(suite.server.url, { username: uniqueName('alice') });
    bob = await createUser(suite.server.url, { username: uniqueName('bob') });
    owner = await apiLogin(suite.server.url, alice);
    holiday = await apiCreateFolder(owner, null, 'Holiday');
    await apiUploadFile(owner, holiday, 'notes.txt', new TextEncoder().encode('nine at the harbour\n'), 'text/plain');
    shots = await apiCreateFolder(owner, null, 'Screens');
    trust = await apiCreateFolder(owner, null, 'Trust');
  }, SLOW);

  test(
    'users: 2 characters send no search, 3 do; add bob as viewer, switch to editor, revoke; the server agrees at each step',
    async () => {
      const page = await suite.newBrowser();
      // The share dialog's searches (the login page's own lookup asks limit=1).
      const searches: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/users/search/') && url.searchParams.get('limit') !== '1')
          searches.push(decodeURIComponent(url.pathname.slice('/api/users/search/'.length)));
      });
      await signInToFiles(page, suite.server.url, alice);
      const dialog = await openShare(page, 'Holiday');
      expect(await dialog.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true');

      const field = dialog.getByLabel('Add people');
      await field.fill(bob.username.slice(0, 2));
      await dialog.getByText('Type at least 3 characters to search.').waitFor();
      await page.waitForTimeout(700);
      expect(searches).toEqual([]);

      await field.fill(bob.username.slice(0, 3));
      const results = dialog.getByRole('list', { name: 'Search results' });
      const bobRow = results.getByRole('listitem').filter({ hasText: bob.username });
      await bobRow.waitFor();
      expect(searches).toEqual([bob.username.slice(0, 3)]);
      // Never the owner herself, and what is shown is bob's real fingerprint.
      expect(await results.getByText(alice.username).count()).toBe(0);
      const bobKeys = await userOf(bob.id);
      const expected = formatFingerprint(await fingerprint(bobKeys.publicKey, bobKeys.signingPublicKey));
      await bobRow.getByText('New: pinned when you share').waitFor();
      // The hex waits for Verify, with what to compare it with.
      expect(await bobRow.locator('.share-fp').count()).toBe(0);
      await bobRow.getByRole('button', { name: `Verify ${bob.username}'s keys` }).click();
      await bobRow
        .getByText(`Compare it with the Key fingerprint ${bob.username} sees in their Profile`, { exact: false })
        .waitFor();
      await bobRow.locator('.share-fp').getByText(expected, { exact: true }).waitFor();
      await dialog.getByText('Viewers can open and download everything in it.').waitFor();

      await bobRow.getByRole('button', { name: `Add ${bob.username} as viewer` }).click();
      await toastText(page, `Shared with ${bob.username}`).waitFor();
      const people = dialog.getByRole('list', { name: 'People with access' });
      const bobEntry = people.getByRole('listitem').filter({ hasText: bob.username });
      await bobEntry.getByText('Matches the pinned keys').waitFor();
      await bobEntry.getByRole('button', { name: `Verify ${bob.username}'s keys` }).click();
      await bobEntry.locator('.share-fp').getByText(expected, { exact: true }).waitFor();
      let listed = await accessOf(holiday);
      expect(listed.access.map((a) => [a.userId, a.editPermission, a.sharerId])).toEqual([[bob.id, false, alice.id]]);
      expect(await grantVerifies(listed.access[0]!, holiday)).toBe(true);

      await bobEntry.getByLabel(`Permission for ${bob.username}`).selectOption('editor');
      await toastText(page, `${bob.username} is now an editor`).waitFor();
      listed = await accessOf(holiday);
      expect(listed.access.map((a) => [a.userId, a.editPermission])).toEqual([[bob.id, true]]);
      expect(await grantVerifies(listed.access[0]!, holiday)).toBe(true);
      expect(
        await until(async () => (await bobEntry.getByLabel(`Permission for ${bob.username}`).inputValue()) === 'editor'),
      ).toBe(true);

      await bobEntry.getByRole('button', { name: `Revoke access for ${bob.username}` }).click();
      await toastText(page, `Access removed for ${bob.username}`).waitFor();
      await dialog.getByText('Only you can open this folder.').waitFor();
      expect((await accessOf(holiday)).access).toEqual([]);
    },
    SLOW,
  );

  test(
    'links: create with 2 days and a password, copy, the prompt for a visitor, remove the password, revoke',
    async () => {
      const page = await suite.newBrowser();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
      await signInToFiles(page, suite.server.url, alice);
      const dialog = await openShare(page, 'Holiday');
      await dialog.getByRole('tab', { name: 'Links' }).click();
      await dialog.getByText('No active links').waitFor();

      const unit = dialog.getByLabel('Unit');
      const amount = dialog.getByLabel('Expires after');
      expect(await amount.inputValue()).toBe('1');
      await unit.selectOption('never');
      expect(await amount.isDisabled()).toBe(true);
      await unit.selectOption('days');
      await amount.fill('2');
      await dialog.getByLabel('Password (optional)').fill(PASSWORD);
      const before = Date.now();
      await dialog.getByRole('button', { name: 'Create link' }).click();
      await toastText(page, 'Link created').waitFor();
      const row = dialog.getByRole('listitem', { name: 'Link 1' });
      await row.getByText('Password protected').waitFor();
      await row.getByText(/^Expires /).waitFor();

      let links = await linksOf(holiday);
      expect(links).toHaveLength(1);
      const link = links[0]!;
      expect(link.passwordProtected).toBe(true);
      expect(link.editPermission).toBe(false);
      expect(link.expiresAt! - before).toBeGreaterThan(2 * 86_400_000 - 60_000);
      expect(link.expiresAt! - Date.now()).toBeLessThanOrEqual(2 * 86_400_000);

      await row.getByRole('button', { name: 'Copy Link 1' }).click();
      await toastText(page, 'Link copied').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(`${suite.server.url}/share?linkId=${link.linkId}#${toBase64Url(holiday.key)}`);

      const visitor = await suite.newBrowser({
        expectHttpErrors: [
          { status: 401, path: `/api/shared/${link.linkId}` },
          { status: 404, path: `/api/shared/${link.linkId}` },
          { status: 404, path: '/api/file' },
        ],
      });
      await visitor.goto(copied);
      await visitor.getByLabel('This link requires a password to access:').waitFor();

      await row.getByRole('button', { name: 'Remove password' }).click();
      await toastText(page, 'Password removed').waitFor();
      await row.getByText('Password protected').waitFor({ state: 'detached' });
      links = await linksOf(holiday);
      expect(links.map((l) => [l.linkId, l.passwordProtected])).toEqual([[link.linkId, false]]);
      await visitor.reload();
      await linkPageHeading(visitor).waitFor();
      await visitor.locator('.browser__body').getByText('notes.txt').first().waitFor();

      // A password again (set), then the viewer/editor switch.
      await row.getByRole('button', { name: 'Set password' }).click();
      await row.getByLabel('New password for Link 1').fill('another password');
      await row.getByRole('button', { name: 'Save' }).click();
      await toastText(page, 'Password set').waitFor();
      await row.getByText('Password protected').waitFor();
      await row.getByLabel('Permission for Link 1').selectOption('editor');
      await toastText(page, 'Link 1 is now editor').waitFor();
      links = await linksOf(holiday);
      expect(links.map((l) => [l.passwordProtected, l.editPermission])).toEqual([[true, true]]);

      await row.getByRole('button', { name: 'Revoke Link 1' }).click();
      await toastText(page, 'Link revoked').waitFor();
      await dialog.getByText('No active links').waitFor();
      expect(await linksOf(holiday)).toEqual([]);
      await visitor.reload();
      await visitor.getByText('Error retrieving files.').first().waitFor();
      expect(await linkPageHeading(visitor).count()).toBe(0);
    },
    SLOW,
  );

  test(
    "changed keys: the 'Keys changed' step shows both fingerprints; trusting pins the new keys and shares",
    async () => {
      // Alice's pins (sealed under her root key, as her browser keeps them) say bob had other keys.
      const stored = await get<{ sealed: string | null; nonce: string | null; version: number }>('/api/profile/pins');
      const pins = stored.sealed && stored.nonce ? await openPins(owner.rootKey, alice.id, stored.sealed, stored.nonce) : {};
      const stale = 'ab'.repeat(32);
      const put = await fetch(`${owner.baseUrl}/api/profile/pins`, {
        method: 'PUT',
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          ...(await sealPins(owner.rootKey, alice.id, { ...pins, [bob.id]: stale })),
          version: stored.version,
        }),
      });
      expect(put.ok).toBe(true);
      const bobKeys = await userOf(bob.id);
      const realHex = await fingerprint(bobKeys.publicKey, bobKeys.signingPublicKey);

      const page = await suite.newBrowser();
      await signInToFiles(page, suite.server.url, alice);
      const dialog = await openShare(page, 'Trust');
      const warning = await addWithChangedKeys(dialog, bob.username);
      await warning.locator('.share-fp').getByText(formatFingerprint(stale), { exact: true }).waitFor();
      await warning.locator('.share-fp').getByText(formatFingerprint(realHex), { exact: true }).waitFor();
      await saveScreenshot(page, 'share-dialog-keys-changed-1280-light', { fullPage: false });
      expect((await accessOf(trust)).access).toEqual([]);

      await warning.getByRole('button', { name: 'Trust the new keys' }).click();
      await toastText(page, `Shared with ${bob.username}`).waitFor();
      const listed = await accessOf(trust);
      expect(listed.access.map((a) => [a.userId, a.editPermission])).toEqual([[bob.id, false]]);
      expect(await grantVerifies(listed.access[0]!, trust)).toBe(true);
      const after = await get<{ sealed: string; nonce: string }>('/api/profile/pins');
      expect((await openPins(owner.rootKey, alice.id, after.sealed, after.nonce))[bob.id]).toBe(realHex);
    },
    SLOW,
  );

  for (const width of [375, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(
        `screenshots of both tabs at ${width} px, ${scheme}`,
        async () => {
          const page = await suite.newBrowser({ width, height: width < 600 ? 812 : 800, colorScheme: scheme });
          await signInToFiles(page, suite.server.url, alice);
          // Something in both lists: bob with access, one link with a password.
          const dialog = await openShare(page, 'Screens');
          if ((await accessOf(shots)).access.length === 0) {
            await dialog.getByLabel('Add people').fill(bob.username.slice(0, 4));
            await dialog.getByRole('button', { name: `Add ${bob.username} as viewer` }).click();
            await toastText(page, `Shared with ${bob.username}`).waitFor();
          }
          await dialog.getByLabel('Add people').fill(bob.username.slice(0, 3));
          await dialog.getByRole('list', { name: 'Search results' }).getByText(bob.username).waitFor();
          await dialog.getByRole('list', { name: 'People with access' }).locator('.share-pin').first().waitFor();
          // One fingerprint shown by Verify, the other folded.
          const results = dialog.getByRole('list', { name: 'Search results' });
          await results.locator('.share-pin').first().waitFor();
          const verify = results.getByRole('button', { name: /^Verify / }).first();
          if ((await verify.getAttribute('aria-expanded')) !== 'true') await verify.click();
          await results.locator('.share-fp').first().waitFor();
          await page.waitForTimeout(300);
          await saveScreenshot(page, `share-dialog-users-${width}-${scheme}`, { fullPage: false });

          await dialog.getByRole('tab', { name: 'Links' }).click();
          if ((await linksOf(shots)).length === 0) {
            await dialog.getByLabel('Password (optional)').fill(PASSWORD);
            await dialog.getByRole('button', { name: 'Create link' }).click();
            await toastText(page, 'Link created').waitFor();
          }
          await dialog.getByRole('listitem', { name: 'Link 1' }).waitFor();
          await page.waitForTimeout(300);
          await saveScreenshot(page, `share-dialog-links-${width}-${scheme}`, { fullPage: false });
        },
        SLOW,
      );
    }
  }
});
