/**
 * Password keys by version, through the built web app and the real server in Chromium
 * (docs/protocol.md "Account"): a version-1 account is upgraded to version 2 at its next sign-in
 * without losing anything, new accounts register on version 2, and a hostile server's KDF
 * parameters (a downgrade to version 1, or absurd costs) unlock nothing.
 */
import { KDF_V1, KDF_V2, deriveLoginPassword } from '@sealbox/crypto';
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import {
  createUser,
  loginViaUi,
  logoutViaNavbar,
  submitLogin,
  uniqueName,
  waitForKeyCount,
  type TestUser,
  submitRegistration,
} from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, folderLink } from '../../support/files.ts';
import { passRecoveryStep } from '../../support/recovery.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 120_000;
const suite = browserSuite({ timeoutMs: SLOW });
const { newBrowser } = suite;

const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text, { exact: true });

async function lookup(username: string): Promise<{ passwordSalt: string; kdf: { version: number } }> {
  const response = await fetch(`${suite.server.url}/api/users/search/${encodeURIComponent(username)}?limit=1`);
  expect(response.status).toBe(200);
  return ((await response.json()) as Array<{ passwordSalt: string; kdf: { version: number } }>)[0]!;
}

async function loginStatus(username: string, password: string): Promise<number> {
  const response = await fetch(`${suite.server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return response.status;
}

/** A v1 account holding a folder and a file inside it. */
async function v1UserWithFiles(): Promise<TestUser> {
  const user = await createUser(suite.server.url, { kdf: KDF_V1 });
  expect((await lookup(user.username)).kdf).toEqual(KDF_V1);
  const session = await apiLogin(suite.server.url, user);
  const folder = await apiCreateFolder(session, null, 'Reports ü 2026');
  await apiUploadFile(session, folder, 'notes before the upgrade.txt', new TextEncoder().encode('kept'), 'text/plain');
  return user;
}

async function expectFiles(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'My Files' }).waitFor();
  await folderLink(page, 'Reports ü 2026').dblclick();
  await page.getByText('notes before the upgrade.txt', { exact: true }).first().waitFor({ timeout: 30_000 });
}

describe.skipIf(skipWithoutBrowser)('password keys by version', () => {
  test(
    'a version-1 account signs in through the page, comes out on version 2, keeps its files and signs in again',
    async () => {
      const user = await v1UserWithFiles();
      const before = await lookup(user.username);
      const v1Hash = await deriveLoginPassword(user.password, before.passwordSalt, before.kdf);

      const page = await newBrowser();
      await loginViaUi(page, suite.server.url, user);
      // The upgrade is sent before the page leaves /login: the server now hands out version 2.
      const after = await lookup(user.username);
      expect(after.kdf).toEqual(KDF_V2);
      expect(after.passwordSalt).not.toBe(before.passwordSalt);
      // The old login password is gone, the new one is version 2's.
      expect(await loginStatus(user.username, v1Hash)).toBe(401);
      expect(await loginStatus(user.username, await deriveLoginPassword(user.password, after.passwordSalt, after.kdf))).toBe(200);
      await expectFiles(page);

      // Again, in the same browser, with the same password.
      await logoutViaNavbar(page);
      await waitForKeyCount(page, 0);
      await loginViaUi(page, suite.server.url, user);
      await expectFiles(page);

      // And in a fresh browser (no keys in IndexedDB), and from Bun's own crypto.
      const fresh = await newBrowser();
      await loginViaUi(fresh, suite.server.url, user);
      await expectFiles(fresh);
      expect((await lookup(user.username)).passwordSalt).toBe(after.passwordSalt);
      const session = await apiLogin(suite.server.url, user);
      expect(session.userId).toBe(user.id);
    },
    SLOW,
  );

  test(
    'a new account registers on version 2 through the page',
    async () => {
      const page = await newBrowser();
      const username = uniqueName('fresh');
      const password = 'correct horse battery';
      await submitRegistration(page, suite.server.url, username, password);
      await passRecoveryStep(page);
      // Registering signs in at once, with the version-2 keys just made.
      await page.getByRole('heading', { name: 'My Files' }).waitFor({ timeout: 60_000 });
      expect((await lookup(username)).kdf).toEqual(KDF_V2);
      expect((await lookup(username)).kdf).toEqual(KDF_V2);
    },
    SLOW,
  );

  test(
    'a hostile server: version 1 claimed for a version-2 account opens nothing; absurd parameters are refused at once',
    async () => {
      const user = await createUser(suite.server.url, { kdf: KDF_V1 });
      // Upgrade it through the page first; this sign-in (it derives version 1, then version 2) is
      // the baseline a refusal before deriving anything must beat, whatever the machine's load.
      const first = await newBrowser();
      const signInStarted = Date.now();
      await loginViaUi(first, suite.server.url, user);
      const signInMs = Date.now() - signInStarted;
      const real = await lookup(user.username);
      expect(real.kdf).toEqual(KDF_V2);
      const v2Hash = await deriveLoginPassword(user.password, real.passwordSalt, real.kdf);

      // Downgrade: the lookup and the login answer claim version 1; the server even lets the
      // v1 login password in (it swaps in the right one). The bundle still opens only under
      // version 2's wrapping key, so nothing is unlocked and nothing is kept.
      const page = await newBrowser();
      await page.route('**/api/users/search/**', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as Array<Record<string, unknown>>;
        await route.fulfill({ response, json: body.map((entry) => ({ ...entry, kdf: KDF_V1 })) });
      });
      let loginPasswordSent = '';
      await page.route('**/api/login', async (route) => {
        loginPasswordSent = JSON.parse(route.request().postData() ?? '{}').password;
        const response = await route.fetch({ postData: JSON.stringify({ username: user.username, password: v2Hash }) });
        const body = (await response.json()) as Record<string, unknown>;
        await route.fulfill({ response, json: { ...body, kdf: KDF_V1 } });
      });
      await page.goto(`${suite.server.url}/login`);
      await submitLogin(page, user);
      await toast(page, 'Login failed. Your keys could not be unlocked with this password.').waitFor({ timeout: 30_000 });
      expect(loginPasswordSent).not.toBe(v2Hash);
      expect(new URL(page.url()).pathname).toBe('/login');
      await waitForKeyCount(page, 0);
      // Nothing changed on the server either: still version 2 with its own salt.
      expect(await lookup(user.username)).toEqual(real);

      // The browser that signed in on version 2 remembers it: offered version 1 later, it refuses
      // before deriving or sending anything (no cheap version-1 login password for the server).
      await logoutViaNavbar(first);
      let sentByFirst = 0;
      await first.route('**/api/users/search/**', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as Array<Record<string, unknown>>;
        await route.fulfill({ response, json: body.map((entry) => ({ ...entry, kdf: KDF_V1 })) });
      });
      await first.route('**/api/login', async (route) => {
        sentByFirst += 1;
        await route.continue();
      });
      await first.goto(`${suite.server.url}/login`);
      await submitLogin(first, user);
      await toast(first, 'Login failed. The server asked for weaker password protection than this app accepts.').waitFor({
        timeout: 10_000,
      });
      expect(sentByFirst).toBe(0);

      // A ceiling: 1 GiB of argon2id memory is refused before anything is derived or sent.
      const greedy = await newBrowser();
      let loginRequests = 0;
      await greedy.route('**/api/users/search/**', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as Array<Record<string, unknown>>;
        const kdf = { ...KDF_V2, argon2id: { ...KDF_V2.argon2id, memoryKiB: 1 << 20 } };
        await route.fulfill({ response, json: body.map((entry) => ({ ...entry, kdf })) });
      });
      await greedy.route('**/api/login', async (route) => {
        loginRequests += 1;
        await route.continue();
      });
      await greedy.goto(`${suite.server.url}/login`);
      const started = Date.now();
      await submitLogin(greedy, user);
      await toast(greedy, 'Login failed. The server sent malformed account data.').waitFor({ timeout: 60_000 });
      expect(Date.now() - started).toBeLessThan(2 * signInMs);
      expect(loginRequests).toBe(0);

      // A floor: version 2 below 19 MiB is a downgrade, refused the same way.
      const weak = await newBrowser();
      await weak.route('**/api/users/search/**', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as Array<Record<string, unknown>>;
        const kdf = { ...KDF_V2, argon2id: { ...KDF_V2.argon2id, memoryKiB: 1024 } };
        await route.fulfill({ response, json: body.map((entry) => ({ ...entry, kdf })) });
      });
      await weak.goto(`${suite.server.url}/login`);
      await submitLogin(weak, user);
      await toast(weak, 'Login failed. The server asked for weaker password protection than this app accepts.').waitFor({
        timeout: 10_000,
      });
    },
    SLOW,
  );
});
