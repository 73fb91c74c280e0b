/**
 * Delete account (issue 24, docs/web-accounts.md "Delete account"): Profile -> Danger zone asks the
 * password and the username typed back, refuses a wrong one of either in place, then ends the
 * account: this tab forgets its keys and goes home, the folder it shared leaves the recipient's
 * open "Shared with me" live, the link stops opening, and the name no longer signs in.
 * Screenshots at 375 and 1280 px, light and dark, and the axe check.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { toBase64Url } from '@sealbox/crypto';
import { createUser, loginViaUi, submitLogin, waitForKeyCount, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiLogin, apiUserWithFolder, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { toastText } from '../../support/share-dialog.ts';
import { apiCreateLink, apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 240_000;
const suite = browserSuite({ timeoutMs: SLOW });

let alice: TestUser;
let bob: TestUser;
let session: ApiSession;
let holiday: ApiFolder;
let linkId = '';

describe.skipIf(skipWithoutBrowser)('delete account', () => {
  beforeAll(async () => {
    ({ user: alice, session, folder: holiday } = await apiUserWithFolder(suite.server.url, 'Holiday photos'));
    bob = await createUser(suite.server.url);
    await apiLogin(suite.server.url, bob);
    await apiShareWithUser(session, holiday, await publicUser(session, bob.id), false);
    linkId = await apiCreateLink(session, holiday.id);
  }, SLOW);

  test(
    "refused in place, then gone: keys forgotten, the recipient's list updates live, the name no longer signs in",
    async () => {
      const recipient = await suite.signedIn(bob);
      await recipient.goto(`${suite.server.url}/shared`);
      const shared = recipient.locator('.browser__body').getByText('Holiday photos').first();
      await shared.waitFor();

      const page = await suite.signedIn(alice, {
        expectHttpErrors: [
          { status: 403, path: '/api/account/delete' },
          { status: 404, path: `/api/users/search/${alice.username}` },
        ],
      });
      await page.goto(`${suite.server.url}/profile`);
      const section = page.getByRole('region', { name: 'Danger zone' });
      await section.waitFor();
      await section.getByRole('button', { name: 'Delete account…' }).click();
      const field = (label: string | RegExp) => section.getByLabel(label);
      const confirm = section.getByRole('button', { name: 'Delete my account forever' });

      // Nothing sent until the name matches; then the server refuses a wrong password.
      await field('Password').fill(alice.password);
      await field(/^Type your username/).fill(alice.username.toUpperCase());
      await confirm.click();
      await section.getByRole('alert').getByText('Type your username exactly to confirm.').waitFor();
      await field(/^Type your username/).fill(alice.username);
      await field('Password').fill('not my password');
      await confirm.click();
      await section.getByRole('alert').getByText('Wrong password. Enter the password you sign in with.').waitFor();
      expect(await checkA11y(page, 'profile danger zone')).toBe('');
      await saveScreenshots(page, 'delete-account-form', { fullPage: true });

      // Cancel closes the form and forgets what was typed.
      await section.getByRole('button', { name: 'Cancel' }).click();
      await section.getByRole('button', { name: 'Delete account…' }).click();
      expect(await field('Password').inputValue()).toBe('');

      await field('Password').fill(alice.password);
      await field(/^Type your username/).fill(alice.username);
      await confirm.click();
      await toastText(page, 'Your account was deleted. Everything in it is gone.').waitFor({ timeout: 60_000 });
      await page.waitForURL((url) => url.pathname === '/home', { timeout: 15_000 });
      await waitForKeyCount(page, 0);
      // Deleting is not a session "ended elsewhere": no such notice on the way out.
      expect(await toastText(page, 'Your session has ended. Please sign in again.').count()).toBe(0);
      await saveScreenshots(page, 'delete-account-done', { fullPage: false });

      // The recipient's open list loses the folder without a reload.
      await shared.waitFor({ state: 'detached', timeout: 15_000 });

      // The link no longer opens for a visitor.
      const visitor = await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: `/api/shared/${linkId}` }] });
      await visitor.goto(`${suite.server.url}/share?linkId=${linkId}#${toBase64Url(holiday.key)}`);
      await visitor.getByText('This link does not exist, has expired or was removed.').waitFor();

      // The name no longer signs in: it answers as a name nobody has.
      await page.goto(`${suite.server.url}/login`);
      await submitLogin(page, alice);
      await toastText(page, 'User does not exist').waitFor({ timeout: 30_000 });
    },
    SLOW,
  );

  test(
    'a fresh sign-in as the recipient shows nothing of the deleted account',
    async () => {
      const page = await suite.newBrowser();
      await loginViaUi(page, suite.server.url, bob);
      await page.goto(`${suite.server.url}/shared`);
      await page.getByText('No files have been shared with you yet').first().waitFor();
    },
    SLOW,
  );
});
