import { deletedAccountName } from '@sealbox/rules';
import type { Kysely } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type {
  AccountDeletionReader,
  AccountDeletionSweep,
  AccountDeletionWriter,
} from '../../../ports/files/account-deletion.ts';
import { chunks } from './in-chunks.ts';
import { toLink } from './links-store.ts';
import { toAccess } from './sharing-store.ts';

export function accountDeletionReader(k: Kysely<Database>): AccountDeletionReader {
  return {
    async accessesGivenBy(ownerId) {
      const rows = await k
        .selectFrom('accesses')
        .innerJoin('items', 'items.id', 'accesses.item_id')
        .selectAll('accesses')
        .where('items.owner_id', '=', ownerId)
        .orderBy('accesses.created_at')
        .execute();
      return rows.map(toAccess);
    },
    async accessesHeldBy(userId) {
      const rows = await k.selectFrom('accesses').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
      return rows.map(toAccess);
    },
    async linksOfOwner(ownerId) {
      const rows = await k
        .selectFrom('links')
        .innerJoin('items', 'items.id', 'links.item_id')
        .selectAll('links')
        .where('items.owner_id', '=', ownerId)
        .execute();
      return rows.map(toLink);
    },
    async uploadsInOthersTrees(uploaderId) {
      const rows = await k
        .selectFrom('uploads')
        .innerJoin('items', 'items.id', 'uploads.item_id')
        .select(['items.id', 'items.owner_id'])
        .where('uploads.user_id', '=', uploaderId)
        .where('items.owner_id', '!=', uploaderId)
        .execute();
      return rows.map((row) => ({ itemId: row.id, ownerId: row.owner_id }));
    },
  };
}

export function accountDeletionWriter(k: Kysely<Database>): AccountDeletionWriter {
  return {
    async deleteAccesses(entries) {
      // By user, then their items in chunks: an account's shares go in a few statements.
      const byUser = new Map<string, string[]>();
      for (const entry of entries) byUser.set(entry.userId, [...(byUser.get(entry.userId) ?? []), entry.itemId]);
      for (const [userId, itemIds] of byUser) {
        for (const chunk of chunks(itemIds)) {
          await k.deleteFrom('accesses').where('user_id', '=', userId).where('item_id', 'in', chunk).execute();
        }
      }
    },
    async deleteLinks(ids) {
      for (const chunk of chunks(ids)) await k.deleteFrom('links').where('id', 'in', chunk).execute();
    },
    async endAccount(userId, now) {
      const before = await k.selectFrom('users').select('avatar_extension').where('id', '=', userId).executeTakeFirst();
      const ended = await k
        .updateTable('users')
        .set({
          deleted_at: now,
          // No argon2id hash is empty: nothing verifies against it, on this build or an older one.
          login_verifier: '',
          salt: '',
          iv: '',
          encrypted_private_key: '',
          email: null,
          email_key: null,
          totp_enabled: 0,
          totp_secret: null,
          totp_last_used_step: null,
          avatar_extension: null,
        })
        .where('id', '=', userId)
        .where('deleted_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!ended) return undefined;
      const sessions = await k.deleteFrom('sessions').where('user_id', '=', userId).returning('id').execute();
      await k.deleteFrom('key_pins').where('user_id', '=', userId).execute();
      await k.deleteFrom('account_recovery').where('user_id', '=', userId).execute();
      await k.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
      await k
        .deleteFrom('share_blocks')
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('blocked_id', '=', userId)]))
        .execute();
      return { sessionIds: sessions.map((row) => row.id), avatarExtension: before?.avatar_extension ?? null };
    },
  };
}

export function accountDeletionSweep(k: Kysely<Database>): AccountDeletionSweep {
  return {
    async deletedAccountsToPurge(limit) {
      const rows = await k
        .selectFrom('users')
        .select('id')
        .where('deleted_at', 'is not', null)
        .where(({ or, exists, selectFrom }) =>
          or([
            exists(selectFrom('items').select('items.id').whereRef('items.owner_id', '=', 'users.id')),
            exists(
              selectFrom('uploads')
                .select('uploads.id')
                .whereRef('uploads.user_id', '=', 'users.id')
                .where('uploads.link_id', 'is', null),
            ),
          ]),
        )
        .orderBy('deleted_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },
    async freeDeletedNames(before, limit) {
      const rows = await k
        .selectFrom('users')
        .select('id')
        .where('deleted_at', '<=', before)
        .where('username', 'not like', `${deletedAccountName('')}%`)
        .limit(limit)
        .execute();
      for (const { id } of rows) {
        // Longer than any username may be and unique by the id: it can never be asked for.
        const name = deletedAccountName(id);
        await k.updateTable('users').set({ username: name, username_key: name }).where('id', '=', id).execute();
      }
      return rows.length;
    },
  };
}
