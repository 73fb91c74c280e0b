/**
 * Smoke journeys through the built web app served by the real server, under its
 * real CSP. Needs apps/web/dist: the root test script builds it first; by hand,
 * run `bun run --cwd apps/web build` before `bun test e2e`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import { watchPageProblems, type ExpectedHttpError } from '../../support/page-problems.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { startServer, type RunningServer } from '../../support/server.ts';
import { skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 60_000;
const ABOUT_TITLES = [
  'About',
  'Privacy and Security First',
  'Seamless and Secure File Sharing',
  'Complete Anonymity',
  'Our Commitment to You',
];
const NOT_FOUND = "Oops! The page you're looking for doesn't exist.";
const INVALID_LINK = 'This link is invalid or incomplete.';

let server: RunningServer | undefined;
let context: BrowserContext | undefined;
let page: Page;
let problems: () => Promise<string[]>;

beforeAll(async () => {
  context = await launchBrowser();
  if (context) server = await startServer();
}, SLOW);

afterAll(async () => {
  await context?.close();
  await server?.stop();
}, SLOW);

async function openPage(width = 1280, colorScheme: 'light' | 'dark' = 'light', expectHttpErrors: ExpectedHttpError[] = []) {
  page = await context!.newPage();
  await page.setViewportSize({ width, height: 800 });
  await page.emulateMedia({ colorScheme });
  problems = await watchPageProblems(page, { expectHttpErrors });
}

afterEach(async () => {
  if (!context || !page) return;
  const found = await problems();
  await page.close();
  expect(found).toEqual([]);
});

const at = (path: string) => `${server!.url}${path}`;
const pathOf = (p: Page) => new URL(p.url()).pathname;

describe.skipIf(skipWithoutBrowser)('smoke', () => {
  test(
    '/ sends a visitor to /home',
    async () => {
      await openPage();
      await page.goto(at('/'));
      await page.waitForURL((url) => url.pathname === '/home');
      await page.getByRole('link', { name: 'Get Started' }).first().waitFor();
      expect(await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true);
    },
    SLOW,
  );

  test(
    '/about shows its five sections',
    async () => {
      await openPage();
      await page.goto(at('/about'));
      for (const title of ABOUT_TITLES) {
        await page.getByRole('heading', { name: title, exact: true }).waitFor({ state: 'visible' });
      }
      expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(ABOUT_TITLES);
      // Sections fade in as they scroll into view: the last one must end fully shown.
      const last = page.locator('section', { has: page.getByRole('heading', { name: 'Our Commitment to You' }) });
      await last.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el && getComputedStyle(el).opacity === '1', await last.elementHandle(), {
        timeout: 15_000,
      });
    },
    SLOW,
  );

  test(
    'an unknown path shows the 404 page and Go Back leads to /home',
    async () => {
      await openPage();
      const response = await page.goto(at('/no/such/page'));
      expect(response?.ok()).toBe(true);
      await page.getByText(NOT_FOUND).waitFor();
      await page.getByRole('button', { name: 'Go Back' }).click();
      await page.waitForURL((url) => url.pathname === '/home');
    },
    SLOW,
  );

  test(
    'a protected URL goes to /login with the full original address',
    async () => {
      await openPage();
      await page.goto(at('/files?view=grid#frag'));
      await page.waitForURL((url) => url.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/files?view=grid#frag');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    },
    SLOW,
  );

  test(
    '/share refuses a link key that is not 32 bytes (decoded in the crypto worker)',
    async () => {
      await openPage();
      await page.goto(at(`/share?linkId=x#${Buffer.alloc(31, 7).toString('base64url')}`));
      await page.getByText(INVALID_LINK).waitFor();
    },
    SLOW,
  );

  test(
    '/share accepts a 32-byte link key, then asks the server for the link (unknown here)',
    async () => {
      const linkId = 'A'.repeat(22);
      await openPage(1280, 'light', [{ status: 404, path: `/api/shared/${linkId}` }]);
      await page.goto(at(`/share?linkId=${linkId}#${Buffer.alloc(32, 7).toString('base64url')}`));
      await page.getByRole('heading', { name: 'Error retrieving files.' }).waitFor();
      expect(pathOf(page)).toBe('/share');
    },
    SLOW,
  );

  const shots: Array<{ name: string; path: string; ready: (p: Page) => Promise<unknown> }> = [
    { name: 'home', path: '/home', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
    { name: 'about', path: '/about', ready: (p) => p.getByRole('heading', { name: 'Our Commitment to You' }).waitFor() },
    { name: 'not-found', path: '/nope', ready: (p) => p.getByText(NOT_FOUND).waitFor() },
    { name: 'login', path: '/login?redirect=%2Ffiles', ready: (p) => p.getByRole('heading', { name: 'Sign in' }).waitFor() },
    { name: 'share-invalid', path: '/share?linkId=x#abc', ready: (p) => p.getByText(INVALID_LINK).waitFor() },
  ];
  for (const width of [375, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(
        `screenshots at ${width} px, ${scheme}`,
        async () => {
          await openPage(width, scheme);
          // Reduced motion shows the About sections without waiting for scroll-in animations.
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          for (const shot of shots) {
            await page.goto(at(shot.path));
            await shot.ready(page);
            await saveScreenshot(page, `${shot.name}-${width}-${scheme}`);
          }
          if (width < 768) {
            await page.getByRole('button', { name: 'Menu' }).click();
            await page.getByRole('link', { name: 'Get Started' }).first().waitFor();
            await saveScreenshot(page, `menu-open-${width}-${scheme}`, { fullPage: false });
          }
        },
        SLOW,
      );
    }
  }
});
