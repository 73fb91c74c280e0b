import { sql, type ExpressionBuilder, type Selectable, type Updateable } from 'kysely';
import { DomainError, isDomainError } from '../../../domain/errors.ts';
import {
  nameKey,
  type NewUser,
  type SealedAccountChanges,
  type SortBy,
  type SortOrder,
  type UserChanges,
  type UserRecord,
  type UserRepository,
} from '../../../ports/accounts.ts';
import type { Database, Db, DbTransaction } from '../../../ports/db.ts';
import type { UsersTable } from '../../../ports/db-schema.ts';

type UserRow = Selectable<UsersTable>;

/**
 * A deleted account (migration 016) is found by nobody: not by id, name or search, and no write
 * that was under way when it ended changes it. Its name still counts as taken (usernameTaken)
 * until the sweep frees it.
 */
const alive = (eb: ExpressionBuilder<Database, 'users'>) => eb('deleted_at', 'is', null);

export function createUserRepository(db: Db): UserRepository {
  const k = db.kysely;

  return {
    async insert(user: NewUser) {
      await k
        .insertInto('users')
        .values({
          id: user.id,
          username: user.username,
          email: user.email,
          username_key: nameKey(user.username),
          email_key: user.email === null ? null : nameKey(user.email),
          login_verifier: user.loginVerifier,
          password_salt: user.passwordSalt,
          kdf_params: user.kdf,
          salt: user.salt,
          iv: user.iv,
          encrypted_private_key: user.encryptedPrivateKey,
          public_key: user.publicKey,
          signing_public_key: user.signingPublicKey,
          // Written explicitly: 001's column default is the old combined 'name-asc'.
          sort_by: 'name',
          sort_order: 'asc',
          total_space: user.totalSpace,
          totp_secret: null,
          totp_last_used_step: null,
          avatar_extension: null,
          created_at: user.createdAt,
        })
        .execute()
        .catch(namedConflict);
    },

    async findById(id) {
      const row = await k.selectFrom('users').selectAll().where('id', '=', id).where(alive).executeTakeFirst();
      return row && toRecord(row);
    },

    async findByUsername(username) {
      await fillMissingNameKeys(db);
      const key = nameKey(username);
      const rows = await k
        .selectFrom('users')
        .selectAll()
        .where((eb) =>
          eb.or([eb('username_key', '=', key), eb.and([eb('username_key', 'is', null), eb('username', '=', username)])]),
        )
        .where(alive)
        .execute();
      // Two rows only where an older build let a case variant in before migration 009: each
      // keeps signing in by its exact name, the key's holder also by any variant.
      const row = rows.find((r) => r.username === username) ?? rows.find((r) => r.username_key === key);
      return row && toRecord(row);
    },

    async usernameTaken(username) {
      await fillMissingNameKeys(db);
      return (
        (await k.selectFrom('users').select('id').where('username_key', '=', nameKey(username)).executeTakeFirst()) !== undefined
      );
    },

    async emailTaken(email) {
      await fillMissingNameKeys(db);
      const row = await k.selectFrom('users').select('id').where('email_key', '=', nameKey(email)).executeTakeFirst();
      return row !== undefined;
    },

    async searchByPrefix(prefix, { excludeId, limit, offset }) {
      await fillMissingNameKeys(db);
      // substr instead of LIKE: no wildcard escaping; both sides are name keys made in JavaScript.
      const key = nameKey(prefix);
      const length = [...key].length;
      const rows = await k
        .selectFrom('users')
        .selectAll()
        .where(sql<boolean>`substr(username_key, 1, ${length}) = ${key}`)
        .where('id', '!=', excludeId)
        .where(alive)
        .orderBy('username_key')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(toRecord);
    },

    async update(id, changes, event) {
      const values = toColumns(changes);
      return db
        .transaction(async (tx) => {
          const row =
            Object.keys(values).length === 0
              ? await tx.kysely.selectFrom('users').selectAll().where('id', '=', id).where(alive).executeTakeFirst()
              : await tx.kysely
                  .updateTable('users')
                  .set(values)
                  .where('id', '=', id)
                  .where(alive)
                  .returningAll()
                  .executeTakeFirst();
          if (row) await clearRecoveryCodesIfOff(tx, id, changes);
          if (row && event) tx.publish(event);
          return row && toRecord(row);
        })
        .catch(namedConflict);
    },

    async claimTotpStep(id, step, changes = {}, event, recoveryCodes) {
      return db.transaction(async (tx) => {
        const result = await tx.kysely
          .updateTable('users')
          .set({ ...toColumns(changes), totp_last_used_step: step })
          .where('id', '=', id)
          .where(alive)
          .where((eb) => eb.or([eb('totp_last_used_step', 'is', null), eb('totp_last_used_step', '<', step)]))
          .executeTakeFirst();
        const claimed = Number(result.numUpdatedRows) === 1;
        if (claimed) await clearRecoveryCodesIfOff(tx, id, changes);
        if (claimed && recoveryCodes) await replaceRecoveryCodes(tx, id, recoveryCodes.hashes, recoveryCodes.now);
        if (claimed && event) tx.publish(event);
        return claimed;
      });
    },

    async replaceSealedAccount(id, expectedVerifier, changes) {
      const result = await k
        .updateTable('users')
        .set(sealedAccountColumns(changes))
        .where('id', '=', id)
        .where(alive)
        .where('login_verifier', '=', expectedVerifier)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

/**
 * Rows an older build writes have no name keys: builds before migration 005 do not know the
 * columns (they run beside this one during a rolling upgrade), and the trigger of migration 009
 * clears both keys of a row whose name such a build changed. The database cannot compute nameKey
 * (SQLite's lower() is ASCII-only, PostgreSQL's follows its locale), so this build fills them
 * before every lookup by name. Such a row always lacks username_key, so finding them is one
 * lookup in its unique index, next to nothing when there are none.
 * A key another account already holds stays unset: that account keeps the name, and this one
 * still signs in by its exact name (findByUsername).
 */
async function fillMissingNameKeys(db: Db): Promise<void> {
  const rows = await db.kysely
    .selectFrom('users')
    .select(['id', 'username', 'email', 'email_key'])
    .where('username_key', 'is', null)
    .execute();
  for (const row of rows) {
    await setKeyIfFree(db, row.id, 'username_key', nameKey(row.username));
    if (row.email !== null && row.email_key === null) await setKeyIfFree(db, row.id, 'email_key', nameKey(row.email));
  }
}

async function setKeyIfFree(db: Db, id: string, column: 'username_key' | 'email_key', key: string): Promise<void> {
  await db.kysely
    .updateTable('users')
    .set({ [column]: key })
    .where('id', '=', id)
    .where(column, 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('users as holder').select('holder.id').where(`holder.${column}`, '=', key))),
    )
    .execute()
    .catch((error: unknown) => {
      // Another instance filled the same key meanwhile: the unique index keeps the first.
      if (!isDomainError(error, 'CONFLICT')) throw error;
    });
}

/**
 * The unique indexes are users_username_key_unique and users_email_key_unique (migration 005),
 * and users_username_ci_unique and users_email_ci_unique on lower() (001, kept by 009 while
 * builds from before 005 may still write).
 */
function namedConflict(error: unknown): never {
  if (isDomainError(error, 'CONFLICT')) {
    const detail = error.detail?.includes('email') ? 'email' : error.detail?.includes('username') ? 'username' : error.detail;
    throw new DomainError('CONFLICT', error.message, { cause: error, ...(detail ? { detail } : {}) });
  }
  throw error;
}

/** The account's TOTP recovery codes become these hashes, inside `tx` (making new ones, TOTP's confirm). */
export async function replaceRecoveryCodes(
  tx: DbTransaction,
  userId: string,
  hashes: readonly string[],
  now: number,
): Promise<void> {
  await tx.kysely.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length === 0) return;
  await tx.kysely
    .insertInto('totp_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now })))
    .execute();
}

/** Turning TOTP off takes its recovery codes with it, in the same transaction (docs/protocol.md "TOTP recovery codes"). */
export async function clearRecoveryCodesIfOff(tx: DbTransaction, id: string, changes: UserChanges): Promise<void> {
  if (changes.totpEnabled === false) await tx.kysely.deleteFrom('totp_recovery_codes').where('user_id', '=', id).execute();
}

export function toColumns(changes: UserChanges): Updateable<UsersTable> {
  const columns: Updateable<UsersTable> = {};
  if (changes.email !== undefined) {
    columns.email = changes.email;
    columns.email_key = changes.email === null ? null : nameKey(changes.email);
  }
  if (changes.gridView !== undefined) columns.grid_view = changes.gridView ? 1 : 0;
  if (changes.sortBy !== undefined) columns.sort_by = changes.sortBy;
  if (changes.sortOrder !== undefined) columns.sort_order = changes.sortOrder;
  if (changes.avatarExtension !== undefined) columns.avatar_extension = changes.avatarExtension;
  if (changes.totpSecret !== undefined) columns.totp_secret = changes.totpSecret;
  if (changes.totpEnabled !== undefined) columns.totp_enabled = changes.totpEnabled ? 1 : 0;
  if (changes.totpLastUsedStep !== undefined) columns.totp_last_used_step = changes.totpLastUsedStep;
  return columns;
}

function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    loginVerifier: row.login_verifier,
    passwordSalt: row.password_salt,
    kdf: row.kdf_params,
    salt: row.salt,
    iv: row.iv,
    encryptedPrivateKey: row.encrypted_private_key,
    publicKey: row.public_key,
    signingPublicKey: row.signing_public_key,
    gridView: row.grid_view === 1,
    sortBy: row.sort_by as SortBy,
    sortOrder: row.sort_order === 'desc' ? 'desc' : ('asc' satisfies SortOrder),
    avatarExtension: row.avatar_extension,
    usedSpace: Number(row.used_space),
    reservedSpace: Number(row.reserved_space),
    totalSpace: Number(row.total_space),
    totpSecret: row.totp_secret,
    totpEnabled: row.totp_enabled === 1,
    totpLastUsedStep: row.totp_last_used_step === null ? null : Number(row.totp_last_used_step),
    createdAt: Number(row.created_at),
  };
}

/** The users columns of a re-sealed account (a KDF upgrade, a password change, a recovery). */
export function sealedAccountColumns(changes: SealedAccountChanges) {
  return {
    login_verifier: changes.loginVerifier,
    password_salt: changes.passwordSalt,
    kdf_params: changes.kdf,
    salt: changes.salt,
    iv: changes.iv,
    encrypted_private_key: changes.encryptedPrivateKey,
  };
}
