import type { Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * links.ended_at: when the sweep ended an expired link (its unfinished uploads ended, its sockets
 * and its owner told). An expired link now stays listed to its owner as "Expired", to renew or
 * delete, for EXPIRED_LINK_KEPT_MS (domain/files/links.ts) before the sweep removes it; this
 * column keeps the sweep from ending the same link twice. Null: not ended, as for every row older
 * builds write. An older build beside this one deletes expired links at once, as it always did.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('links').addColumn('ended_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('links').dropColumn('ended_at').execute();
}
