import type { Kysely } from 'kysely';
import { nameKey } from '../../../ports/accounts.ts';

/**
 * Usernames and emails compare by a key made in JavaScript (NFC, then Unicode lower case),
 * not by SQL lower(): SQLite's is ASCII-only and PostgreSQL's follows the server's locale, so
 * 'Åsa' and 'åsa' (or a decomposed 'Å') could both be registered. Existing rows are backfilled;
 * a clash in old data keeps the later row's key unset rather than failing the upgrade.
 *
 * Expand only: the lower() unique indexes of 001 stay, since builds from before this migration
 * rely on them while they run beside newer ones (a rolling upgrade). As first shipped this
 * dropped them, which lost accounts (issue 16); 009 puts them back where that ran.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
  await db.schema.alterTable('users').addColumn('email_key', 'text').execute();
  const rows = await db.selectFrom('users').select(['id', 'username', 'email']).orderBy('created_at').orderBy('id').execute();
  const taken = new Set<string>();
  for (const row of rows as Array<{ id: string; username: string; email: string | null }>) {
    const usernameKey = nameKey(row.username);
    const emailKey = row.email === null ? null : nameKey(row.email);
    await db
      .updateTable('users')
      .set({
        username_key: taken.has(`u:${usernameKey}`) ? null : usernameKey,
        email_key: emailKey === null || taken.has(`e:${emailKey}`) ? null : emailKey,
      })
      .where('id', '=', row.id)
      .execute();
    taken.add(`u:${usernameKey}`);
    if (emailKey !== null) taken.add(`e:${emailKey}`);
  }
  await db.schema.createIndex('users_username_key_unique').on('users').column('username_key').unique().execute();
  await db.schema.createIndex('users_email_key_unique').on('users').column('email_key').unique().execute();
}
