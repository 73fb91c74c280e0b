import type { Migration, MigrationProvider } from 'kysely/migration';
import * as initialSchema from './001-initial-schema.ts';
import * as accounts from './002-accounts.ts';
import * as files from './003-files.ts';
import * as listingIndex from './004-listing-index.ts';
import * as nameKeys from './005-name-keys.ts';
import * as treeLimits from './006-tree-limits.ts';
import * as sharing from './007-sharing.ts';
import * as keyPinsLinkExpiry from './008-key-pins-link-expiry.ts';

/**
 * Listed by hand, not read from a folder, so a bundled or compiled server still finds every
 * migration and a stray file can never run. Names sort in the order they must apply.
 */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial-schema': initialSchema,
  '002-accounts': accounts,
  '003-files': files,
  '004-listing-index': listingIndex,
  '005-name-keys': nameKeys,
  '006-tree-limits': treeLimits,
  '007-sharing': sharing,
  '008-key-pins-link-expiry': keyPinsLinkExpiry,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS;
  },
};
