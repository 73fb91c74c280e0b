import { beforeAll, describe, expect, test } from 'bun:test';
import type { FilesHarness, MakeFilesEnv } from '../files/harness.ts';
import { accountRows, sessionEndRows } from './account-rows.ts';
import { stateOf } from './calls.ts';
import { openRouteMatrix } from './context.ts';
import { fixtures } from './fixtures.ts';
import { itemRows } from './item-rows.ts';
import { trashRows } from './trash-rows.ts';
import { versionRows } from './version-rows.ts';
import { coverageProblems, missingOf, routeOf, STATUS, type Caller, type Outcome, type Row } from './outcomes.ts';

/**
 * Every route of the app, for every kind of caller, by construction: the rows (account-rows.ts,
 * item-rows.ts) are checked against the app's own route table (`app.routes`), so a route without
 * a row (or a row whose route is gone) fails the first test by name. Each row says what each
 * caller gets (outcomes.ts), and builds a valid request; the third test runs every row for every
 * caller, on the fixture's id and on a random one, and checks that refused state-changing calls
 * changed nothing. The harness, the fixture and the callers are made once (context.ts).
 */
export function routeMatrixSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`route matrix: ${name}`, () => {
    const matrix = openRouteMatrix(makeEnv, (m) => {
      const f = fixtures(m);
      return [...accountRows(m, f), ...itemRows(m, f), ...trashRows(m), ...versionRows(m), ...sessionEndRows(m)];
    });
    let h: FilesHarness, callers: Caller[], rows: Row[];
    beforeAll(() => {
      ({ h, callers, rows } = matrix);
    });
    const { send } = matrix;
    const snapshot = () => stateOf(h);

    test("every route of the app's table has a row, and every row a route", () => {
      expect(coverageProblems(h.app.routes, rows)).toEqual([]);
    });

    test('a route added without a row is named', () => {
      // Every route of the app as it is counts as covered here: only the new one may be named.
      const covered = [...rows, ...h.app.routes.map((r) => ({ route: routeOf(r) }))];
      const app = h.makeApp().put('/api/x', () => 'x');
      expect(coverageProblems(app.routes, covered)).toEqual(['add a row for PUT /api/x']);
      expect(coverageProblems(h.app.routes, [...covered, { route: 'GET /api/gone' }])).toEqual([
        'the row for GET /api/gone names no route of the app: remove it',
      ]);
    });

    test('every route x every caller x (existing id, random id): the expected answer, and a refusal changes nothing', async () => {
      const wrong: string[] = [];
      const ordered = [...rows.filter((r) => !r.terminal), ...rows.filter((r) => r.terminal)];
      for (const row of ordered) {
        const named = row.label ? `${row.route} [${row.label}]` : row.route;
        const method = row.route.slice(0, row.route.indexOf(' '));
        for (const caller of callers) {
          const cases: Array<{ label: string; want: Outcome; id: () => Promise<string> }> = [
            {
              label: 'existing',
              want: row.expect[caller.name],
              id: async () => (await row.target?.(row.expect[caller.name] === 'ok')) ?? '',
            },
          ];
          if (row.target)
            cases.push({
              label: 'random id',
              want: (row.missing ?? missingOf(row.expect))[caller.name],
              id: async () => row.randomId?.() ?? crypto.randomUUID(),
            });
          for (const { label, want, id } of cases) {
            const spec = await row.build(caller, await id());
            const check = row.changes && want !== 'ok';
            const before = check ? await snapshot() : undefined;
            const status = await send(caller, spec, method);
            const success = (status >= 200 && status < 300) || (spec.upgrade === true && status === 101);
            const good = want === 'ok' ? success : status === (typeof want === 'number' ? want : STATUS[want]);
            if (!good) wrong.push(`${named} as ${caller.name} (${label}): ${status}, expected ${want}`);
            if (before && JSON.stringify(await snapshot()) !== JSON.stringify(before))
              wrong.push(`${named} as ${caller.name} (${label}): refused, yet changed something`);
          }
        }
      }
      expect(wrong).toEqual([]);
    }, 120_000);
  });
}
