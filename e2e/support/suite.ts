/**
 * The frame of a browser journey suite: the real server for the whole file, and a fresh browser
 * context per page so cookies, IndexedDB and service workers never leak between tests. The
 * contexts live in one Chromium per file (browser.ts freshContext), as starting a Chromium for
 * each page took longer than many tests; a page that needs flags of its own (`args`) still gets
 * a Chromium of its own. After each test every page opened is checked for console errors and CSP
 * violations, and its context is closed.
 */
import { afterAll, afterEach, beforeAll, expect } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import type { TestUser } from './accounts.ts';
import { CHROMIUM_PATH, browserRequired, closeKeptChromium, freshContext, launchBrowser } from './browser.ts';
import { signInToFiles } from './files.ts';
import { watchPageProblems, type ExpectedHttpError } from './page-problems.ts';
import { startServer, type RunningServer, type StartServerOptions } from './server.ts';

/** Without Chromium the suites are skipped, unless the run requires it (then launchBrowser throws). */
export const skipWithoutBrowser = !existsSync(CHROMIUM_PATH) && !browserRequired();

export interface BrowserOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
  expectHttpErrors?: ExpectedHttpError[];
  /** The journey goes offline on purpose (requests failing for that are not problems). */
  expectOffline?: boolean;
  /** Extra Chromium flags for this profile (see launchBrowser). */
  args?: string[];
  /** The journey opens the app outside a secure context on purpose (see watchPageProblems). */
  expectInsecureOrigin?: boolean;
}

export interface BrowserSuite {
  /** The server started in beforeAll (only when the suite runs). */
  readonly server: RunningServer;
  /** A fresh browser profile with one page, watched for console errors and CSP violations. */
  newBrowser(options?: BrowserOptions): Promise<Page>;
  /** newBrowser, then signed in as `user` and showing My Files. */
  signedIn(user: TestUser, options?: BrowserOptions): Promise<Page>;
}

/** Registers the suite's hooks; each hook may take up to `timeoutMs`. */
export function browserSuite(options: { timeoutMs: number; server?: StartServerOptions }): BrowserSuite {
  let server: RunningServer | undefined;
  const open: Array<{ context: BrowserContext; problems: () => Promise<string[]> }> = [];

  beforeAll(async () => {
    if (!skipWithoutBrowser) server = await startServer(options.server);
  }, options.timeoutMs);

  afterAll(async () => {
    await closeKeptChromium();
    await server?.stop();
  }, options.timeoutMs);

  afterEach(async () => {
    const found: string[] = [];
    for (const { context, problems } of open.splice(0)) {
      found.push(...(await problems()));
      await context.close();
    }
    expect(found).toEqual([]);
  }, options.timeoutMs);

  const suite: BrowserSuite = {
    get server() {
      if (!server) throw new Error('the server runs only while the browser suite does');
      return server;
    },
    async newBrowser(browser = {}) {
      const context = (browser.args?.length ? await launchBrowser(browser.args) : await freshContext())!;
      const page = context.pages()[0] ?? (await context.newPage());
      await page.setViewportSize({ width: browser.width ?? 1280, height: browser.height ?? 800 });
      await page.emulateMedia({ colorScheme: browser.colorScheme ?? 'light', reducedMotion: 'reduce' });
      const problems = await watchPageProblems(page, {
        expectHttpErrors: browser.expectHttpErrors ?? [],
        expectOffline: browser.expectOffline ?? false,
        expectInsecureOrigin: browser.expectInsecureOrigin ?? false,
      });
      open.push({ context, problems });
      return page;
    },
    async signedIn(user, browser) {
      return signInToFiles(await suite.newBrowser(browser), suite.server.url, user);
    },
  };
  return suite;
}
