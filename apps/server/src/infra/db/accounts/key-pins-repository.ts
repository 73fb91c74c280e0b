import type { KeyPinsRepository } from '../../../ports/accounts.ts';
import type { Db } from '../../../ports/db.ts';

/**
 * Compare-and-set in one statement on both dialects: the first write is an insert that does
 * nothing when a row exists, later ones an update guarded by the version read. Whichever of two
 * racing writes the database applies first wins; the other matches no row and changes nothing.
 */
export function createKeyPinsRepository(db: Db): KeyPinsRepository {
  const k = db.kysely;

  return {
    async find(userId) {
      const row = await k
        .selectFrom('key_pins')
        .select(['sealed', 'nonce', 'version'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && { sealed: row.sealed, nonce: row.nonce, version: Number(row.version) };
    },

    async compareAndSet(userId, expected, { sealed, nonce }, now) {
      const next = expected + 1;
      const row =
        expected === 0
          ? await k
              .insertInto('key_pins')
              .values({ user_id: userId, sealed, nonce, version: next, updated_at: now })
              .onConflict((oc) => oc.column('user_id').doNothing())
              .returning('version')
              .executeTakeFirst()
          : await k
              .updateTable('key_pins')
              .set({ sealed, nonce, version: next, updated_at: now })
              .where('user_id', '=', userId)
              .where('version', '=', expected)
              .returning('version')
              .executeTakeFirst();
      return row === undefined ? undefined : Number(row.version);
    },
  };
}
