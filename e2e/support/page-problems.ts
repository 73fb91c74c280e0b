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
export async function watchPageProblems(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
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
