/**
 * Transfer journeys through the built web app and the real server (docs/product.md "Screens",
 * "States", "Input rules" and "Messages"; docs/protocol.md "Files and uploads" and "Threat table"):
 * encrypted uploads in parts with progress, a reload in the middle and a resume that sends only the
 * missing parts, downloads streamed to disk by the service worker (a file, and a folder as a zip),
 * the quota toast, and finally a scan of everything the server stored or logged for any plaintext
 * name, mime type or content that was uploaded.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { createUser, loginViaUi, type TestUser } from '../../support/accounts.ts';
import { contentNeedles, leaks, storedByServer, textNeedle, type Needle } from '../../support/leaks.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { startServer } from '../../support/server.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import {
  closeTransfers,
  downloadViaMenu,
  expectDownloadOf,
  pickFiles,
  pseudoRandom,
  sameBytes,
  transferRow,
  waitForSummary,
} from '../../support/transfers.ts';

const SLOW = 180_000;
const MIB = 1024 * 1024;
/** docs/protocol.md: 32 chunks of 256 KiB + 16 per part. */
const PART_BYTES = 32 * (262_144 + 16);

let user: TestUser;
let files: string;

/** Everything uploaded, to look for afterwards in what the server stored. */
const uploaded: Array<{ name: string; mime?: string; bytes?: Uint8Array }> = [];

function textBytes(marker: string, repeat: number): Uint8Array {
  return new TextEncoder().encode(`${marker}\n`.repeat(repeat));
}

const BIG_NAME = 'delta-fifty-mebibytes.bin';
const RESUME_NAME = 'epsilon-resumable-video.bin';
const smallFiles = [
  {
    name: 'alpha-secret-notes.txt',
    mimeType: 'text/x-sealbox-alpha',
    buffer: Buffer.from(textBytes('SEALBOX-PLAINTEXT-ALPHA the quick brown fox', 200)),
  },
  {
    name: 'beta ledger é.csv',
    mimeType: 'application/x-sealbox-beta',
    buffer: Buffer.from(textBytes('SEALBOX-PLAINTEXT-BETA,1,2,3', 30_000)),
  },
  { name: 'gamma-empty.dat', mimeType: 'application/x-sealbox-gamma', buffer: Buffer.alloc(0) },
];

/** SEALBOX_E2E_WEB_DIST points the server at another build of the web app (e.g. a patched one). */
function webDistEnv(): Record<string, string> {
  return process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {};
}

const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off', ...webDistEnv() } } });
const { newBrowser } = suite;

beforeAll(async () => {
  if (skipWithoutBrowser) return;
  files = await mkdtemp(join(tmpdir(), 'sealbox-transfers-'));
  const big = pseudoRandom(50 * MIB, 0x5ea1b0c5);
  await writeFile(join(files, BIG_NAME), big);
  uploaded.push({ name: BIG_NAME, bytes: big });
  const resumable = pseudoRandom(50 * MIB + 12_345, 0x0badf00d);
  await writeFile(join(files, RESUME_NAME), resumable);
  uploaded.push({ name: RESUME_NAME, bytes: resumable });
  for (const f of smallFiles) uploaded.push({ name: f.name, mime: f.mimeType, bytes: new Uint8Array(f.buffer) });
  user = await createUser(suite.server.url);
}, SLOW);

afterAll(async () => {
  if (files) await rm(files, { recursive: true, force: true });
}, SLOW);

const at = (path: string) => `${suite.server.url}${path}`;
const overlay = (page: Page) => page.getByRole('dialog', { name: 'Upload files' });
const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text, { exact: true });
const fileRow = (page: Page, name: string) => page.locator('.file-row', { has: page.getByText(name, { exact: true }) });
const download = downloadViaMenu;

async function openOverlay(page: Page) {
  await page.getByRole('button', { name: 'Upload File' }).click();
  await overlay(page).waitFor();
  await overlay(page).getByText('Max File Size: 1GB', { exact: true }).waitFor();
}

