/**
 * The server as the adversary (issue 15, docs/protocol.md "Threat table"): the app runs in
 * Chromium against the real server, and route interception (support/hostile.ts) rewrites the
 * server's answers on their way to the page, its crypto worker and the download service worker.
 * Items are made through the API with the real crypto package. Each test is one attack class; in
 * each, nothing the server altered is shown as genuine, and no altered byte is saved or shown.
 *
 * Sharing's classes live where sharing is driven: a recipient's public key swapped while sharing
 * (e2e/journeys/sharing/sharing-journey.test.ts), an unsigned or re-targeted grant
 * (e2e/journeys/sharing/shared.test.ts), and a version-1 claim for a version-2 account
 * (e2e/journeys/accounts/kdf-upgrade.test.ts).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { KDF_V2, newItemKey, toBase64Url } from '@sealbox/crypto';
import { createUser, loginViaUi, submitLogin, type TestUser } from '../../support/accounts.ts';
import {
  apiCreateFolder,
  apiUploadFile,
  apiUserWithFolder,
  fileMetadata,
  folderMetadata,
  signInToFiles,
  type ApiFolder,
  type ApiSession,
} from '../../support/files.ts';
import { CIPHER_CHUNK, chunkTamperings, rewriteData, rewriteListings, type ListedItem } from '../../support/hostile.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import {
  ROW_INTEGRITY,
  body,
  byId,
  expectRefusedDownload,
  expectRefusedPreview,
  itemOf,
  listing,
  menuDownload,
  refusedRows,
  savedDownload,
  swap,
  text,
  toast,
} from './hostile-pages.ts';

const SLOW = 120_000;
const CHUNK = 262_144;
/** SEALBOX_E2E_WEB_DIST points the server at another build of the web app (e.g. one with a rule removed). */
const webDist: Record<string, string> = process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {};

const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off', ...webDist } } });

let owner: TestUser;
let session: ApiSession;
let vault: ApiFolder;
let inner: ApiFolder;
let other: ApiFolder;
let alpha: ApiFolder;
let beta: ApiFolder;
let notes: ApiFolder;
let otherFile: ApiFolder;
let alphaBytes: Uint8Array;
let betaCipher: Buffer;

const vaultUrl = () => `${suite.server.url}/files?parentId=${vault.id}&sortBy=name&sortOrder=asc`;

async function ownerPage(): Promise<Page> {
  return suite.signedIn(owner);
}

async function openVault(page: Page, wait = 'notes.md'): Promise<void> {
  await page.goto(vaultUrl());
  await body(page).getByText(wait, { exact: true }).first().waitFor();
}

