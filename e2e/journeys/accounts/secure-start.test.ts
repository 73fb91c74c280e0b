/**
 * When the encryption code cannot start, the pages that need keys say so instead of hanging
 * (docs/product.md "Messages"; docs/operations.md "HTTPS only"): outside a secure context (plain HTTP
 * on a name that is not localhost) they show "Sealbox needs HTTPS or localhost" instead of their
 * forms; with the crypto worker's script gone (a tab left open across an upgrade) Register and
 * Sign in say "Sealbox was updated: reload" and their buttons come back.
 */
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, submitLogin, uniqueName } from '../../support/accounts.ts';
import { checkA11y } from '../../support/axe.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 90_000;
const INSECURE_TEXT = 'Sealbox needs HTTPS or localhost';
const UPDATED_TEXT = 'Sealbox was updated: reload';
/** The crypto worker as Vite emits it (apps/web/src/crypto/client.ts). */
const CRYPTO_WORKER = /\/assets\/crypto\.worker-[\w-]+\.js$/;
/** A name that is not localhost, resolved by Chromium alone to the local server. */
const INSECURE_HOST = 'sealbox.test';

const suite = browserSuite({ timeoutMs: SLOW });

/** axe first: it runs on the settled page, before the screenshots switch widths and themes. */
async function looksRight(page: Page, name: string) {
  expect(await checkA11y(page, name)).toBe('');
  await saveScreenshots(page, name);
}

/** A page whose crypto worker script answers 404, as after an upgrade replaced the app's files. */
async function withoutWorker(): Promise<Page> {
  const page = await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: CRYPTO_WORKER }] });
  await page.route(CRYPTO_WORKER, (route) => route.fulfill({ status: 404, body: 'gone' }));
  return page;
}

describe.skipIf(skipWithoutBrowser)('secure start', () => {
  test(
    'plain HTTP on a LAN name: login, register and a link page block with the HTTPS message',
    async () => {
      const page = await suite.newBrowser({
        args: [`--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`],
        expectInsecureOrigin: true,
      });
      const origin = suite.server.url.replace('127.0.0.1', INSECURE_HOST);
      for (const path of ['/login', '/register', '/share?linkId=abc#key']) {
        await page.goto(`${origin}${path}`);
        expect(await page.evaluate(() => isSecureContext)).toBe(false);
        await page.getByRole('heading', { name: INSECURE_TEXT }).waitFor({ timeout: 15_000 });
        expect(await page.getByRole('button', { name: /^(Sign in|Register)$/ }).count()).toBe(0);
      }
      await page.goto(`${origin}/login`);
      await page.getByRole('heading', { name: INSECURE_TEXT }).waitFor();
      await looksRight(page, 'secure-start-insecure');
    },
    SLOW,
  );

  test(
    'the crypto worker is gone: Sign in says to reload, and Reload brings a working page',
    async () => {
      const user = await createUser(suite.server.url);
      const page = await withoutWorker();
      await page.goto(`${suite.server.url}/login`);
      await submitLogin(page, user);
      const message = page.getByRole('alert').filter({ hasText: UPDATED_TEXT });
      await message.waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await looksRight(page, 'secure-start-updated-login');

      await page.unroute(CRYPTO_WORKER);
      await page.getByRole('button', { name: 'Reload' }).click();
      await loginViaUi(page, suite.server.url, user);
    },
    SLOW,
  );

  test(
    'the crypto worker is gone: Register says to reload and its button comes back',
    async () => {
      const page = await withoutWorker();
      await page.goto(`${suite.server.url}/register`);
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await page.getByLabel('Username').fill(uniqueName('reg'));
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await page.getByLabel('Confirm password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('alert').filter({ hasText: UPDATED_TEXT }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Register' }).waitFor();
      await page.getByRole('button', { name: 'Reload' }).waitFor();
      await looksRight(page, 'secure-start-updated-register');
    },
    SLOW,
  );
});