describe.skipIf(skipWithoutBrowser)('transfers', () => {
  test(
    'uploads several files and one of 50 MiB with progress; they are there after a reload; a file downloads byte for byte',
    async () => {
      const page = await newBrowser();
      await loginViaUi(page, suite.server.url, user);
      await openOverlay(page);
      // docs/product.md "Input rules": nothing picked yet, and the dialog says so.
      await overlay(page).getByText('No file selected.', { exact: true }).waitFor();
      await overlay(page).getByRole('button', { name: 'Close', exact: true }).first().click();

      // Progress is visible on the big one while it goes up. On a quick machine the whole upload
      // takes well under a second, too short to poll for: the page records every state it shows.
      await page.evaluate((name) => {
        const seen = new Set<string>();
        (window as unknown as { __bigRowSeen: Set<string> }).__bigRowSeen = seen;
        new MutationObserver(() => {
          const row = [...document.querySelectorAll('.transfer-row')].find((r) => r.textContent?.includes(name));
          if (!row) return;
          const state = row.querySelector('.transfer-row__state')?.textContent;
          if (state) seen.add(state);
          const value = Number(row.querySelector('progress')?.getAttribute('value'));
          if (value > 0 && value < 100) seen.add('partial progress');
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      }, BIG_NAME);
      // Picked files start at once (issue 14): the transfers panel takes over from the dialog.
      await pickFiles(page, smallFiles);
      await pickFiles(page, join(files, BIG_NAME));
      await saveScreenshot(page, 'transfers-panel-during-1280', { fullPage: false });

      const bigRow = transferRow(page, BIG_NAME);
      await waitForSummary(page, 'All 4 files uploaded successfully!', 120_000);
      expect(await bigRow.locator('progress').getAttribute('value')).toBe('100');
      const seen = await page.evaluate(() => [...(window as unknown as { __bigRowSeen: Set<string> }).__bigRowSeen]);
      expect(seen).toEqual(expect.arrayContaining(['Encrypting...', 'Uploading...', 'partial progress']));
      await saveScreenshot(page, 'transfers-panel-after-1280', { fullPage: false });
      await page.setViewportSize({ width: 375, height: 800 });
      await saveScreenshot(page, 'transfers-panel-after-375', { fullPage: false });
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.reload();
      for (const f of [...smallFiles.map((s) => s.name), BIG_NAME]) await fileRow(page, f).waitFor({ timeout: 30_000 });

      const alpha = await expectDownloadOf(page, smallFiles[0]!.name, new Uint8Array(smallFiles[0]!.buffer));
      expect(alpha.suggestedFilename()).toBe(smallFiles[0]!.name);

      const empty = await download(page, smallFiles[2]!.name);
      expect(empty.bytes.length).toBe(0);

      const big = await expectDownloadOf(page, BIG_NAME, uploaded.find((u) => u.name === BIG_NAME)!.bytes!);
      expect(big.suggestedFilename()).toBe(BIG_NAME);
    },
    SLOW,
  );

  test(
    'an upload interrupted by a reload resumes after the same file is picked again, sending only the missing parts',
    async () => {
      const page = await newBrowser({ width: 375 });
      await loginViaUi(page, suite.server.url, user);
      const bytes = uploaded.find((u) => u.name === RESUME_NAME)!.bytes!;
      const total = Math.ceil((bytes.length + 16 * Math.ceil(bytes.length / 262_144)) / PART_BYTES);

      const stored = new Set<number>();
      const sentAfterReload: number[] = [];
      let reloaded = false;
      let counting = false;
      const partOf = (url: string) => Number(/\/api\/upload\/[0-9a-f-]+\/part\/(\d+)$/.exec(new URL(url).pathname)?.[1] ?? NaN);
      let uploadId = '';
      page.on('requestfinished', async (request) => {
        if (request.method() !== 'PUT' || Number.isNaN(partOf(request.url()))) return;
        uploadId = /\/api\/upload\/([0-9a-f-]+)\//.exec(request.url())![1]!;
        const response = await request.response();
        if (!reloaded && response?.status() === 204) stored.add(partOf(request.url()));
      });
      page.on('request', (request) => {
        if (counting && request.method() === 'PUT' && !Number.isNaN(partOf(request.url())))
          sentAfterReload.push(partOf(request.url()));
      });

      // Slow the parts down so the reload lands in the middle; while the page reloads, the old
      // page's parts are cut off (as a closing tab would), so the upload cannot finish meanwhile.
      let phase: 'uploading' | 'reloading' | 'resumed' = 'uploading';
      await page.route('**/api/upload/*/part/*', async (route) => {
        if (phase === 'uploading') await new Promise((r) => setTimeout(r, 400));
        if (phase === 'reloading') return route.abort();
        await route.continue();
      });

      await pickFiles(page, join(files, RESUME_NAME));
      await transferRow(page, RESUME_NAME).getByText('Uploading...', { exact: true }).waitFor({ timeout: 60_000 });
      await saveScreenshot(page, 'transfers-panel-during-375', { fullPage: false });
      for (const deadline = Date.now() + 60_000; stored.size < 2; ) {
        if (Date.now() > deadline) throw new Error('no part was stored before the reload');
        await Bun.sleep(50);
      }
      reloaded = true;
      phase = 'reloading';
      const before = new Set(stored);
      expect(before.size).toBeLessThan(total);
      await page.reload();
      phase = 'resumed';
      counting = true;
      // What the server holds after the reload (parts cut off mid-way may or may not be among them).
      const status = await page.request.get(at(`/api/upload/${uploadId}`));
      expect(status.status()).toBe(200);
      const { received, parts } = (await status.json()) as { received: number[]; parts: number };
      expect(parts).toBe(total);
      for (const n of before) expect(received).toContain(n);
      expect(received.length).toBeLessThan(total);

      await openOverlay(page);
      const pending = overlay(page).getByRole('region', { name: 'Unfinished uploads' });
      await pending.getByText(RESUME_NAME, { exact: true }).waitFor({ timeout: 30_000 });
      await saveScreenshot(page, 'transfers-overlay-resume-375', { fullPage: false });
      const chooser = page.waitForEvent('filechooser');
      await pending.getByRole('button', { name: `Resume ${RESUME_NAME}` }).click();
      await (await chooser).setFiles(join(files, RESUME_NAME));
      // The dialog closes and the panel shows the resumed upload (issue 14).
      await overlay(page).waitFor({ state: 'hidden' });
      await waitForSummary(page, '1 file uploaded successfully!', 120_000);
      await transferRow(page, RESUME_NAME).getByText('Uploaded (resumed)').waitFor();

      // Exactly the parts the server lacked went up again, each once.
      const missing = Array.from({ length: total }, (_, n) => n).filter((n) => !received.includes(n));
      expect([...sentAfterReload].sort((a, b) => a - b)).toEqual(missing);

      await page.unroute('**/api/upload/*/part/*');
      await page.reload();
      await fileRow(page, RESUME_NAME).waitFor({ timeout: 30_000 });
      await expectDownloadOf(page, RESUME_NAME, bytes);
    },
    SLOW,
  );

  test(
    'a folder downloads as a zip with every file byte for byte',
    async () => {
      const page = await newBrowser();
      await loginViaUi(page, suite.server.url, user);
      const makeFolder = async (name: string) => {
        await page.getByRole('button', { name: 'New Folder' }).first().click();
        const dialog = page.getByRole('dialog', { name: 'Create folder' });
        await dialog.getByLabel('Folder name').fill(name);
        await dialog.getByRole('button', { name: 'Create' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await page.locator('.file-row', { has: page.getByRole('button', { name, exact: true }) }).waitFor();
      };
      const enter = async (name: string) => {
        await page.getByRole('button', { name, exact: true }).click();
        await page.waitForURL((url) => url.searchParams.has('parentId'));
      };
      const put = async (chosen: Array<{ name: string; mimeType: string; buffer: Buffer }>) => {
        await pickFiles(page, chosen);
        // The product's text for two or more, the singular for one (docs/web-files.md "Feedback").
        const n = chosen.length;
        await waitForSummary(page, n === 1 ? '1 file uploaded successfully!' : `All ${n} files uploaded successfully!`);
        await closeTransfers(page);
      };
      const inner = [
        {
          name: 'zeta-report.txt',
          mimeType: 'text/x-sealbox-zeta',
          buffer: Buffer.from(textBytes('SEALBOX-PLAINTEXT-ZETA', 5000)),
        },
        { name: 'eta-image.raw', mimeType: 'application/x-sealbox-eta', buffer: Buffer.from(pseudoRandom(9 * MIB, 7)) },
      ];
      const deeper = [
        {
          name: 'theta-deep.txt',
          mimeType: 'text/x-sealbox-theta',
          buffer: Buffer.from(textBytes('SEALBOX-PLAINTEXT-THETA', 100)),
        },
      ];
      for (const f of [...inner, ...deeper]) uploaded.push({ name: f.name, mime: f.mimeType, bytes: new Uint8Array(f.buffer) });
      uploaded.push({ name: 'Project Iota' }, { name: 'Nested Kappa' });

      await makeFolder('Project Iota');
      await enter('Project Iota');
      await put(inner);
      await makeFolder('Nested Kappa');
      await enter('Nested Kappa');
      await put(deeper);
      await page.goto(at('/files'));

      const { download: zip, bytes } = await download(page, 'Project Iota');
      expect(zip.suggestedFilename()).toBe('Project Iota.zip');
      const entries = unzipSync(bytes);
      expect(Object.keys(entries).sort()).toEqual(
        [
          'Project Iota/',
          'Project Iota/Nested Kappa/',
          'Project Iota/Nested Kappa/theta-deep.txt',
          'Project Iota/eta-image.raw',
          'Project Iota/zeta-report.txt',
        ].sort(),
      );
      for (const f of inner) expect(sameBytes(entries[`Project Iota/${f.name}`]!, new Uint8Array(f.buffer))).toBe(true);
      expect(sameBytes(entries['Project Iota/Nested Kappa/theta-deep.txt']!, new Uint8Array(deeper[0]!.buffer))).toBe(true);
    },
    SLOW,
  );

  test(
    'over quota: the upload fails with "Not enough storage space"',
    async () => {
      const small = await startServer({ env: { RATE_LIMITS: 'off', DEFAULT_QUOTA_BYTES: String(1 * MIB), ...webDistEnv() } });
      let page: Page | undefined;
      try {
        const owner = await createUser(small.url);
        page = await newBrowser({ expectHttpErrors: [{ status: 402, path: '/api/upload' }] });
        await loginViaUi(page, small.url, owner);
        await pickFiles(page, [
          { name: 'lambda-too-big.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(pseudoRandom(2 * MIB, 3)) },
        ]);
        await waitForSummary(page, '1 file failed to upload. Check errors below.');
        // With used, free, total and needed (docs/web-files.md "Feedback"), in the row and its toast.
        const said = await transferRow(page, 'lambda-too-big.bin').getByRole('alert').textContent();
        expect(said).toMatch(
          /^Not enough storage space: [\d.]+ (B|KiB|MiB) used, [\d.]+ (B|KiB|MiB) free of 1\.0 MiB; this file needs 2\.0 MiB$/,
        );
        await toast(page, said!).waitFor({ timeout: 30_000 });
        await saveScreenshot(page, 'transfers-panel-quota-1280', { fullPage: false });
      } finally {
        // Leave the app first: a page still open would see its live socket refused once the
        // server stops (a console error the suite counts), depending on timing.
        await page?.goto('about:blank').catch(() => undefined);
        await small.stop();
      }
    },
    SLOW,
  );

  test(
    'nothing the server stored or logged holds an uploaded name, mime type or content',
    async () => {
      expect(uploaded.length).toBeGreaterThan(5);
      const stored = await storedByServer(suite.server);
      expect(stored.some((s) => s.path.includes('blobs'))).toBe(true);
      expect(stored.reduce((n, s) => n + s.bytes.length, 0)).toBeGreaterThan(100 * MIB);

      const needles: Needle[] = [];
      for (const u of uploaded) {
        needles.push(textNeedle(`name ${u.name}`, u.name));
        if (u.mime) needles.push(textNeedle(`mime ${u.mime}`, u.mime));
        if (u.bytes && u.bytes.length >= 64) needles.push(...contentNeedles(`content of ${u.name}`, u.bytes));
      }
      const found = leaks(stored, needles);
      expect(found).toEqual([]);
    },
    SLOW,
  );
});
