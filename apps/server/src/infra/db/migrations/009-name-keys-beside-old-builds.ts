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
 *   nameKey).
 * Safe to run again (tests run it over a database made to look like the first 005 left it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await restoreLowerUnique(db, 'users_username_ci_unique', 'username');
  await restoreLowerUnique(db, 'users_email_ci_unique', 'email');
  if (db.getExecutor().adapter instanceof PostgresAdapter) await clearStaleKeysOnPostgres(db);
  else await clearStaleKeysOnSqlite(db);
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
      if (new.username is distinct from old.username and new.username_key is not distinct from old.username_key)
        or (new.email is distinct from old.email and new.email_key is not distinct from old.email_key) then
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
  // does not fire it once more).
  await sql`
    create trigger if not exists users_clear_stale_name_keys after update of username, email on users for each row
    when (new.username is not old.username and new.username_key is old.username_key)
      or (new.email is not old.email and new.email_key is old.email_key)
    begin
      update users set username_key = null, email_key = null where id = new.id;
    end
  `.execute(db);
}
