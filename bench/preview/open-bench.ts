/**
 * What both preview benchmarks (run.ts: a video, pdf.ts: a pdf) stand on, so they differ only in
 * the file and what they measure: the web app built (buildWebForBench, unless SEALBOX_E2E_WEB_DIST
 * names another build), the real server, a user whose folder 'Bench' holds the file, and Chromium
 * at 1280x800 signed in and showing that folder.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { apiUserWithFolder, signInToFiles, type ApiFolder, type ApiSession } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { buildWebForBench } from '../support.ts';

export interface OpenBench<T> {
  context: BrowserContext;
  page: Page;
  /** What `upload` answered. */
  uploaded: T;
}

/**
 * Runs `measure` with the folder open once `upload` has put the file `name` in it; the browser
 * and the server are stopped afterwards, whatever happened.
 */
export async function withOpenFolder<T>(
  name: string,
  upload: (session: ApiSession, folder: ApiFolder) => Promise<T>,
  measure: (bench: OpenBench<T>) => Promise<void>,
): Promise<void> {
  if (!process.env.SEALBOX_E2E_WEB_DIST) await buildWebForBench();
  const server = await startServer({
    env: {
      RATE_LIMITS: 'off',
      ...(process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {}),
    },
  });
  let context: BrowserContext | undefined;
  try {
    const { user, session, folder } = await apiUserWithFolder(server.url, 'Bench');
    const uploaded = await upload(session, folder);

    context = await launchBrowser();
    if (!context) throw new Error('Chromium is needed (/usr/bin/chromium)');
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInToFiles(page, server.url, user);
    await page.goto(`${server.url}/files?parentId=${folder.id}`);
    await page.locator('.browser__body').getByText(name).first().waitFor();
    await measure({ context, page, uploaded });
  } finally {
    await context?.close();
    await server.stop();
  }
}
