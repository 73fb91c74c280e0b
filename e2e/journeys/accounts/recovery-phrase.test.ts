/**
 * The recovery phrase (issue 24, docs/web-accounts.md "Recovery phrase"). A new account is shown
 * its 24 words once and types three back (a wrong one first) before going on. From Profile a
 * phrase is made for the password. Then, the password forgotten: "Forgot password?", the words
 * typed with one wrong word first (refused before anything is sent) and a suggestion taken from
 * the word list, a new password, and every file is there again. Screenshots at 375 and 1280 px,
 * light and dark, and the axe check on each screen.
 */
import { RECOVERY_WORDS } from '@sealbox/crypto';
import { beforeAll, describe, expect, test } from 'bun:test';
import { submitLogin, uniqueName, type TestUser, submitRegistration } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { apiUserWithNotes, openNotes, passRecoveryStep } from '../../support/recovery.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { toastText } from '../../support/share-dialog.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 240_000;
const suite = browserSuite({ timeoutMs: SLOW });
const NEW_PASSWORD = 'found again, a new passphrase';

let user: TestUser;

/**
 * A beginning of `word` after which the page's list (the first six words starting so, hidden when
 * the typed letters already are the only match) shows `word`: three letters when they do.
 */
function offeringPrefix(word: string): string | undefined {
  for (const n of [3, 4, 5, 6, 7, 2, 1]) {
    const start = word.slice(0, n);
    if (start === word) continue;
    if (
      RECOVERY_WORDS.filter((w) => w.startsWith(start))
        .slice(0, 6)
        .includes(word)
    )
      return start;
  }
  return undefined;
}

describe.skipIf(skipWithoutBrowser)('recovery phrase', () => {
  beforeAll(async () => {
    ({ user } = await apiUserWithNotes(suite.server.url));
  }, SLOW);

  test(
    'registration shows the phrase once and asks for three of its words back',
    async () => {
      const page = await suite.newBrowser();
      await submitRegistration(page, suite.server.url, uniqueName('new'), 'correct horse battery');
      const list = page.getByRole('list', { name: 'Your recovery phrase' });
      await list.waitFor({ timeout: 60_000 });
      expect(await list.locator('li').count()).toBe(24);
      expect(await checkA11y(page, 'registration recovery phrase')).toBe('');
      await saveScreenshots(page, 'recovery-phrase-shown', { fullPage: true });

      // A wrong word is refused in place; nothing is saved, and the app waits.
      await page.getByRole('button', { name: 'I have written them down' }).click();
      const first = page.locator('input[name^="word-"]').first();
      await first.fill('zzz');
      await page.getByRole('button', { name: 'Save recovery phrase' }).click();
      await page
        .getByRole('alert')
        .getByText(/^Word \d+ does not match/)
        .waitFor();
      expect(new URL(page.url()).pathname).toBe('/register');
      expect(await checkA11y(page, 'recovery phrase check')).toBe('');
      await saveScreenshots(page, 'recovery-phrase-check', { fullPage: false });
      await page.getByRole('button', { name: 'Show the words again' }).click();
      await passRecoveryStep(page);
      await page.waitForURL((url) => url.pathname === '/files', { timeout: 30_000 });
      await toastText(page, 'Registration successful! You are signed in.').waitFor();
    },
    SLOW,
  );

  test(
    'made from Profile; with it, a forgotten password is replaced and every file opens',
    async () => {
      // On Profile when the reset ends its session, its sessions list may ask once more (401).
      const page = await suite.signedIn(user, { expectHttpErrors: [{ status: 401, path: '/api/sessions' }] });
      await page.goto(`${suite.server.url}/profile`);
      const section = page.getByRole('region', { name: 'Recovery phrase' });
      await section.getByText(/You have no recovery phrase/).waitFor();
      await section.getByRole('button', { name: 'Make a recovery phrase' }).click();
      await section.getByLabel('Password', { exact: true }).fill(user.password);
      await section.getByRole('button', { name: 'Continue' }).click();
      const phrase = await passRecoveryStep(page);
      await toastText(page, 'Recovery phrase saved.').waitFor();
      await section.getByText(/^Made on /).waitFor();
      // From the top: what scrolled under the translucent header would be read as its background.
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await checkA11y(page, 'profile recovery section')).toBe('');
      await saveScreenshots(page, 'profile-recovery-made', { fullPage: false, centre: section });

      // Another browser, the password forgotten.
      const lost = await suite.newBrowser({ expectHttpErrors: [{ status: 401, path: '/api/login' }] });
      await lost.goto(`${suite.server.url}/login`);
      await lost.getByRole('link', { name: 'Forgot password?' }).click();
      await lost.getByRole('heading', { name: 'Recover your account' }).waitFor();
      await lost.getByLabel('Username').fill(user.username);
      const words = phrase.split(' ');
      const field = lost.getByLabel('Recovery phrase');
      // One word mistyped: said which, before anything is sent.
      await field.fill([...words.slice(0, 5), 'notaword', ...words.slice(6)].join(' '));
      await lost.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await lost.getByLabel('Confirm new password').fill(NEW_PASSWORD);
      await lost.getByRole('button', { name: 'Set new password' }).click();
      await lost.getByRole('alert').getByText('“notaword” (word 6) is not a recovery phrase word').waitFor();
      // The last word typed in part: the list offers it. A word the list cannot offer (a short
      // one that its first letters complete, like "wet", or one past the first six matches) is
      // typed whole.
      const last = words[23]!;
      const start = offeringPrefix(last);
      await field.fill(`${words.slice(0, 23).join(' ')} ${start ?? last}`);
      if (start) {
        const suggestions = lost.getByRole('group', { name: 'Matching words' });
        await suggestions.getByRole('button', { name: last, exact: true }).click();
      }
      expect((await field.inputValue()).trim()).toBe(phrase);
      expect(await checkA11y(lost, 'recover page')).toBe('');
      await saveScreenshots(lost, 'recovery-forgot-password', { fullPage: true });
      await lost.getByRole('button', { name: 'Set new password' }).click();
      await lost.waitForURL((url) => url.pathname === '/files', { timeout: 60_000 });
      await toastText(
        lost,
        'Your new password is set. Two-factor authentication is off and every other session was signed out.',
      ).waitFor();
      await openNotes(lost);

      // The first browser's session ended with the reset; the old password no longer signs in.
      await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
      const again = await suite.newBrowser({ expectHttpErrors: [{ status: 401, path: '/api/login' }] });
      await again.goto(`${suite.server.url}/login`);
      await submitLogin(again, user);
      await again.getByText('Invalid username or password.', { exact: true }).waitFor({ timeout: 30_000 });
    },
    SLOW,
  );
});
