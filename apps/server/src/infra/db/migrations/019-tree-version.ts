import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * users.tree_version (docs/protocol.md "Tree version"): a counter the files store bumps in the
 * same transaction as any change to the items the user owns, so a browser's sealed search index
 * can tell whether it is current. A defaulted column: a build beside this one that does not know
 * it leaves it alone (its changes then go unnoticed until the next one; the index still follows
 * the listings the user opens).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('tree_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('tree_version').execute();
}
