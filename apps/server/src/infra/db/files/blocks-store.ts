import type { Kysely } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type { BlocksReader, BlocksWriter } from '../../../ports/files/blocks.ts';
import { inChunks } from './in-chunks.ts';

export function blocksReader(k: Kysely<Database>): BlocksReader {
  return {
    async blocksOf(userId) {
      const rows = await k
        .selectFrom('share_blocks')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('blocked_id')
        .execute();
      return rows.map((row) => ({ userId: row.user_id, blockedId: row.blocked_id, createdAt: Number(row.created_at) }));
    },
    async blockersAmong(blockedId, userIds) {
      const rows = await inChunks(userIds, (chunk) =>
        k
          .selectFrom('share_blocks')
          .select('user_id')
          .where('blocked_id', '=', blockedId)
          .where('user_id', 'in', chunk)
          .execute(),
      );
      return new Set(rows.map((row) => row.user_id));
    },
  };
}

export function blocksWriter(k: Kysely<Database>): BlocksWriter {
  return {
    async insertBlock(block) {
      const rows = await k
        .insertInto('share_blocks')
        .values({ user_id: block.userId, blocked_id: block.blockedId, created_at: block.createdAt })
        .onConflict((oc) => oc.columns(['user_id', 'blocked_id']).doNothing())
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },
    async deleteBlock(userId, blockedId) {
      const result = await k
        .deleteFrom('share_blocks')
        .where('user_id', '=', userId)
        .where('blocked_id', '=', blockedId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
