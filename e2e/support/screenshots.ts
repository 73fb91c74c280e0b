import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** e2e/screenshots/ (gitignored): look at these after a run. */
export const SCREENSHOT_DIR = join(import.meta.dir, '..', 'screenshots');

export async function saveScreenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`screenshot name must be a plain file name: ${name}`);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  return path;
}

/**
 * The page as it is now at 1280 and 375 px, light and dark (back to 1280 light after). With
 * `centre`, each viewport shot is scrolled to have that element in its middle (a width changes
 * where it is).
 */
export async function saveScreenshots(
  page: Page,
  name: string,
  { fullPage = true, centre }: { fullPage?: boolean; centre?: Locator } = {},
): Promise<void> {
  for (const width of [1280, 375])
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme });
      await centre?.evaluate((element) => element.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await saveScreenshot(page, `${name}-${width}-${colorScheme}`, { fullPage });
    }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  // The theme's colour transitions run on: a check right after (axe's contrast) would read
  // colours halfway back from dark.
  // Transitions only: a spinner's animation never finishes.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
}
