/**
 * bench/login: time from clicking "Sign in" to the unlocked account keys, in Chromium, through
 * the real UI against the real server (lookup, the password KDF in the crypto worker,
 * POST /api/login with the server's own verification, AES-GCM unwrap + key import + IndexedDB
 * store). Reads the performance marks the login page sets. Median of N runs (default 10),
 * logging out between runs.
 *
 * Two cases (docs/protocol.md "Account"): version 2, every sign-in of an account once upgraded
 * (one argon2id 64 MiB x 3, split by HKDF into login password and wrapping key); and the first
 * sign-in of a version-1 account, which also upgrades it (a fresh account per run).
 * Run: bun bench/login/run.ts [--runs=10] [--upgrade-runs=5] [--no-build] [--short]
 */
import { KDF_V1 } from '@sealbox/crypto';
import type { Page } from 'playwright-core';
import { numberArg, sized, withAppInChromium } from '../support.ts';
import { createUser, submitLogin, type TestUser } from '../../e2e/support/accounts.ts';

const TARGET_MS = 500;
const RUNS = numberArg('runs', sized(10, 1));
const UPGRADE_RUNS = numberArg('upgrade-runs', sized(5, 1));

interface Run {
  total: number;
  lookup: number;
  argon2id: number;
  server: number;
  unlock: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const fmt = (ms: number) => `${ms.toFixed(0).padStart(4)} ms`;

async function kdfVersion(baseUrl: string, username: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/users/search/${encodeURIComponent(username)}?limit=1`);
  return ((await response.json()) as Array<{ kdf: { version: number } }>)[0]!.kdf.version;
}

/** One sign-in through the page, timed by its marks; logs out afterwards. */
async function signInOnce(page: Page, baseUrl: string, user: TestUser): Promise<Run> {
  await page.goto(`${baseUrl}/login`);
  // As a person would: the page warms the worker while they type.
  await page.waitForFunction(() => performance.getEntriesByName('login:warm').length > 0, undefined, { timeout: 30_000 });
  await submitLogin(page, user);
  await page.waitForFunction(() => performance.getEntriesByName('login:unlocked').length > 0, undefined, { timeout: 30_000 });
  const run = await page.evaluate(() => {
    const at = (name: string) => performance.getEntriesByName(name).at(-1)!.startTime;
    const click = at('login:click');
    return {
      total: at('login:unlocked') - click,
      lookup: at('login:deriving') - click,
      argon2id: at('login:signing-in') - at('login:deriving'),
      server: at('login:unlocking') - at('login:signing-in'),
      unlock: at('login:unlocked') - at('login:unlocking'),
    };
  });
  await page.waitForURL((url) => url.pathname === '/files', { timeout: 30_000 });
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/home', { timeout: 30_000 });
  return run;
}

function report(runs: Run[], label: string, target?: number): void {
  const m = (key: keyof Run) => median(runs.map((r) => r[key]));
  console.log(`med  ${fmt(m('total'))} ${fmt(m('lookup'))} ${fmt(m('argon2id'))} ${fmt(m('server'))} ${fmt(m('unlock'))}`);
  const client = m('total') - m('server');
  const verdict = target === undefined ? '' : ` (target ≤ ${target} ms: ${m('total') <= target ? 'met' : 'missed'})`;
  console.log(
    `${label}: median click → unlocked ${m('total').toFixed(0)} ms${verdict}; ` +
      `of which the server's POST /api/login ${m('server').toFixed(0)} ms, everything in the browser ${client.toFixed(0)} ms`,
  );
}

const row = (i: number, run: Run) =>
  `${String(i + 1).padStart(3)}  ${fmt(run.total)} ${fmt(run.lookup)} ${fmt(run.argon2id)} ${fmt(run.server)} ${fmt(run.unlock)}`;

async function main() {
  await withAppInChromium(async (page, server) => {
    // Version 2: an account made on version 1, upgraded by one
    // uncounted sign-in, then timed.
    const user = await createUser(server.url, { username: 'benchuser', kdf: KDF_V1 });
    await signInOnce(page, server.url, user);
    if ((await kdfVersion(server.url, user.username)) !== 2) throw new Error('the account was not upgraded to version 2');
    console.log(
      `login v2: click → unlocked keys, ${RUNS} runs (argon2id t=3 m=64 MiB p=1 once, HKDF login + wrap, RSA-4096 + Ed25519 import)`,
    );
    console.log('run   total   lookup  argon2id  server  unlock');
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await signInOnce(page, server.url, user));
      console.log(row(i, runs[i]!));
    }
    report(runs, 'v2', TARGET_MS);

    // The first sign-in of a version-1 account: v1 login hash and PBKDF2 unlock, then the
    // worker derives version 2 with a fresh salt, re-seals the bundle and PUT /api/account/kdf.
    console.log(
      `\nlogin v1 → v2 upgrade: first sign-in of a version-1 account, ${UPGRADE_RUNS} runs, a fresh account each ` +
        '(argon2id t=256 m=512 KiB + PBKDF2 120000; then argon2id 64 MiB x 3, re-seal, PUT /api/account/kdf: in "unlock")',
    );
    console.log('run   total   lookup  argon2id  server  unlock');
    const upgrades: Run[] = [];
    for (let i = 0; i < UPGRADE_RUNS; i++) {
      const fresh = await createUser(server.url, { kdf: KDF_V1 });
      upgrades.push(await signInOnce(page, server.url, fresh));
      if ((await kdfVersion(server.url, fresh.username)) !== 2) throw new Error('the account was not upgraded to version 2');
      console.log(row(i, upgrades[i]!));
    }
    report(upgrades, 'v1 → v2 (once per account)');
  });
}

await main();
