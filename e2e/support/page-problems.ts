import type { Page } from 'playwright-core';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/**
 * Collects console errors, uncaught page errors and CSP violations. Chromium
 * logs violations to the console too; the event listener also catches those
 * reported only as events (e.g. from report-only or worker contexts).
 */
export interface ExpectedHttpError {
  status: number;
  /** Path (exact string or pattern) of the request expected to answer `status`. */
  path: string | RegExp;
}

export interface WatchOptions {
  /**
   * HTTP error answers a journey expects (a 401 after a session ended, a 404 lookup). Chromium
   * logs every 4xx/5xx answer as a console error; only these, from these paths, are let through.
   */
  expectHttpErrors?: ExpectedHttpError[];
  /** The journey takes the browser offline on purpose: requests failing for that are expected. */
  expectOffline?: boolean;
  /** The journey opens the app on plain HTTP off localhost: Chromium says it ignored COOP there. */
  expectInsecureOrigin?: boolean;
}

const OFFLINE = /net::ERR_INTERNET_DISCONNECTED/;
const UNTRUSTWORTHY = /has been ignored, because the URL's origin was untrustworthy/;
const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d{3})/;

export async function watchPageProblems(page: Page, options: WatchOptions = {}): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  const expected = options.expectHttpErrors ?? [];
  const isExpected = (text: string, url: string | undefined) => {
    const status = FAILED_RESOURCE.exec(text)?.[1];
    if (!status || !url) return false;
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return false;
    }
    return expected.some(
      (e) => e.status === Number(status) && (typeof e.path === 'string' ? e.path === path : e.path.test(path)),
    );
  };
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (isExpected(message.text(), message.location().url)) return;
    if (options.expectOffline && OFFLINE.test(message.text())) return;
    if (options.expectInsecureOrigin && UNTRUSTWORTHY.test(message.text())) return;
    problems.push(`console: ${message.text()}${message.location().url ? ` (${message.location().url})` : ''}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  // Init scripts go through the DevTools protocol, so the page's CSP does not block them.
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return async () => {
    const csp = page.isClosed() ? [] : await page.evaluate(() => window.__cspViolations ?? []).catch(() => []);
    return [...problems, ...csp.map((v) => `csp: ${v}`)];
  };
}
