/**
 * TOTP recovery codes (issue 24, docs/web-accounts.md "TOTP recovery codes"). TOTP turned on from
 * Profile shows the ten codes once (saved as a file); then the authenticator is lost: the sign-in
 * takes a recovery code instead (a wrong one first), every file is there, and Profile says 9 of 10
 * are left. New codes are made; an old one no longer signs in, a new one does; with few left the
 * card warns. Screenshots at 375 and 1280 px, light and dark, with the axe check, of the codes, the
 * card with its count and the login step in recovery-code mode.
 */
import { deriveLoginPassword, type KdfParams } from '@sealbox/crypto';
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { freshCode, logoutViaNavbar, submitLogin, type TestUser } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiUserWithNotes, openNotes } from '../../support/recovery.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { toast } from './pages.ts';

const SLOW = 240_000;
const suite = browserSuite({ timeoutMs: SLOW });
const WRONG_CODE = 'That recovery code is not right or was already used.';

let user: TestUser;

/** The Two-factor authentication card of /profile. */
const totpCard = (page: Page) => page.getByRole('region', { name: 'Two-factor authentication' });

/** The ten new codes on screen, as shown (`xxxxx-xxxxx`). */
async function readCodes(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Your recovery codes' });
  await list.waitFor({ timeout: 60_000 });
  const codes = (await list.locator('li').allTextContents()).map((text) => text.trim());
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[2-9a-km-np-z]{5}-[2-9a-km-np-z]{5}$/);
  return codes;
}

/** Toasts gone, so they cover nothing in a screenshot. */
const noToasts = (page: Page) =>
  page.waitForFunction(() => document.querySelectorAll('.sb-toast').length === 0, undefined, { timeout: 15_000 });

/** Signs in up to the TOTP step and switches it to a recovery code. */
async function toRecoveryStep(page: Page) {
  await page.goto(`${suite.server.url}/login`);
  await submitLogin(page, user);
  await page.getByLabel('Enter the TOTP code from your authenticator app').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  return page.getByLabel('Enter one of your recovery codes');
}

/** Uses up recovery codes through the API (a sign-in each), as other devices would. */
async function useCodesElsewhere(codes: string[]) {
  const lookup = await (await fetch(`${suite.server.url}/api/users/search/${user.username}?limit=1`)).json();
  const password = await deriveLoginPassword(user.password, lookup[0].passwordSalt, lookup[0].kdf as KdfParams);
  for (const totpCode of codes) {
    const response = await fetch(`${suite.server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password, totpCode }),
    });
    expect(response.status).toBe(200);
  }
}

describe.skipIf(skipWithoutBrowser)('TOTP recovery codes', () => {
  beforeAll(async () => {
    ({ user } = await apiUserWithNotes(suite.server.url));
  }, SLOW);

  test(
    'the authenticator lost: a recovery code signs in once, new codes void the old ones',
    async () => {
      const page = await suite.signedIn(user, { expectHttpErrors: [{ status: 401, path: '/api/login' }] });
      await page.goto(`${suite.server.url}/profile`);
      const card = totpCard(page);
      await card.getByLabel('Password', { exact: true }).fill(user.password);
      await card.getByRole('button', { name: 'Set up TOTP' }).click();
      const secret = (await card.locator('.totp-secret').getAttribute('data-secret'))!;
      await card.getByLabel('Code from the app').fill((await freshCode(secret)).code);
      await card.getByRole('button', { name: 'Confirm' }).click();

      // The codes, once: kept as a file, looked at, then saved.
      const codes = await readCodes(page);
      const download = page.waitForEvent('download');
      await card.getByRole('button', { name: 'Download' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`sealbox-recovery-codes-${user.username}.txt`);
      const text = await Bun.file((await file.path())!).text();
      for (const code of codes) expect(text).toContain(code);
      await noToasts(page);
      // From the top: what scrolled under the translucent header would be read as its background.
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await checkA11y(page, 'recovery codes shown')).toBe('');
      await saveScreenshots(page, 'totp-recovery-codes', { fullPage: false, centre: card });
      await card.getByRole('button', { name: 'I have saved them' }).click();
      await card.getByText('10 of 10 recovery codes left.').waitFor();
      await logoutViaNavbar(page);

      // The phone is gone: a recovery code instead. A wrong one is said so, and kept to be mended.
      const field = await toRecoveryStep(page);
      await field.fill('aaaaa-aaaaa');
      await page.getByRole('button', { name: 'Verify TOTP' }).click();
      await page.getByRole('alert').getByText(WRONG_CODE, { exact: true }).waitFor({ timeout: 30_000 });
      expect(await field.inputValue()).toBe('aaaaa-aaaaa');
      expect(await checkA11y(page, 'login with a recovery code')).toBe('');
      await saveScreenshots(page, 'login-recovery-code', { fullPage: false });
      // Typed as read aloud: capitals and a space.
      await field.fill(codes[0]!.replace('-', ' ').toUpperCase());
      await page.getByRole('button', { name: 'Verify TOTP' }).click();
      await page.waitForURL((url) => url.pathname === '/files', { timeout: 60_000 });
      await toast(page, 'Signed in with a recovery code. 9 of 10 recovery codes left.').waitFor();
      await openNotes(page);

      // Profile counts what is left, and makes new codes for the password.
      await page.goto(`${suite.server.url}/profile`);
      await card.getByText('9 of 10 recovery codes left.').waitFor();
      await noToasts(page);
      expect(await checkA11y(page, 'TOTP card with its count')).toBe('');
      await saveScreenshots(page, 'totp-card-count', { fullPage: false, centre: card });
      await card.getByRole('button', { name: 'Make new recovery codes' }).click();
      await card.getByLabel('Password', { exact: true }).fill(user.password);
      await card.getByRole('button', { name: 'Make new recovery codes' }).click();
      await toast(page, 'New recovery codes made. The old ones no longer work.').waitFor({ timeout: 30_000 });
      const fresh = await readCodes(page);
      expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
      await card.getByRole('button', { name: 'I have saved them' }).click();
      await card.getByText('10 of 10 recovery codes left.').waitFor();
      await logoutViaNavbar(page);

      // An old code is void; a new one signs in.
      const again = await toRecoveryStep(page);
      await again.fill(codes[1]!);
      await page.getByRole('button', { name: 'Verify TOTP' }).click();
      await page.getByRole('alert').getByText(WRONG_CODE, { exact: true }).waitFor({ timeout: 30_000 });
      await again.fill(fresh[0]!);
      await page.getByRole('button', { name: 'Verify TOTP' }).click();
      await page.waitForURL((url) => url.pathname === '/files', { timeout: 60_000 });

      // Used up elsewhere down to two: the card warns.
      await useCodesElsewhere(fresh.slice(1, 8));
      await page.goto(`${suite.server.url}/profile`);
      await card.getByText('Only 2 of 10 recovery codes left. Make new ones before they run out.').waitFor();
      await noToasts(page);
      expect(await checkA11y(page, 'TOTP card, few codes left')).toBe('');
      await saveScreenshots(page, 'totp-card-few', { fullPage: false, centre: card });
    },
    SLOW,
  );
});
