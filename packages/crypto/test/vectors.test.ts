import { expect, test } from 'bun:test';
import { vectorChecks } from './vector-checks.ts';

test('every vector family is covered', () => {
  expect(vectorChecks.length).toBeGreaterThanOrEqual(11);
});

for (const check of vectorChecks) {
  test(`vector: ${check.name}`, check.run, 30_000);
}
