import type { TotpRecoveryCodeRepository } from '../../../ports/accounts.ts';
import type { Db } from '../../../ports/db.ts';
import { clearRecoveryCodesIfOff, replaceRecoveryCodes, toColumns } from './user-repository.ts';

/** The accounts' TOTP recovery codes, as hashes (table totp_recovery_codes, migration 015), on either dialect. */
export function createTotpRecoveryCodeRepository(db: Db): TotpRecoveryCodeRepository {
  const k = db.kysely;

  return {
    replace: (userId, hashes, now, event) =>
      db.transaction(async (tx) => {
        await replaceRecoveryCodes(tx, userId, hashes, now);
        if (event) tx.publish(event);
      }),

    async count(userId) {
      const row = await k
        .selectFrom('totp_recovery_codes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    consume: (userId, hash, changes = {}, event) =>
      db.transaction(async (tx) => {
        // The row this DELETE removed is the proof: a second request with the same code deletes none.
        const deleted = await tx.kysely
          .deleteFrom('totp_recovery_codes')
          .where('user_id', '=', userId)
          .where('code_hash', '=', hash)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) !== 1) return false;
        const columns = toColumns(changes);
        if (Object.keys(columns).length > 0) await tx.kysely.updateTable('users').set(columns).where('id', '=', userId).execute();
        await clearRecoveryCodesIfOff(tx, userId, changes);
        if (event) tx.publish(event);
        return true;
      }),
  };
}
