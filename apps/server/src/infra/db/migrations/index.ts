import type { Migration, MigrationProvider } from 'kysely/migration';
import * as initialSchema from './001-initial-schema.ts';
import * as accounts from './002-accounts.ts';
import * as files from './003-files.ts';
import * as listingIndex from './004-listing-index.ts';
import * as nameKeys from './005-name-keys.ts';
import * as treeLimits from './006-tree-limits.ts';
import * as sharing from './007-sharing.ts';
import * as keyPinsLinkExpiry from './008-key-pins-link-expiry.ts';
import * as nameKeysBesideOldBuilds from './009-name-keys-beside-old-builds.ts';
import * as uploadAnonymous from './010-upload-anonymous.ts';
import * as uploadSources from './011-upload-sources.ts';
import * as shareBlocks from './012-share-blocks.ts';
import * as linkEnded from './013-link-ended.ts';
import * as accountRecovery from './014-account-recovery.ts';
import * as totpRecoveryCodes from './015-totp-recovery-codes.ts';
import * as accountDeleted from './016-account-deleted.ts';
import * as trash from './017-trash.ts';
import * as versions from './018-versions.ts';
import * as treeVersion from './019-tree-version.ts';
import * as topLevelIndex from './020-top-level-index.ts';

/**
 * Expand, then contract (docs/operations.md "Upgrades"): a release runs beside the previous one on
 * one database, so its migrations only add: new tables, nullable or defaulted columns, indexes,
 * and triggers or code that fill new columns for rows older builds write. Dropping or renaming
 * anything an older build reads or writes waits for a later release, once no such build runs.
 * CHANGELOG.md lists each release's migrations and whether it can roll.
 *
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
  '009-name-keys-beside-old-builds': nameKeysBesideOldBuilds,
  '010-upload-anonymous': uploadAnonymous,
  '011-upload-sources': uploadSources,
  '012-share-blocks': shareBlocks,
  '013-link-ended': linkEnded,
  '014-account-recovery': accountRecovery,
  '015-totp-recovery-codes': totpRecoveryCodes,
  '016-account-deleted': accountDeleted,
  '017-trash': trash,
  '018-versions': versions,
  '019-tree-version': treeVersion,
  '020-top-level-index': topLevelIndex,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS;
  },
};
