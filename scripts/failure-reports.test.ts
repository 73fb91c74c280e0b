import { expect, test } from 'bun:test';
import { exitReport, failureReports } from './failure-reports.ts';

const run = `
e2e/journeys/x/a.test.ts:
(pass) a > one [1ms]
error: expect(received).toBe(expected)

Expected: "dark"
Received: "light"

      at <anonymous> (e2e/journeys/x/a.test.ts:10:5)
(fail) a > two [3ms]
(pass) a > three

e2e/journeys/y/b.test.ts:
TimeoutError: page.waitForFunction: Timeout 5000ms exceeded.
(fail) b > four [5001ms]
  ^ this test timed out after 5000ms.

apps/server/test/c.postgres.test.ts:
error: expected 2
(fail) b > four [5001ms]

 2 tests failed:
(fail) a > two [3ms]
(fail) b > four [5001ms]
(fail) b > four [5001ms]
`;

test('each failing test is reported once, with the error bun printed above it and nothing of the tests around it', () => {
  const reports = failureReports(run);
  // Two suites with the same names (SQLite and PostgreSQL) are two failures; bun's closing list is none.
  expect(reports).toHaveLength(3);
  expect(reports[2]).toBe('error: expected 2\n(fail) b > four [5001ms]');
  expect(reports[0]).toStartWith('error: expect(received).toBe(expected)');
  expect(reports[0]).toContain('Received: "light"');
  expect(reports[0]).toEndWith('(fail) a > two [3ms]');
  expect(reports[1]).toBe(
    'TimeoutError: page.waitForFunction: Timeout 5000ms exceeded.\n(fail) b > four [5001ms]\n  ^ this test timed out after 5000ms.',
  );
});

test('a long block keeps its last lines, and a clean run reports nothing', () => {
  const long = `${Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n')}\n(fail) c > five`;
  const [report] = failureReports(long, 10);
  expect(report?.split('\n')).toHaveLength(11);
  expect(report).toStartWith('line 190');
  expect(failureReports('(pass) a > one\n 1 pass\n')).toEqual([]);
});

test('an error thrown after the last test is reported with its frame, and the tests around it are not', () => {
  const out = [
    'd.test.ts:',
    '(pass) d > one [0.12ms]',
    '',
    '# Unhandled error between tests',
    '-------------------------------',
    'error: late boom',
    '      at <anonymous> (d.test.ts:2:73)',
    '-------------------------------',
    '',
    ' 1 pass',
    ' 0 fail',
    ' 1 error',
  ].join('\n');
  const reports = failureReports(out);
  expect(reports).toHaveLength(1);
  expect(reports[0]).toStartWith('# Unhandled error between tests');
  expect(reports[0]).toContain('error: late boom');
  expect(reports[0]).toEndWith('-------------------------------');
  expect(reports[0]).not.toContain('(pass)');
  expect(reports[0]).not.toContain('1 pass');
});

test('a runner that failed without naming a test is reported by its code and its last lines', () => {
  const out = `${Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')}\n`;
  const report = exitReport(out, 134, 5);
  expect(report.split('\n')).toEqual([
    'exited with code 134 and no failing test named; its last lines:',
    'line 95',
    'line 96',
    'line 97',
    'line 98',
    'line 99',
  ]);
});
