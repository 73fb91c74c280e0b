import type { Kysely } from 'kysely';
import type { Database, Db } from '../../../ports/db.ts';
import type { QuotaRecord, QuotaStore } from '../../../ports/files/quota.ts';
import { databaseTransactionOf } from './files-store.ts';

const QUOTA_COLUMNS = ['id', 'used_space', 'reserved_space', 'total_space', 'item_count'] as const;

/**
 * Each user's space over either dialect, the only writer of used_space and reserved_space
 * (item_count follows items in items-store.ts). Changes go into the files transaction given.
 */
export function createQuotaStore(db: Db): QuotaStore {
  const read = async (k: Kysely<Database>, userId: string, lock: boolean) => {
    let query = k.selectFrom('users').select(QUOTA_COLUMNS).where('id', '=', userId);
    if (lock && db.dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && toQuota(row);
  };
  return {
    quota: (userId) => read(db.kysely, userId, false),
    lockQuota: (tx, userId) => read(databaseTransactionOf(tx), userId, true),
    async adjustSpace(tx, userId, delta) {
      const used = delta.used ?? 0;
      const reserved = delta.reserved ?? 0;
      if (used === 0 && reserved === 0) return;
      await databaseTransactionOf(tx)
        .updateTable('users')
        .set((eb) => ({
          used_space: eb('used_space', '+', used),
          reserved_space: eb('reserved_space', '+', reserved),
        }))
        .where('id', '=', userId)
        .execute();
    },
  };
}

function toQuota(row: {
  id: string;
  used_space: number;
  reserved_space: number;
  total_space: number;
  item_count: number;
}): QuotaRecord {
  return {
    userId: row.id,
    usedSpace: Number(row.used_space),
    reservedSpace: Number(row.reserved_space),
    totalSpace: Number(row.total_space),
    itemCount: Number(row.item_count),
  };
}
