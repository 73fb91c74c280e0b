/**
 * A vitest reporter for apps/web/vitest.test.ts, which replays the web tests under `bun test`:
 * it writes every test's outcome, each error as vitest would show it (message, diff, where in
 * the test file), the errors of files that failed outside their tests, and the unhandled errors,
 * as JSON to the path in SEALBOX_VITEST_REPORT.
 */
import { writeFileSync } from 'node:fs';
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

export interface WebTestReport {
  files: Array<{ file: string; errors: string[]; tests: Array<{ name: string; state: string; errors: string[] }> }>;
  unhandled: string[];
}

/** An error as vitest shows it: the message, the diff, and the frames in our code (not node_modules). */
export function describeError(error: { message: string; stack?: string; name?: string; diff?: string }): string {
  const stack = error.stack ?? '';
  const lines = (stack.includes(error.message) ? stack : `${error.name ?? 'Error'}: ${error.message}\n${stack}`).split('\n');
  const isFrame = (line: string) => /^\s*at\s/.test(line);
  const message = lines.filter((line) => !isFrame(line));
  const own = lines.filter((line) => isFrame(line) && line.includes('/') && !line.includes('/node_modules/'));
  return [...message, ...(error.diff ? ['', error.diff, ''] : []), ...own].join('\n').trim();
}

export default class ReportForBun implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const report: WebTestReport = {
      files: modules.map((module) => ({
        file: module.moduleId,
        errors: module.errors().map(describeError),
        tests: [...module.children.allTests()].map((test) => {
          const result = test.result();
          return { name: test.fullName, state: result.state, errors: (result.errors ?? []).map(describeError) };
        }),
      })),
      unhandled: unhandled.map(describeError),
    };
    const path = process.env.SEALBOX_VITEST_REPORT;
    if (!path) throw new Error('SEALBOX_VITEST_REPORT names no file to write the report to');
    writeFileSync(path, JSON.stringify(report));
  }
}
