import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Written against Kysely<any>, like 001: frozen in time.

/**
 * Builds from before 005 write users without name keys and, as 005 first shipped, no longer met
 * the lower() unique indexes they rely on: beside a newer instance on one database an account
 * registered on the old one could not sign in on the new one, a case variant of its name could
 * register there, and the account was lost (issue 16). This leaves every database alike, whether
 * it applied that 005 or the expand-only one, and only adds:
 * - users_username_ci_unique and users_email_ci_unique (lower(), as 001 made them) where they are
 *   missing, so what an older build writes still collides with a case variant. Rows that already
 *   clash (let in while they were missing) are left out by id; the first of each keeps the name.
 * - a trigger that clears the name keys when an older build changes a name but not its key, so
 *   a stale key never answers for a name the account no longer has. It clears username_key too,
 *   which older builds never write: a row to fill is then always one without it, found through
 *   users_username_key_unique (user-repository.ts fills keys, since the database cannot compute
 *   nameKey). A change of ASCII letter case only ('Bob@x' to 'bob@x') keeps the keys: nameKey
 *   folds it, so the key is still right, and this build's own such change (which writes the same
 *   key again) is not taken for an older build's. The comparison is ASCII-only on purpose: both
 *   dialects' lower() differ from nameKey beyond ASCII (PostgreSQL's locale lower() makes 'İ' and
 *   'I' one name, nameKey does not), and a key cleared too often is only filled again.
 * Safe to run again (tests run it over a database made to look like the first 005 left it).
 *
 * Old instances keep writing users while this runs. On PostgreSQL one of them could otherwise
 * insert a case variant between the select that finds clashing rows and CREATE UNIQUE INDEX, and
 * the index, the migration and this instance's start would fail: the table is locked against
 * writes (reads go on) from before the select to the end of the transaction. migrate.ts runs
 * every pending migration in one transaction there (Kysely's Migrator, transactional DDL), so the
 * lock lasts until they commit; called on its own (tests), this opens a transaction itself.
 * SQLite needs nothing: every statement here runs on the one connection the migrator holds, and
 * an instance on SQLite is alone on its database file (an older one beside it is not a supported
 * setup), so no other writer can come between them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await restoreLowerUnique(db, 'users_username_ci_unique', 'username');
    await restoreLowerUnique(db, 'users_email_ci_unique', 'email');
    await clearStaleKeysOnSqlite(db);
    return;
  }
  const run = async (trx: Kysely<any>) => {
    // SHARE ROW EXCLUSIVE: conflicts with every insert, update and delete and with itself,
    // not with reads; CREATE INDEX's own SHARE lock is compatible with it.
    await sql`lock table users in share row exclusive mode`.execute(trx);
    await restoreLowerUnique(trx, 'users_username_ci_unique', 'username');
    await restoreLowerUnique(trx, 'users_email_ci_unique', 'email');
    await clearStaleKeysOnPostgres(trx);
  };
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}

async function restoreLowerUnique(db: Kysely<any>, index: string, column: 'username' | 'email'): Promise<void> {
  const { rows } = await sql<{ id: string; folded: string }>`
    select id, lower(${sql.ref(column)}) as folded from users where ${sql.ref(column)} is not null order by created_at, id
  `.execute(db);
  const seen = new Set<string>();
  const clashing: string[] = [];
  for (const row of rows) {
    if (seen.has(row.folded)) clashing.push(row.id);
    seen.add(row.folded);
  }
  // Ids go into the index definition as literals (neither dialect takes parameters there).
  if (clashing.some((id) => !/^[0-9a-f-]{36}$/.test(id))) throw new Error(`unexpected user id among clashing ${column}s`);
  let builder = db.schema
    .createIndex(index)
    .ifNotExists()
    .on('users')
    .unique()
    .expression(sql`lower(${sql.ref(column)})`);
  if (clashing.length > 0) builder = builder.where(sql<boolean>`id not in (${sql.join(clashing.map((id) => sql.lit(id)))})`);
  await builder.execute();
}

async function clearStaleKeysOnPostgres(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function users_clear_stale_name_keys() returns trigger language plpgsql as $$
    begin
      -- collate "C": lower() of ASCII letters only, whatever the database's locale.
      if (lower(new.username collate "C") is distinct from lower(old.username collate "C")
          and new.username_key is not distinct from old.username_key)
        or (lower(new.email collate "C") is distinct from lower(old.email collate "C")
          and new.email_key is not distinct from old.email_key) then
        new.username_key := null;
        new.email_key := null;
      end if;
      return new;
    end
    $$
  `.execute(db);
  await sql`drop trigger if exists users_clear_stale_name_keys on users`.execute(db);
  await sql`
    create trigger users_clear_stale_name_keys before update of username, email on users
    for each row execute function users_clear_stale_name_keys()
  `.execute(db);
}

async function clearStaleKeysOnSqlite(db: Kysely<any>): Promise<void> {
  // SQLite cannot assign to NEW: an AFTER trigger updates the row again (only key columns, which
  // does not fire it once more). SQLite's lower() folds ASCII letters only.
  await sql`
    create trigger if not exists users_clear_stale_name_keys after update of username, email on users for each row
    when (lower(new.username) is not lower(old.username) and new.username_key is old.username_key)
      or (lower(new.email) is not lower(old.email) and new.email_key is old.email_key)
    begin
      update users set username_key = null, email_key = null where id = new.id;
    end
  `.execute(db);
}
