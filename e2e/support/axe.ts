/**
 * axe-core's WCAG 2.1 A/AA rules on the page as it is now (issue 14 item 9).
 *
 * The app's CSP (script-src 'self') blocks an inline <script>, so page.addScriptTag({ content })
 * cannot inject axe. Instead its source goes through page.evaluate, which runs it with the
 * DevTools protocol's Runtime.evaluate: the page's CSP does not apply and no violation is
 * reported, so the suite's CSP watch stays meaningful. The source is evaluated once per
 * document (axe defines window.axe; a navigation drops it and the next check injects again).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

let source: Promise<string> | undefined;
function axeSource(): Promise<string> {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string[]; summary: string }>;
}

/** Runs the WCAG 2.1 A/AA rules on the whole document and answers the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const injected = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!injected) await page.evaluate(`${await axeSource()}\n;undefined`);
  const violations = await page.evaluate(async (tags: string[]) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<any> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return (results.violations as any[]).map((v) => ({
      id: String(v.id),
      impact: String(v.impact ?? 'unknown'),
      help: String(v.help),
      helpUrl: String(v.helpUrl),
      nodes: (v.nodes as any[]).map((n) => ({
        target: (n.target as unknown[]).map((t) => (Array.isArray(t) ? t.join(' >> ') : String(t))),
        summary: String(n.failureSummary ?? ''),
      })),
    }));
  }, WCAG_TAGS);
  return violations.filter((v) => BLOCKING.has(v.impact));
}

/** One readable block per violation: rule, impact, help, and each element's selector with axe's summary. */
export function formatViolations(screen: string, violations: AxeViolation[]): string {
  return violations
    .map((v) =>
      [
        `${screen}: ${v.id} (${v.impact}) ${v.help} <${v.helpUrl}>`,
        ...v.nodes.map((n) => `  ${n.target.join(' ')}\n    ${n.summary.replace(/\n/g, '\n    ')}`),
      ].join('\n'),
    )
    .join('\n');
}

/** Checks `page` and answers the formatted serious/critical violations ('' when none). */
export async function checkA11y(page: Page, screen: string): Promise<string> {
  return formatViolations(screen, await seriousViolations(page));
}
