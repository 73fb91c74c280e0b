/**
 * Account journeys through the built web app and the real server (docs/product.md "Screens",
 * "States", "Input rules" and "Messages"): register, sign in (with and without TOTP), avatar,
 * sessions, theme, redirects and logout. Each test gets its own Chromium profile, so cookies and
 * IndexedDB never leak between them. A rate-limited sign-in and the screenshots:
 * account-screens.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import {
  createUser,
  freshCode,
  loginViaUi,
  logoutViaNavbar,
  storedKeyCount,
  submitLogin,
  uniqueName,
  waitForKeyCount,
} from '../../support/accounts.ts';
import { solidPng } from '../../support/png.ts';
import { passRecoveryStep } from '../../support/recovery.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { PASSWORD, fieldMessage, pathOf, toast } from './pages.ts';

const SLOW = 90_000;

const suite = browserSuite({ timeoutMs: SLOW });
const { newBrowser } = suite;

const at = (path: string) => `${suite.server.url}${path}`;

describe.skipIf(skipWithoutBrowser)('accounts', () => {
  test(
    'register: every validation message, the availability check, then sign in and land on /files',
    async () => {
      const taken = await createUser(suite.server.url);
      const page = await newBrowser();
      await page.goto(at('/register'));
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();

      const username = page.getByLabel('Username');
      const email = page.getByLabel('Email');
      const password = page.getByLabel('Password', { exact: true });
      const confirm = page.getByLabel('Confirm password');

      await username.fill('ab');
      await fieldMessage(page, 'Username must be 3-20 characters long.').waitFor();
      await username.fill(taken.username);
      await fieldMessage(page, 'Checking if username already exists').waitFor();
      await fieldMessage(page, 'Username is already in use!').waitFor();
      await email.fill('not-an-address');
      await fieldMessage(page, 'Invalid email!').waitFor();
      await password.focus();
      await confirm.focus(); // leaving the password field empty
      await fieldMessage(page, 'Password is required').waitFor();
      await password.fill('short');
      await fieldMessage(page, 'Password must be at least 8 characters long.').waitFor();
      await password.fill(PASSWORD);
      await confirm.fill(`${PASSWORD}!`);
      await fieldMessage(page, 'Passwords do not match').waitFor();

      // Now a valid form.
      const name = uniqueName('reg');
      await username.fill(name);
      await email.fill(`${name}@example.org`);
      await confirm.fill(PASSWORD);
      await page.waitForFunction(() => !document.querySelector('.field__message'));
      await page.getByRole('button', { name: 'Register' }).click();
      // The new account's recovery phrase first (issue 24), then signed in at once (issue 23).
      await passRecoveryStep(page);
      await toast(page, 'Registration successful! You are signed in.').waitFor({ timeout: 30_000 });
      await page.waitForURL((url) => url.pathname === '/files');
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      await logoutViaNavbar(page);

      // The email is now in use too.
      await page.goto(at('/register'));
      await page.getByLabel('Email').fill(`${name}@example.org`);
      await fieldMessage(page, 'Email is already in use!').waitFor();

      await page.goto(at('/login'));
      await submitLogin(page, { username: name, password: PASSWORD });
      await page.waitForURL((url) => url.pathname === '/files');
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      // 'Redirecting...' goes once the redirect is done.
      await toast(page, 'Login successful! Redirecting...').waitFor({ state: 'detached' });
      const banner = page.getByRole('banner');
      await banner.getByRole('link', { name: 'Files' }).waitFor();
      await banner.getByRole('link', { name: 'Profile', exact: true }).waitFor();
      await banner.getByRole('link', { name: 'Your profile' }).waitFor();
      expect(await banner.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      expect(await storedKeyCount(page)).toBe(1);

      // Signed in survives a reload (the guard waits for the profile check).
      await page.reload();
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      expect(pathOf(page)).toBe('/files');
    },
    SLOW,
  );

  test(
    'login: wrong password, unknown user and validation stay on the form',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await newBrowser({
        expectHttpErrors: [
          { status: 401, path: '/api/login' },
          { status: 404, path: /^\/api\/users\/search\// },
        ],
      });
      await page.goto(at('/login'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Username and password are required.', { exact: true }).waitFor();
      await submitLogin(page, { username: user.username, password: 'wrong password' });
      await page.getByText('Invalid username or password.', { exact: true }).waitFor({ timeout: 30_000 });
      await submitLogin(page, { username: uniqueName('ghost'), password: PASSWORD });
      await toast(page, 'User does not exist').waitFor();
      expect(pathOf(page)).toBe('/login');
      expect(await storedKeyCount(page)).toBe(0);
    },
    SLOW,
  );

  test(
    'TOTP: set up on /profile with the password, log out, sign in with a code, turn it off',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await newBrowser({ expectHttpErrors: [{ status: 403, path: '/api/totp' }] });
      await loginViaUi(page, suite.server.url, user);
      await page.goto(at('/profile'));
      const password = page.getByRole('region', { name: 'Two-factor authentication' }).getByLabel('Password', { exact: true });
      await password.fill('not my password');
      await page.getByRole('button', { name: 'Set up TOTP' }).click();
      await page
        .getByRole('alert')
        .getByText('Wrong password. Enter the password you sign in with.', { exact: true })
        .waitFor({ timeout: 30_000 });
      await saveScreenshot(page, 'profile-totp-wrong-password');
      await password.fill(user.password);
      await page.getByRole('button', { name: 'Set up TOTP' }).click();
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      const secret = (await page.locator('.totp-secret').getAttribute('data-secret'))!;
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      expect((await page.locator('.totp-secret').textContent())!.replace(/\s/g, '')).toBe(secret);
      const confirmed = await freshCode(secret);
      await page.getByLabel('Code from the app').fill(confirmed.code);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await toast(page, 'Two-factor authentication is on.').waitFor();
      // The recovery codes, shown once (recovery-codes.test.ts follows them further).
      await page.getByRole('list', { name: 'Your recovery codes' }).waitFor();
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByRole('button', { name: 'Disable TOTP' }).waitFor();

      await logoutViaNavbar(page);
      await page.goto(at('/login?redirect=%2Fprofile'));
      await submitLogin(page, user);
      const codeInput = page.getByLabel('Enter the TOTP code from your authenticator app');
      await codeInput.waitFor({ timeout: 30_000 });
      const login = await freshCode(secret, confirmed.step);
      await codeInput.fill(login.code);
      await page.getByRole('button', { name: 'Verify TOTP' }).click();
      await page.waitForURL((url) => url.pathname === '/profile', { timeout: 30_000 });
      expect(await storedKeyCount(page)).toBe(1);

      const off = await freshCode(secret, login.step);
      await page.getByLabel('Code to turn it off').fill(off.code);
      await password.fill(user.password);
      await page.getByRole('button', { name: 'Disable TOTP' }).click();
      await toast(page, 'Two-factor authentication is off.').waitFor();
      await page.getByRole('button', { name: 'Set up TOTP' }).waitFor();
    },
    SLOW,
  );

  test(
    'avatar: upload a PNG and see it in the navbar',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await newBrowser();
      await loginViaUi(page, suite.server.url, user);
      await page.goto(at('/profile'));
      const navAvatar = page.getByRole('banner').getByRole('link', { name: 'Your profile' }).locator('img');
      await navAvatar.waitFor();
      expect(await navAvatar.getAttribute('src')).toMatch(new RegExp(`^/api/avatars/${user.id}\\.png\\?v=\\w+`));

      // Client-side checks first: not an image type.
      await page
        .locator('input[type="file"][name="avatar"]')
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await page.getByText('Choose a PNG, JPEG, WebP or GIF image.', { exact: true }).waitFor();

      const png = solidPng(48, 48, [220, 40, 90]);
      await page
        .locator('input[type="file"][name="avatar"]')
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('img', { name: 'New avatar preview' }).waitFor();
      const before = await navAvatar.getAttribute('src');
      await page.getByRole('button', { name: 'Save avatar' }).click();
      await toast(page, 'Avatar updated.').waitFor();
      await page.waitForFunction((old) => {
        const img = document.querySelector<HTMLImageElement>('header .navbar__avatar img');
        return !!img && img.getAttribute('src') !== old && img.complete && img.naturalWidth === 48;
      }, before);
      // And after a reload, from the server's profile.
      await page.reload();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('header .navbar__avatar img');
        return !!img && img.complete && img.naturalWidth === 48;
      });
    },
    SLOW,
  );

  test(
    'sessions: ending the other browser’s session signs it out at once',
    async () => {
      const user = await createUser(suite.server.url);
      const first = await newBrowser();
      const second = await newBrowser();
      await loginViaUi(second, suite.server.url, user);
      await loginViaUi(first, suite.server.url, user);
      expect(await storedKeyCount(second)).toBe(1);

      await first.goto(at('/profile'));
      const sessions = first.locator('.session-list__item');
      await sessions.nth(1).waitFor();
      expect(await sessions.count()).toBe(2);
      const mine = first.locator('.session-list__item[data-current]');
      await mine.getByText('This device', { exact: true }).waitFor();
      expect(await mine.getByRole('button', { name: /^End session/ }).count()).toBe(0);
      await first
        .locator('.session-list__item:not([data-current])')
        .getByRole('button', { name: /^End session/ })
        .click();
      await toast(first, 'Session ended.').waitFor();
      await first.waitForFunction(() => document.querySelectorAll('.session-list__item').length === 1);

      // The other browser hears it over its live socket and leaves /files without making a request.
      await second.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
      expect(new URL(second.url()).searchParams.get('redirect')).toBe('/files');
      await toast(second, 'Your session has ended. Please sign in again.').waitFor();
      await second.waitForFunction(() => localStorage.getItem('sealbox.session') === null);
      await waitForKeyCount(second, 0);
      await second.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
      // And a reload of a protected page stays signed out.
      await second.goto(at('/files'));
      await second.waitForURL((url) => url.pathname === '/login');
      expect(new URL(second.url()).searchParams.get('redirect')).toBe('/files');
      // The first browser is still signed in.
      await first.reload();
      await first.getByRole('heading', { name: 'Sessions' }).waitFor();
      expect(pathOf(first)).toBe('/profile');
    },
    SLOW,
  );

  test(
    'theme: dark survives a reload; system follows the OS',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await newBrowser();
      await loginViaUi(page, suite.server.url, user);
      await page.goto(at('/profile'));
      await page.getByRole('radio', { name: 'Dark' }).check();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      await page.reload();
      await page.getByRole('heading', { name: 'Preferences' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(await background()).toBe('rgb(15, 17, 23)');

      await page.getByRole('radio', { name: 'System' }).check();
      expect(await background()).toBe('rgb(247, 248, 250)'); // the emulated OS is light
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await background()).toBe('rgb(15, 17, 23)');

      // An invalid stored value falls back to system.
      await page.evaluate(() => localStorage.setItem('sealbox.theme', 'purple'));
      await page.reload();
      await page.getByRole('heading', { name: 'Preferences' }).waitFor();
      expect(await page.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);

      // Preferences go to the server.
      await page.getByRole('radio', { name: 'Grid' }).check();
      await toast(page, 'Preferences saved.').waitFor();
      await page.getByLabel('Sort by').selectOption('size');
      await page.getByRole('radio', { name: 'Descending' }).check();
      await page.waitForFunction(
        () => document.querySelector<HTMLInputElement>('input[name="sortOrder"][value="desc"]')?.checked,
      );
      const profile = await page.evaluate(() => fetch('/api/profile').then((r) => r.json()));
      await page.reload();
      await page.getByRole('heading', { name: 'Preferences' }).waitFor();
      const saved = await page.evaluate(() => fetch('/api/profile').then((r) => r.json()));
      expect({ gridView: saved.gridView, sortBy: saved.sortBy, sortOrder: saved.sortOrder }).toEqual({
        gridView: true,
        sortBy: 'size',
        sortOrder: 'desc',
      });
      expect(profile.id).toBe(user.id);
    },
    SLOW,
  );

  test(
    'a protected URL with query and hash is restored after login',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await newBrowser();
      await page.goto(at('/files?view=grid#frag'));
      await page.waitForURL((url) => url.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/files?view=grid#frag');
      await submitLogin(page, user);
      await page.waitForURL((url) => url.pathname === '/files', { timeout: 30_000 });
      const url = new URL(page.url());
      expect(url.search).toBe('?view=grid');
      expect(url.hash).toBe('#frag');
      await page.getByRole('button', { name: 'Grid', pressed: true }).waitFor();
    },
    SLOW,
  );

  test(
    "signing in as another account over a session still open: the old one's end does not sign the new one out",
    async () => {
      const [alice, bob] = [await createUser(suite.server.url), await createUser(suite.server.url)];
      const page = await newBrowser();
      await loginViaUi(page, suite.server.url, alice);
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      // The server ends alice's session with bob's sign-in, and her socket closes with 4401.
      await page.goto(at('/login'));
      await loginViaUi(page, suite.server.url, bob);
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      // Long enough for that close, and the profile check of the new path, to have landed.
      await page.waitForTimeout(1500);
      expect(pathOf(page)).toBe('/files');
      await page.getByRole('heading', { name: 'My Files' }).waitFor({ timeout: 1000 });
      const profile = await page.evaluate(async () => (await fetch('/api/profile')).json());
      expect(profile.username).toBe(bob.username);
    },
    SLOW,
  );

  test(
    'logout ends the session and deletes the keys; missing keys log out',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await newBrowser({ expectHttpErrors: [{ status: 401, path: '/api/sessions' }] });
      await loginViaUi(page, suite.server.url, user);
      expect(await storedKeyCount(page)).toBe(1);
      await logoutViaNavbar(page);
      await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
      // The page leaves for /home before the server is asked, so the keys go a moment later.
      await waitForKeyCount(page, 0);
      const status = await page.evaluate(() => fetch('/api/sessions').then((r) => r.status));
      expect(status).toBe(401);

      // Signed in on the server but the keys gone from this browser: logged out, sent to /login.
      await loginViaUi(page, suite.server.url, user);
      await page.evaluate(
        () =>
          new Promise<void>((resolve, reject) => {
            const req = indexedDB.open('sealbox-keys');
            req.onsuccess = () => {
              const tx = req.result.transaction('account', 'readwrite');
              tx.objectStore('account').clear();
              tx.oncomplete = () => {
                req.result.close();
                resolve();
              };
              tx.onerror = () => reject(tx.error);
            };
            req.onerror = () => reject(req.error);
          }),
      );
      await page.reload();
      await page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
      const sessions = await page.evaluate(() => fetch('/api/sessions').then((r) => r.status));
      expect(sessions).toBe(401);
    },
    SLOW,
  );
});
