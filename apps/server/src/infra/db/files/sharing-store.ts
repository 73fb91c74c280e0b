import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type { AccessesTable } from '../../../ports/db-schema.ts';
import type { AccessRecord, SharingReader, SharingWriter } from '../../../ports/files/sharing.ts';
import { compareIds, inChunks } from './in-chunks.ts';

export function sharingReader(k: Kysely<Database>): SharingReader {
  return {
    async accessesFor(userId, itemIds) {
      const rows = await inChunks(itemIds, (chunk) =>
        k.selectFrom('accesses').selectAll().where('user_id', '=', userId).where('item_id', 'in', chunk).execute(),
      );
      return rows.map(toAccess);
    },
    async accessesOn(itemIds) {
      const rows = await inChunks(itemIds, (chunk) =>
        k.selectFrom('accesses').selectAll().where('item_id', 'in', chunk).execute(),
      );
      return rows.map(toAccess).sort((a, b) => a.createdAt - b.createdAt || compareIds(a.userId, b.userId));
    },
    async sharedWith(userId, page) {
      const rows = await k
        .selectFrom('accesses')
        .selectAll()
        .where('user_id', '=', userId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('items')
                .innerJoin('share_blocks', 'share_blocks.blocked_id', 'items.owner_id')
                .select('items.id')
                .whereRef('items.id', '=', 'accesses.item_id')
                .where('share_blocks.user_id', '=', userId),
            ),
          ),
        )
        .orderBy('created_at')
        .orderBy('item_id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toAccess);
    },
  };
}

export function sharingWriter(k: Kysely<Database>): SharingWriter {
  return {
    async insertAccess(access) {
      await k
        .insertInto('accesses')
        .values({
          item_id: access.itemId,
          user_id: access.userId,
          encrypted_key: access.encryptedKey,
          signature: access.signature,
          edit_permission: access.edit ? 1 : 0,
          sharer_id: access.sharerId,
          created_at: access.createdAt,
        })
        .execute();
    },
    async updateAccess(itemId, userId, changes) {
      const rows = await k
        .updateTable('accesses')
        .set({ edit_permission: changes.edit ? 1 : 0, signature: changes.signature })
        .where('item_id', '=', itemId)
        .where('user_id', '=', userId)
        .returning('item_id')
        .execute();
      return rows.length > 0;
    },
    async deleteAccess(itemId, userId) {
      const rows = await k
        .deleteFrom('accesses')
        .where('item_id', '=', itemId)
        .where('user_id', '=', userId)
        .returning('item_id')
        .execute();
      return rows.length > 0;
    },
  };
}

export function toAccess(row: Selectable<AccessesTable>): AccessRecord {
  return {
    itemId: row.item_id,
    userId: row.user_id,
    encryptedKey: row.encrypted_key,
    signature: row.signature,
    edit: row.edit_permission === 1,
    sharerId: row.sharer_id,
    createdAt: Number(row.created_at),
  };
}
