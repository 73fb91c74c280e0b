import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type { LinksTable } from '../../../ports/db-schema.ts';
import type { LinkRecord, LinksReader, LinksSweep, LinksWriter } from '../../../ports/files/links.ts';
import { compareIds, inChunks } from './in-chunks.ts';

export function linksReader(k: Kysely<Database>): LinksReader {
  return {
    async link(id) {
      const row = await k.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toLink(row);
    },
    async linksOn(itemIds) {
      const rows = await inChunks(itemIds, (chunk) => k.selectFrom('links').selectAll().where('item_id', 'in', chunk).execute());
      return rows.map(toLink).sort((a, b) => a.createdAt - b.createdAt || compareIds(a.id, b.id));
    },
  };
}

export function linksWriter(k: Kysely<Database>): LinksWriter {
  return {
    async insertLink(link) {
      await k
        .insertInto('links')
        .values({
          id: link.id,
          item_id: link.itemId,
          edit_permission: link.edit ? 1 : 0,
          password_hash: link.passwordHash,
          password_epoch: link.passwordEpoch,
          expires_at: link.expiresAt,
          created_at: link.createdAt,
          modified_at: link.modifiedAt,
          ended_at: link.endedAt,
        })
        .execute();
    },
    async updateLink(id, changes) {
      const values: Record<string, unknown> = {};
      if (changes.edit !== undefined) values.edit_permission = changes.edit ? 1 : 0;
      if (changes.passwordHash !== undefined) values.password_hash = changes.passwordHash;
      if (changes.passwordEpoch !== undefined) values.password_epoch = changes.passwordEpoch;
      if (changes.expiresAt !== undefined) values.expires_at = changes.expiresAt;
      if (changes.modifiedAt !== undefined) values.modified_at = changes.modifiedAt;
      if (changes.endedAt !== undefined) values.ended_at = changes.endedAt;
      if (Object.keys(values).length === 0) return;
      await k.updateTable('links').set(values).where('id', '=', id).execute();
    },
    async deleteLink(id) {
      const rows = await k.deleteFrom('links').where('id', '=', id).returning('id').execute();
      return rows.length > 0;
    },
  };
}

export function linksSweep(k: Kysely<Database>): LinksSweep {
  return {
    async linksToEnd(now, limit) {
      const rows = await expiredBy(k, now).where('ended_at', 'is', null).limit(limit).execute();
      return rows.map(toLink);
    },
    async linksToRemove(before, limit) {
      const rows = await expiredBy(k, before).limit(limit).execute();
      return rows.map(toLink);
    },
  };
}

/** Links that expired at or before `at`, soonest first (index links_expires_at). */
const expiredBy = (k: Kysely<Database>, at: number) =>
  k.selectFrom('links').selectAll().where('expires_at', 'is not', null).where('expires_at', '<=', at).orderBy('expires_at');

export function toLink(row: Selectable<LinksTable>): LinkRecord {
  return {
    id: row.id,
    itemId: row.item_id,
    edit: row.edit_permission === 1,
    passwordHash: row.password_hash,
    passwordEpoch: Number(row.password_epoch),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
    modifiedAt: Number(row.modified_at),
    endedAt: row.ended_at === null || row.ended_at === undefined ? null : Number(row.ended_at),
  };
}