describe.skipIf(skipWithoutBrowser)('a hostile server', () => {
  beforeAll(async () => {
    ({ user: owner, session, folder: vault } = await apiUserWithFolder(suite.server.url, 'Vault'));
    other = await apiCreateFolder(session, null, 'Other');
    inner = await apiCreateFolder(session, vault, 'Inner');
    // Four chunks each: three whole and a short last one.
    alphaBytes = text('ALPHA', 3 * CHUNK + 1000);
    alpha = await apiUploadFile(session, vault, 'alpha-ledger.txt', alphaBytes, 'text/plain');
    beta = await apiUploadFile(session, vault, 'beta-diary.txt', text('BETA', 3 * CHUNK + 500), 'text/plain');
    notes = await apiUploadFile(session, vault, 'notes.md', text('NOTES', 300), 'text/markdown');
    await apiUploadFile(session, inner, 'inner-plan.txt', text('INNER', 200), 'text/plain');
    otherFile = await apiUploadFile(session, other, 'other-secret.txt', text('OTHER', 400), 'text/plain');
    const response = await fetch(`${session.baseUrl}/api/file/data/${beta.id}`, { headers: { cookie: session.cookie } });
    betaCipher = Buffer.from(await response.arrayBuffer());
  }, SLOW);

  test(
    'names or mime types swapped between items: neither opens, and each row says why',
    async () => {
      const page = await suite.newBrowser();
      await rewriteListings(page.context(), (answer) => {
        const [a, b, n] = [byId(answer, alpha.id), byId(answer, beta.id), byId(answer, notes.id)];
        if (a && b) swap(a, b, ['encryptedFileName', 'nameNonce']);
        if (a && n) swap(a, n, ['encryptedMimeType', 'mimeTypeNonce']);
        return answer;
      });
      await signInToFiles(page, suite.server.url, owner);
      await page.goto(vaultUrl());
      await body(page).getByText('Inner', { exact: true }).waitFor();
      // alpha had its name and mime swapped, beta its name, notes its mime: none opens.
      await refusedRows(page).nth(2).waitFor();
      expect(await refusedRows(page).count()).toBe(3);
      expect(await refusedRows(page).first().getAttribute('title')).toBe(`Encrypted File: ${ROW_INTEGRITY}`);
      for (const name of ['alpha-ledger.txt', 'beta-diary.txt', 'notes.md']) {
        expect(await body(page).getByText(name, { exact: true }).count()).toBe(0);
      }
    },
    SLOW,
  );

  test(
    "a wrapped key moved to another item's id, or from another folder, opens nothing",
    async () => {
      const page = await suite.newBrowser();
      const fromOther = await itemOf(session, other.id, otherFile.id);
      await rewriteListings(page.context(), (answer) => {
        const [a, b, n] = [byId(answer, alpha.id), byId(answer, beta.id), byId(answer, notes.id)];
        // beta gets alpha's wrapped key (same parent, another id); notes gets the key of a file
        // in another folder.
        if (a && b) Object.assign(b, { encryptedKey: a.encryptedKey, keyNonce: a.keyNonce });
        if (n) Object.assign(n, { encryptedKey: fromOther.encryptedKey, keyNonce: fromOther.keyNonce });
        return answer;
      });
      await signInToFiles(page, suite.server.url, owner);
      await page.goto(vaultUrl());
      await body(page).getByText('alpha-ledger.txt', { exact: true }).waitFor();
      await refusedRows(page).nth(1).waitFor();
      expect(await refusedRows(page).count()).toBe(2);
      expect(await body(page).getByText('beta-diary.txt', { exact: true }).count()).toBe(0);
      expect(await body(page).getByText('notes.md', { exact: true }).count()).toBe(0);
      expect(await body(page).getByText('other-secret.txt', { exact: true }).count()).toBe(0);
    },
    SLOW,
  );

  test(
    'an item moved in the listing under a parent it was not wrapped for opens nothing',
    async () => {
      const page = await suite.newBrowser();
      const moved = await itemOf(session, other.id, otherFile.id);
      const innerItem = await itemOf(session, vault.id, inner.id);
      await rewriteListings(page.context(), (answer, url) => {
        const id = url.searchParams.get('id');
        // other-secret.txt listed inside Vault; Inner listed at the top level.
        if (id === vault.id) answer.files.push({ ...moved, parentId: vault.id });
        if (id === null && !url.searchParams.has('linkId')) answer.files.push({ ...innerItem, parentId: null });
        return answer;
      });
      await signInToFiles(page, suite.server.url, owner);
      await body(page).getByText('Vault', { exact: true }).waitFor();
      await body(page).locator(`[title="Encrypted directory: ${ROW_INTEGRITY}"]`).waitFor();
      expect(await body(page).getByText('Inner', { exact: true }).count()).toBe(0);

      await openVault(page);
      await refusedRows(page).first().waitFor();
      expect(await refusedRows(page).count()).toBe(1);
      expect(await body(page).getByText('other-secret.txt', { exact: true }).count()).toBe(0);
    },
    SLOW,
  );

  test(
    'a file and a folder planted with keys the server made up are shown as not opened, and a zip leaves them out',
    async () => {
      const page = await suite.newBrowser();
      // The server knows no folder key: it wraps its own K under a key it made up. Each planted
      // item takes the rest of its listed form (size, dates, owner) from a real one of its kind.
      const listedFile = await itemOf(session, vault.id, notes.id);
      const listedFolder = await itemOf(session, vault.id, inner.id);
      const file = await fileMetadata(newItemKey(), vault.id, 'planted-file.txt', 'text/plain', listedFile.size);
      const folder = await folderMetadata(newItemKey(), vault.id, 'planted-folder');
      const planted: ListedItem[] = [
        { ...listedFile, ...file.metadata },
        { ...listedFolder, ...folder.metadata },
      ];
      await rewriteListings(page.context(), (answer, url) => {
        if (url.searchParams.get('id') === vault.id) answer.files.push(...planted);
        return answer;
      });
      await signInToFiles(page, suite.server.url, owner);
      await openVault(page);
      await refusedRows(page).nth(1).waitFor();
      expect(await refusedRows(page).count()).toBe(2);
      expect(
        await body(page)
          .getByText(/^planted/)
          .count(),
      ).toBe(0);

      // The folder as a zip: everything that opened, nothing planted.
      await page.goto(`${suite.server.url}/files`);
      const started = page.waitForEvent('download', { timeout: 30_000 });
      await menuDownload(page, 'Vault');
      const download = await started;
      expect(await download.failure()).toBeNull();
      const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
      const names = Object.keys(zip).sort();
      expect(names).toEqual([
        'Vault/',
        'Vault/Inner/',
        'Vault/Inner/inner-plan.txt',
        'Vault/alpha-ledger.txt',
        'Vault/beta-diary.txt',
        'Vault/notes.md',
      ]);
      expect(Buffer.compare(Buffer.from(zip['Vault/alpha-ledger.txt']!), Buffer.from(alphaBytes))).toBe(0);
    },
    SLOW,
  );

  test(
    'chunks reordered, dropped, duplicated, spliced from another file, truncated at a chunk boundary or flipped: download, zip and preview each fail visibly',
    async () => {
      const page = await ownerPage();
      let tamper: ((blob: Buffer) => Buffer) | undefined;
      const rewritten = await rewriteData(page.context(), alpha.id, (blob) => (tamper ? tamper(blob) : blob));
      await openVault(page);
      // Untouched, it downloads byte for byte (the routes themselves change nothing).
      expect(Buffer.compare(Buffer.from(await savedDownload(page, 'alpha-ledger.txt')), Buffer.from(alphaBytes))).toBe(0);
      for (const [how, change] of Object.entries(chunkTamperings(betaCipher))) {
        tamper = change;
        const before = rewritten();
        await expectRefusedDownload(page, 'alpha-ledger.txt');
        expect(rewritten(), how).toBeGreaterThan(before);
      }

      // The previewer shows the product's error and none of the text, whichever way the chunks were
      // changed.
      for (const [how, change] of Object.entries(chunkTamperings(betaCipher))) {
        tamper = change;
        await expectRefusedPreview(page, 'alpha-ledger.txt', how);
      }

      // A zip of the folder holding it fails the same way.
      await page.goto(`${suite.server.url}/files`);
      await body(page).getByText('Vault', { exact: true }).waitFor();
      for (const [how, change] of Object.entries(chunkTamperings(betaCipher))) {
        tamper = change;
        const before = rewritten();
        await expectRefusedDownload(page, 'Vault');
        expect(rewritten(), how).toBeGreaterThan(before);
      }
    },
    SLOW,
  );

  test(
    'fix: a listing that claims one chunk fewer (or more) than the blob holds fails the download instead of saving it, and the preview',
    async () => {
      const page = await ownerPage();
      let delta = -CIPHER_CHUNK;
      await rewriteListings(page.context(), (answer) => {
        for (const item of [...answer.files, ...(answer.root ? [answer.root] : [])]) {
          if (item.id === alpha.id) item.size += delta;
        }
        return answer;
      });
      await openVault(page);
      await expectRefusedDownload(page, 'alpha-ledger.txt');
      await expectRefusedPreview(page, 'alpha-ledger.txt', 'a chunk fewer');
      delta = CIPHER_CHUNK;
      await page.reload();
      await body(page).getByText('alpha-ledger.txt', { exact: true }).waitFor();
      await expectRefusedDownload(page, 'alpha-ledger.txt');
      await expectRefusedPreview(page, 'alpha-ledger.txt', 'a chunk more');
    },
    SLOW,
  );

  test(
    'fix: the download uses only an item the current listing opened, never a key kept from an earlier listing',
    async () => {
      const page = await ownerPage();
      await openVault(page);
      await body(page).getByText('alpha-ledger.txt', { exact: true }).waitFor();
      // The crypto worker now holds alpha's K. The listing fetched for the download moves beta's
      // wrapped key onto alpha: that listing does not open alpha, so nothing is downloaded.
      const betaItem = await itemOf(session, vault.id, beta.id);
      await rewriteListings(page.context(), (answer, url) => {
        if (url.searchParams.get('id') !== alpha.id || !answer.root) return answer;
        Object.assign(answer.root, { encryptedKey: betaItem.encryptedKey, keyNonce: betaItem.keyNonce });
        return answer;
      });
      await expectRefusedDownload(page, 'alpha-ledger.txt');
      // The same holds for a folder: its own key must open in the listing fetched for the zip.
      const vaultItem = await itemOf(session, null, vault.id);
      await rewriteListings(page.context(), (answer, url) => {
        if (url.searchParams.get('id') !== vault.id || url.searchParams.get('depth') !== '20' || !answer.root) return answer;
        Object.assign(answer.root, {
          encryptedKey: (vaultItem.encryptedKey as string).replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        });
        return answer;
      });
      await page.goto(`${suite.server.url}/files`);
      await body(page).getByText('Vault', { exact: true }).waitFor();
      await expectRefusedDownload(
        page,
        'Vault',
        'Unable to download folder. Its data failed its integrity check, so the download stopped; trying again will not help while the server sends the same data.',
      );
    },
    SLOW,
  );

  test(
    'KDF parameters below the minimum, or absurdly above it, in the login lookup are refused before anything is derived or sent',
    async () => {
      // The baseline, in this test: a real sign-in of an account on the app's default parameters.
      // A refusal before anything is derived takes less (a wall-clock limit fails on a busy
      // machine); deriving 1 GiB first would take many times more.
      const user = await createUser(suite.server.url, { kdf: KDF_V2 });
      const honest = await suite.newBrowser();
      await honest.goto(`${suite.server.url}/login`);
      const signInStarted = Date.now();
      await loginViaUi(honest, suite.server.url, user);
      const signInMs = Date.now() - signInStarted;
      const lookup = await fetch(`${suite.server.url}/api/users/search/${user.username}?limit=1`);
      const real = ((await lookup.json()) as Array<{ kdf: { argon2id: Record<string, number> } }>)[0]!.kdf;
      const cases: Array<[number, string]> = [
        [1024, 'Login failed. The server asked for weaker password protection than this app accepts.'],
        [1 << 20, 'Login failed. The server sent malformed account data.'],
      ];
      for (const [memoryKiB, message] of cases) {
        const page = await suite.newBrowser();
        let logins = 0;
        await page.route('**/api/users/search/**', async (route) => {
          const response = await route.fetch();
          const answer = (await response.json()) as Array<Record<string, unknown>>;
          const kdf = { ...real, argon2id: { ...real.argon2id, memoryKiB } };
          await route.fulfill({ response, json: answer.map((entry) => ({ ...entry, kdf })) });
        });
        await page.route('**/api/login', async (route) => {
          logins += 1;
          await route.continue();
        });
        await page.goto(`${suite.server.url}/login`);
        const started = Date.now();
        await submitLogin(page, user);
        await toast(page, message).waitFor({ timeout: 60_000 });
        expect(Date.now() - started).toBeLessThan(2 * signInMs);
        expect(logins).toBe(0);
        expect(new URL(page.url()).pathname).toBe('/login');
      }
    },
    SLOW,
  );

  test(
    "a link visitor fed another item's listing sees nothing of it",
    async () => {
      const response = await fetch(`${session.baseUrl}/api/share`, {
        method: 'POST',
        headers: { cookie: session.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'link', id: vault.id, expires: 0, password: null, edit: false }),
      });
      expect(response.ok).toBe(true);
      const { linkId } = (await response.json()) as { linkId: string };
      const url = `${suite.server.url}/share?linkId=${linkId}#${toBase64Url(vault.key)}`;

      // Untouched, the visitor sees the folder.
      const fair = await suite.newBrowser();
      await fair.goto(url);
      await body(fair).getByText('alpha-ledger.txt', { exact: true }).waitFor();

      // The server answers every listing of the link with Other's (a folder the link does not reach).
      const replayed = await listing(session, other.id);
      const page = await suite.newBrowser();
      await rewriteListings(page.context(), (answer, at) => (at.searchParams.has('linkId') ? structuredClone(replayed) : answer));
      await page.goto(url);
      await refusedRows(page).first().waitFor({ timeout: 30_000 });
      expect(await page.getByText('other-secret.txt').count()).toBe(0);
      expect(await page.getByText('Other', { exact: true }).count()).toBe(0);
    },
    SLOW,
  );
});
