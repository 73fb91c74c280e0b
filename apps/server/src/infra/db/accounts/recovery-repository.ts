import type { RecoveryRepository } from '../../../ports/accounts.ts';
import type { Db } from '../../../ports/db.ts';
import { sealedAccountColumns } from './user-repository.ts';

/** The accounts' recovery copies (table account_recovery, migration 014) on either dialect. */
export function createRecoveryRepository(db: Db): RecoveryRepository {
  const k = db.kysely;

  return {
    async find(userId) {
      const row = await k.selectFrom('account_recovery').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return (
        row && {
          userId: row.user_id,
          sealed: row.sealed,
          nonce: row.nonce,
          authHash: row.auth_hash,
          createdAt: Number(row.created_at),
        }
      );
    },

    async put(record) {
      const values = { sealed: record.sealed, nonce: record.nonce, auth_hash: record.authHash, created_at: record.createdAt };
      await k
        .insertInto('account_recovery')
        .values({ user_id: record.userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },

    recover: (userId, authHash, changes, eventOf) =>
      db.transaction(async (tx) => {
        // The phrase is checked again here, under the write: one replaced meanwhile wins.
        const kept = await tx.kysely
          .updateTable('account_recovery')
          .set({ sealed: changes.recoverySealed, nonce: changes.recoveryNonce })
          .where('user_id', '=', userId)
          .where('auth_hash', '=', authHash)
          .returning('user_id')
          .executeTakeFirst();
        if (!kept) return false;
        await tx.kysely
          .updateTable('users')
          .set({
            ...sealedAccountColumns(changes),
            totp_enabled: 0,
            totp_secret: null,
            totp_last_used_step: null,
          })
          .where('id', '=', userId)
          .execute();
        // TOTP is off: its recovery codes go with it (docs/protocol.md "TOTP recovery codes").
        await tx.kysely.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
        const ended = await tx.kysely.deleteFrom('sessions').where('user_id', '=', userId).returning('id').execute();
        for (const { id } of ended) tx.publish(eventOf(id));
        return true;
      }),
  };
}
