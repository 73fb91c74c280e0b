/**
 * What both halves of the file browser polish (issue 14) share: their server, with a small quota
 * so a few API uploads bring the meter near full; the screenshot of both themes at a width; axe;
 * and the wait for the toasts to go.
 */
import { expect } from 'bun:test';
import type { Page } from 'playwright-core';
import { checkA11y } from '../../support/axe.ts';
import { saveScreenshot } from '../../support/screenshots.ts';

export const QUOTA = 1_048_576;
/** No rate limits, and the small quota. */
export const POLISH_SERVER = { env: { RATE_LIMITS: 'off', DEFAULT_QUOTA_BYTES: String(QUOTA) } };

export const SIZES = [375, 1280] as const;
const SCHEMES = ['light', 'dark'] as const;

export async function expectNoA11yProblems(page: Page, screen: string) {
  expect(await checkA11y(page, screen)).toBe('');
}

/** Both themes of the page as it is now (forced on the document, whatever the preference), at its current width. */
export async function shots(page: Page, name: string, width: number) {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  for (const scheme of SCHEMES) {
    await page.evaluate((theme) => {
      document.documentElement.dataset.theme = theme;
    }, scheme);
    await saveScreenshot(page, `polish-${name}-${width}-${scheme}`, { fullPage: false });
  }
  await page.evaluate((theme) => {
    document.documentElement.dataset.theme = theme;
  }, before);
  // Colours ease between themes (0.3 s): let them settle before anything reads them (axe).
  await page.waitForTimeout(400);
}

/** Waits for the toasts (e.g. 'Login successful!') to go, so they cover nothing in a screenshot. */
export async function noToasts(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('.sb-toast').length === 0, undefined, { timeout: 10_000 });
}
