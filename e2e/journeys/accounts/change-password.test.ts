/**
 * Change password (issue 24, docs/web-files.md "Change password"): on Profile, the current password
 * and the new one twice. Another browser signed in as the same user is signed out at once; the
 * old password no longer signs in; with the new one, a second browser sees every file, and the
 * owner's link still opens for a visitor: only the sealed keys changed. Wrong and mismatched
 * entries are refused in place. Screenshots at 375 and 1280 px, light and dark, and the axe check.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { toBase64Url } from '@sealbox/crypto';
import { loginViaUi, submitLogin, waitForKeyCount, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import type { ApiFolder, ApiSession } from '../../support/files.ts';
import { apiCreateLink } from '../../support/sharing.ts';
import { apiUserWithNotes, openNotes } from '../../support/recovery.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { toastText } from '../../support/share-dialog.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 240_000;
const suite = browserSuite({ timeoutMs: SLOW });
const NEW_PASSWORD = 'a much longer new passphrase';

let user: TestUser;
let session: ApiSession;
let trip: ApiFolder;
let linkId = '';

describe.skipIf(skipWithoutBrowser)('change password', () => {
  beforeAll(async () => {
    ({ user, session, folder: trip } = await apiUserWithNotes(suite.server.url));
    linkId = await apiCreateLink(session, trip.id);
  }, SLOW);

  test(
    'other sessions end, the old password stops working, files and links stay as they were',
    async () => {
      const other = await suite.signedIn(user, { expectHttpErrors: [{ status: 401, path: '/api/login' }] });
      const page = await suite.signedIn(user, {
        expectHttpErrors: [{ status: 403, path: '/api/account/sealed' }],
      });
      await page.goto(`${suite.server.url}/profile`);
      const section = page.getByRole('region', { name: 'Change password' });
      await section.waitFor();
      const field = (label: string) => section.getByLabel(label, { exact: true });
      const change = section.getByRole('button', { name: 'Change password' });

      // Refused in place, before anything is sent, then by the server.
      await field('Current password').fill(user.password);
      await field('New password').fill(NEW_PASSWORD);
      await field('Confirm new password').fill(`${NEW_PASSWORD}!`);
      await change.click();
      await section.getByRole('alert').getByText('Passwords do not match').waitFor();
      await field('New password').fill('short');
      await field('Confirm new password').fill('short');
      await change.click();
      await section.getByRole('alert').getByText('Password must be at least 8 characters long.').waitFor();
      await field('Current password').fill('not my password');
      await field('New password').fill(NEW_PASSWORD);
      await field('Confirm new password').fill(NEW_PASSWORD);
      await change.click();
      await section.getByRole('alert').getByText('Wrong password.').waitFor();
      expect(await checkA11y(page, 'profile password section')).toBe('');
      await saveScreenshots(page, 'change-password-wrong', { fullPage: true });

      await field('Current password').fill(user.password);
      await change.click();
      // The other browser's session, and the one the set-up signed in with over the API.
      await toastText(page, 'Password changed. 2 other sessions were signed out.').waitFor({ timeout: 60_000 });
      expect(await field('Current password').inputValue()).toBe('');

      // The other browser is told at once and drops its keys.
      await other.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
      await waitForKeyCount(other, 0);
      // This one stays signed in, with its keys.
      await page.goto(`${suite.server.url}/files`);
      await page.locator('.browser__body').getByText('Trip 2026').first().waitFor();

      // The old password no longer signs in; the new one does, and every file opens.
      await submitLogin(other, user);
      await other.getByText('Invalid username or password.', { exact: true }).waitFor({ timeout: 30_000 });
      const fresh = await suite.newBrowser();
      await loginViaUi(fresh, suite.server.url, { ...user, password: NEW_PASSWORD });
      await openNotes(fresh);

      // The link still opens for a visitor: its key never changed.
      const visitor = await suite.newBrowser();
      await visitor.goto(`${suite.server.url}/share?linkId=${linkId}#${toBase64Url(trip.key)}`);
      await visitor.locator('.browser__body').getByText('notes.txt').first().waitFor();
    },
    SLOW,
  );
});
