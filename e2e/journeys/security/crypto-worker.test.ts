/**
 * The crypto package runs unchanged inside a Chromium Web Worker: every known-answer vector and
 * runtime check passes there, as it does under Bun (packages/crypto/test).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import { serveWorkerPage, type WorkerPage } from '../../support/worker-page.ts';
import { vectorChecks } from '../../../packages/crypto/test/vector-checks.ts';
import { runtimeChecks } from '../../../packages/crypto/test/runtime-checks.ts';
import type { CheckOutcome } from '../../../packages/crypto/test/browser/checks-worker.ts';

let context: BrowserContext | undefined;
let server: WorkerPage;
let page: Page;

beforeAll(async () => {
  server = await serveWorkerPage(new URL('../../../packages/crypto/test/browser/checks-worker.ts', import.meta.url).pathname);
  context = await launchBrowser();
  if (!context) return;
  page = await context.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await server?.stop();
});

test('every crypto check passes inside a Chromium Web Worker', async () => {
  if (!context) return;
  const result = (await page.evaluate(() =>
    (window as unknown as { callWorker: (i: number, m: unknown) => Promise<unknown> }).callWorker(0, 'run'),
  )) as { outcomes: CheckOutcome[]; isWorker: boolean };
  expect(result.isWorker).toBe(true);
  const names = result.outcomes.map((o) => o.name);
  expect(names).toEqual([...vectorChecks, ...runtimeChecks].map((c) => c.name));
  // The recovery phrase is derived and sealed in the browser too (vectors sealbox-recovery.json).
  expect(names.some((n) => n.startsWith('recovery phrase'))).toBe(true);
  expect(names.some((n) => n.startsWith('recovery copy'))).toBe(true);
  const failures = result.outcomes.filter((o) => !o.ok);
  expect(failures).toEqual([]);
  const ua = await page.evaluate(() => navigator.userAgent);
  expect(ua).toContain('Chrome/');
}, 120_000);
