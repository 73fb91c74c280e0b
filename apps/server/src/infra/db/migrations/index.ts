import type { Migration, MigrationProvider } from 'kysely/migration';
import * as initialSchema from './001-initial-schema.ts';

/**
 * Listed by hand, not read from a folder, so a bundled or compiled server still finds every
 * migration and a stray file can never run. Names sort in the order they must apply.
 */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial-schema': initialSchema,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS;
  },
};
