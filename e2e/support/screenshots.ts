import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** e2e/screenshots/ (gitignored): look at these after a run. */
export const SCREENSHOT_DIR = join(import.meta.dir, '..', 'screenshots');

export async function saveScreenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`screenshot name must be a plain file name: ${name}`);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  return path;
}
