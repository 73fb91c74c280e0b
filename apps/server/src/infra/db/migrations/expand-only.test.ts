import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Expand, then contract (index.ts): a migration's `up` must leave the previous release working on
 * the same database. Two things a reader can see in the text break that: dropping or renaming
 * something, and a NOT NULL column added to an existing table without a default (the previous
 * release's inserts do not name it). A drop that a release deliberately makes once no older build
 * reads the thing is listed here with the reason, so it is a decision, not an accident.
 */
const CONTRACT_STEPS: Record<string, string> = {
  '003-files': "001's provisional uploads table, replaced before the first release (0.1.0): no build that used it ever ran",
};

const DROP_OR_RENAME =
  /\.(drop(Column|Index|Table|Constraint)|rename(Column|To))\(|\b(drop|rename)\s+(table|index|column|constraint)\b/i;

function migrations(): Array<{ name: string; up: string }> {
  return readdirSync(import.meta.dir)
    .filter((file) => /^\d{3}-.*\.ts$/.test(file) && !file.endsWith('.test.ts'))
    .map((file) => {
      const text = readFileSync(join(import.meta.dir, file), 'utf8');
      // `down` undoes `up` and may drop what `up` made; only `up` runs on an upgrade.
      const down = text.indexOf('export async function down');
      return { name: file.replace(/\.ts$/, ''), up: down === -1 ? text : text.slice(0, down) };
    });
}

describe('migrations only expand', () => {
  test.each(migrations())('$name drops or renames nothing, unless listed as a contract step', ({ name, up }) => {
    const statement = up.split('await ').find((s) => DROP_OR_RENAME.test(s));
    if (statement !== undefined && !(name in CONTRACT_STEPS)) {
      throw new Error(`${name} drops or renames in up(), which a running older build may still use: ${statement.trim()}`);
    }
  });

  test.each(migrations())('$name adds no NOT NULL column to an existing table without a default', ({ name, up }) => {
    const statements = up.split('await ').filter((s) => s.includes('alterTable(') && s.includes('.notNull()'));
    expect({ name, withoutDefault: statements.filter((s) => !s.includes('.defaultTo(')).map((s) => s.trim()) }).toEqual({
      name,
      withoutDefault: [],
    });
  });
});
