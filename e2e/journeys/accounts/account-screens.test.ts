/**
 * The account screens beside the journeys of accounts.test.ts, through the built web app and the
 * real server: a sign-in under a lookup rate limit says when to try again (docs/product.md
 * "Messages"), and screenshots of home, login (both steps), register and profile at 375 and
 * 1280 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createUser, logoutViaNavbar, submitLogin, type TestUser } from '../../support/accounts.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { startServer, type RunningServer } from '../../support/server.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { PASSWORD, fieldMessage, pathOf, toast } from './pages.ts';

const SLOW = 90_000;

const suite = browserSuite({ timeoutMs: SLOW });
const { newBrowser } = suite;

const at = (path: string) => `${suite.server.url}${path}`;

describe.skipIf(skipWithoutBrowser)('rate limits', () => {
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await startServer({ env: { RATE_LIMIT_LOOKUP_IP: '1/60' } });
  }, SLOW);
  afterAll(async () => {
    await limited?.stop();
  }, SLOW);

  test(
    'a 429 shows "You are sending too many requests. Please slow down." and when to try again',
    async () => {
      const page = await newBrowser({
        expectHttpErrors: [
          { status: 404, path: /^\/api\/users\/search\// },
          { status: 429, path: /^\/api\/users\/search\// },
        ],
      });
      await page.goto(`${limited.url}/login`);
      const user: TestUser = { id: '', username: 'nobody1', password: PASSWORD };
      await submitLogin(page, user);
      await toast(page, 'User does not exist').waitFor();
      await page.getByRole('button', { name: 'Sign in' }).click();
      // docs/product.md "Messages" text, then when to try again from the answer's Retry-After
      // (issue 14).
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByText(/^You are sending too many requests\. Please slow down\. Try again in \d+ (second|minute)s?\.$/)
        .waitFor();
      expect(pathOf(page)).toBe('/login');
    },
    SLOW,
  );
});

describe.skipIf(skipWithoutBrowser)('account screenshots', () => {
  let plain: TestUser;
  let withTotp: TestUser;
  beforeAll(async () => {
    [plain, withTotp] = await Promise.all([createUser(suite.server.url), createUser(suite.server.url, { totp: true })]);
  }, SLOW);

  for (const width of [375, 1280]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(
        `home, login (both steps), register and profile at ${width} px, ${colorScheme}`,
        async () => {
          // Leaving the TOTP step half done: the next lookup is refused (401) until the page ends that session.
          const page = await newBrowser({
            width,
            colorScheme,
            expectHttpErrors: [{ status: 401, path: /^\/api\/users\/search\// }],
          });
          const shot = (name: string) => saveScreenshot(page, `${name}-${width}-${colorScheme}`);

          await page.goto(at('/home'));
          await page.getByRole('heading', { level: 1 }).waitFor();
          await shot('home');

          await page.goto(at('/register'));
          await page.getByLabel('Username').fill('ab');
          await page.getByLabel('Email').fill('not-an-address');
          await page.getByLabel('Password', { exact: true }).fill('short');
          await page.getByLabel('Confirm password').fill('shorter');
          await page.getByRole('button', { name: 'Register' }).click();
          await fieldMessage(page, 'Passwords do not match').waitFor();
          await shot('register-errors');

          await page.goto(at('/login?redirect=%2Fprofile'));
          await page.getByRole('heading', { name: 'Sign in' }).waitFor();
          await shot('login-credentials');
          await submitLogin(page, withTotp);
          await page.getByLabel('Enter the TOTP code from your authenticator app').waitFor({ timeout: 30_000 });
          await shot('login-totp');

          await page.goto(at('/login?redirect=%2Fprofile'));
          await submitLogin(page, plain);
          await page.waitForURL((url) => url.pathname === '/profile', { timeout: 30_000 });
          await page.locator('.fingerprint').waitFor();
          await page.locator('.session-list__item').first().waitFor();
          // Let the login toast finish so it does not cover the page.
          await page.waitForFunction(() => document.querySelectorAll('.sb-toast').length === 0, undefined, { timeout: 10_000 });
          await shot('profile');
          await page.getByLabel('Password', { exact: true }).fill(plain.password);
          await page.getByRole('button', { name: 'Set up TOTP' }).click();
          await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
          await shot('profile-totp-setup');
          if (width < 768) {
            await page.getByRole('button', { name: 'Menu' }).click();
            await page.getByRole('banner').getByRole('button', { name: 'Logout' }).waitFor();
            await saveScreenshot(page, `menu-signed-in-${width}-${colorScheme}`, { fullPage: false });
          }
          await logoutViaNavbar(page);
        },
        SLOW,
      );
    }
  }
});
