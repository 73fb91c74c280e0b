/**
 * Accounts for journeys. `createUser` registers through the API with the real crypto package
 * (fast set-up for tests that are about something else); the UI helpers drive the real pages.
 */
import { createAccount, deriveLoginPassword, type KdfParams, type KdfParamsV2 } from '@sealbox/crypto';
import type { Page } from 'playwright-core';
import { msUntilNextStep, totp } from './totp.ts';

let counter = 0;

/** A username unique within a run (3-20 characters). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}`.slice(0, 20);
}

export interface TestUser {
  id: string;
  username: string;
  password: string;
  /** Base32 TOTP secret when two-factor authentication was turned on. */
  totpSecret?: string;
}

async function json(response: Response, what: string): Promise<any> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

const STEP_MS = 30_000;
/**
 * Time a code may take from here to the server's check: typing, a click, and for turning TOTP off
 * an argon2id in the browser and a password check on the server, on a loaded CI machine.
 */
const IN_FLIGHT_MS = 15_000;

/**
 * A code for a step later than `afterStep` (the server takes each step once, and only later ones)
 * that the server still accepts when it checks: it allows one step either side of its clock. So
 * three codes in a row (steps now-1, now, now+1) need no wait; only a fourth would wait a step.
 */
export async function freshCode(secret: string, afterStep?: number): Promise<{ code: string; step: number }> {
  for (;;) {
    const now = Date.now();
    const oldestAccepted = Math.floor((now + IN_FLIGHT_MS) / STEP_MS) - 1;
    const newestAccepted = Math.floor(now / STEP_MS) + 1;
    const step = Math.max(oldestAccepted, afterStep === undefined ? oldestAccepted : afterStep + 1);
    if (step <= newestAccepted) return { code: await totp(secret, step * STEP_MS), step };
    await Bun.sleep(msUntilNextStep(now) + 250);
  }
}

/**
 * The password keys of accounts made by `createUser`: version 2 at the floor every server and
 * client accept (docs/protocol.md "Account"). A journey that is not about the KDF then spends
 * about 60 ms on each sign-in's argon2id, not the default's 300 ms and more, and the first sign-in
 * in a browser has no version-1 account to upgrade. Journeys about the KDF pass their own.
 */
export const TEST_KDF: KdfParamsV2 = Object.freeze({
  version: 2,
  argon2id: Object.freeze({ iterations: 2, memoryKiB: 19 * 1024, parallelism: 1, hashLength: 32 }),
});

export async function createUser(
  baseUrl: string,
  options: { username?: string; password?: string; totp?: boolean; kdf?: KdfParams | KdfParamsV2 } = {},
): Promise<TestUser> {
  const username = options.username ?? uniqueName('user');
  const password = options.password ?? 'correct horse battery';
  const { registration } = await createAccount(password, options.kdf ?? TEST_KDF);
  const { id } = await json(
    await fetch(`${baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: null, ...registration }),
    }),
    'register',
  );
  const user: TestUser = { id, username, password };
  if (!options.totp) return user;

  const lookup = await json(await fetch(`${baseUrl}/api/users/search/${encodeURIComponent(username)}?limit=1`), 'lookup');
  const hash = await deriveLoginPassword(password, lookup[0].passwordSalt, lookup[0].kdf as KdfParams);
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: hash }),
  });
  await json(login, 'login');
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const put = (body: unknown) =>
    fetch(`${baseUrl}/api/totp`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
  const { secret } = await json(await put({ action: 'setup', password: hash }), 'totp setup');
  await json(await put({ action: 'confirm', code: (await freshCode(secret)).code }), 'totp confirm');
  await fetch(`${baseUrl}/api/logout`, { method: 'POST', headers: { cookie } });
  return { ...user, totpSecret: secret };
}

/** Fills the sign-in form and clicks Sign in (does not wait for the outcome). */
export async function submitLogin(page: Page, user: Pick<TestUser, 'username' | 'password'>): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through /login and waits to land on `landing` (default /files). */
export async function loginViaUi(page: Page, baseUrl: string, user: TestUser, landing = '/files'): Promise<void> {
  if (new URL(page.url(), baseUrl).pathname !== '/login') await page.goto(`${baseUrl}/login`);
  await submitLogin(page, user);
  await page.waitForURL((url) => url.pathname === landing, { timeout: 30_000 });
}

/** How many account records the crypto worker keeps in IndexedDB (same origin as the page). */
export function storedKeyCount(page: Page): Promise<number> {
  return page.evaluate(async () => {
    // Opening a database that does not exist would create it: look first.
    if (!(await indexedDB.databases()).some((db) => db.name === 'sealbox-keys')) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('sealbox-keys');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('account')) {
          db.close();
          resolve(0);
          return;
        }
        const count = db.transaction('account', 'readonly').objectStore('account').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
  });
}

/** Waits until the crypto worker's IndexedDB holds `expected` account records (logout deletes them a moment after it navigates). */
export async function waitForKeyCount(page: Page, expected: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await storedKeyCount(page)) !== expected) {
    if (Date.now() > deadline)
      throw new Error(`IndexedDB still holds ${await storedKeyCount(page)} account records, expected ${expected}`);
    await Bun.sleep(50);
  }
}

/**
 * Logs out through the navbar and waits until it is done: the page reaches /home before the
 * session ends on the server, so a reload in that window would still hold the marker and meet
 * the 401 of the session being ended. Done means the Logout button is gone and the keys forgotten.
 */
export async function logoutViaNavbar(page: Page): Promise<void> {
  const banner = page.getByRole('banner');
  await banner.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/home');
  await banner.getByRole('button', { name: 'Logout' }).waitFor({ state: 'detached', timeout: 30_000 });
  await waitForKeyCount(page, 0);
}

/** Fills /register with `username` and `password` (twice) and clicks Register. */
export async function submitRegistration(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/register`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
}
