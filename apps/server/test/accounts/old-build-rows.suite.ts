import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql, type Kysely } from 'kysely';
import { up as nameKeysBesideOldBuilds } from '../../src/infra/db/migrations/009-name-keys-beside-old-builds.ts';
import { nameKey } from '../../src/ports/accounts.ts';
import type { Database } from '../../src/ports/db.ts';
import { openHarness, registerAndLogin, registrationFor, uniqueName, type Harness, type MakeDb } from './harness.ts';

/**
 * Users rows as a build from before migration 005 writes them while it runs beside this one
 * (a rolling upgrade, issue 16): no name keys. Such an account must sign in here, by any case,
 * and keep its name from every case variant, whichever build the variant comes through.
 */
export function oldBuildRowsSuite(dialect: string, makeDb: MakeDb): void {
  describe(`users rows an older build writes: ${dialect}`, () => {
    let h: Harness;
    let password: string;

    beforeAll(async () => {
      h = await openHarness(makeDb);
      password = (await registrationFor('unused')).password;
    }, 60_000);
    afterAll(() => h.cleanup());

    const row = (id: string) => h.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    /**
     * Inserts `username` as a build before 005 does: every column it knows, the name keys left
     * out. The sealed account and verifier come from a template registered here and removed,
     * so `password` signs it in.
     */
    async function insertAsOldBuild(
      username: string,
      email: string | null = null,
      into: Kysely<Database> = h.db.kysely,
    ): Promise<string> {
      const template = await h.browser().post('/api/register', await registrationFor(uniqueName('tmpl')));
      expect(template.status).toBe(201);
      const { username_key, email_key, ...known } = await row(template.body.id);
      await h.db.kysely.deleteFrom('users').where('id', '=', known.id).execute();
      const id = crypto.randomUUID();
      await into
        .insertInto('users')
        .values({ ...known, id, username, email })
        .execute();
      return id;
    }

    /** Until a session waits for a lock on this suite's users table. */
    async function waitForLockWait(): Promise<void> {
      for (let i = 0; i < 200; i++) {
        const { rows } = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_locks where relation = 'users'::regclass and not granted
        `.execute(h.db.kysely);
        if ((rows[0]?.waiting ?? 0) > 0) return;
        await Bun.sleep(25);
      }
      throw new Error('nothing waited for a lock');
    }

    const lookup = async (name: string) => (await h.browser().get(`/api/users/search/${encodeURIComponent(name)}?limit=1`)).body;

    test('an account an older build registered signs in by any case and keeps its name and email from variants', async () => {
      const username = uniqueName('Bob');
      const email = `${username}@Example.org`;
      const id = await insertAsOldBuild(username, email);

      const variant = await h.browser().post('/api/register', await registrationFor(username.toLowerCase()));
      expect([variant.status, variant.body.message]).toEqual([409, 'Username is already in use!']);
      const emailVariant = await h
        .browser()
        .post('/api/register', await registrationFor(uniqueName(), { email: email.toUpperCase() }));
      expect([emailVariant.status, emailVariant.body.message]).toEqual([409, 'Email is already in use!']);
      expect((await h.browser().get(`/api/check?username=${username.toUpperCase()}`)).body).toEqual({ ok: false });

      for (const name of [username, username.toLowerCase()]) {
        const login = await h.browser().post('/api/login', { username: name, password });
        expect([login.status, login.body.user?.id]).toEqual([200, id]);
      }
      expect(await row(id)).toMatchObject({ username_key: nameKey(username), email_key: nameKey(email) });
    });

    test('an older build cannot write a case variant of a name beside it (the lower() unique index is kept)', async () => {
      const username = uniqueName('carol');
      expect((await h.browser().post('/api/register', await registrationFor(username))).status).toBe(201);
      const before = await h.db.kysely.selectFrom('users').select('id').execute();
      await expect(insertAsOldBuild(username.toUpperCase())).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await h.db.kysely.selectFrom('users').select('id').execute()).toHaveLength(before.length);
    });

    test('an email an older build changes loses its stale key: the old address is free, the new one taken', async () => {
      const username = uniqueName('dave');
      const created = await h
        .browser()
        .post('/api/register', await registrationFor(username, { email: `${username}@old.example` }));
      // What a build before 005 sends for a profile change: the email, not its key.
      await h.db.kysely
        .updateTable('users')
        .set({ email: `${username}@new.example` })
        .where('id', '=', created.body.id)
        .execute();
      expect(await row(created.body.id)).toMatchObject({ username_key: null, email_key: null });
      expect((await h.browser().get(`/api/check?email=${username}%40OLD.example`)).body).toEqual({ ok: true });
      expect((await h.browser().get(`/api/check?email=${username}%40NEW.example`)).body).toEqual({ ok: false });
      expect(await row(created.body.id)).toMatchObject({
        username_key: nameKey(username),
        email_key: nameKey(`${username}@new.example`),
      });
      const login = await h.browser().post('/api/login', { username: username.toUpperCase(), password });
      expect([login.status, login.body.user?.id]).toEqual([200, created.body.id]);
    });

    test('a change of case only in an email, made by this build, keeps both name keys', async () => {
      const username = uniqueName('fay');
      const browser = h.browser();
      const { id } = await registerAndLogin(browser, username);
      expect((await browser.put('/api/profile', { email: `${username}@Case.example` })).status).toBe(200);
      const changed = await browser.put('/api/profile', { email: `${username}@case.example` });
      expect([changed.status, changed.body.email]).toEqual([200, `${username}@case.example`]);
      expect(await row(id)).toMatchObject({
        username_key: nameKey(username),
        email_key: nameKey(`${username}@case.example`),
      });
    });

    test('where the first 005 let a case variant in, 009 still applies and both accounts sign in by their names', async () => {
      // As migration 005 first shipped: no lower() indexes, so a new build registered 'erin' and an
      // old one 'Erin' (no key) on one database.
      await sql`drop index users_username_ci_unique`.execute(h.db.kysely);
      const lower = uniqueName('erin');
      const upper = `E${lower.slice(1)}`;
      const keyHolder = (await h.browser().post('/api/register', await registrationFor(lower))).body.id;
      const oldOne = await insertAsOldBuild(upper);

      await nameKeysBesideOldBuilds(h.db.kysely);

      expect((await lookup(upper))[0].id).toBe(oldOne);
      expect((await lookup(lower))[0].id).toBe(keyHolder);
      expect((await lookup(lower.toUpperCase()))[0].id).toBe(keyHolder);
      const login = await h.browser().post('/api/login', { username: upper, password });
      expect([login.status, login.body.user?.id]).toEqual([200, oldOne]);
      expect((await row(oldOne)).username_key).toBeNull();
      // The restored index leaves out only the clash it found: a third variant is refused.
      await expect(insertAsOldBuild(lower.toUpperCase())).rejects.toMatchObject({ code: 'CONFLICT' });
    });

    if (dialect === 'postgres') {
      test('009 waits for a case variant an older build is inserting, then leaves it out of the index', async () => {
        // The username index first: 009 restores it first, so its select runs before any wait.
        await sql`drop index users_username_ci_unique`.execute(h.db.kysely);
        const name = uniqueName('gus');
        expect((await h.browser().post('/api/register', await registrationFor(name))).status).toBe(201);
        // An older build's insert of a case variant, not yet committed when 009 starts.
        const oldBuild = await h.db.kysely.startTransaction().execute();
        let migrated: Promise<void> | undefined;
        try {
          await insertAsOldBuild(name.toUpperCase(), null, oldBuild);
          migrated = nameKeysBesideOldBuilds(h.db.kysely);
          migrated.catch(() => {});
          await waitForLockWait();
        } finally {
          await oldBuild.commit().execute();
        }
        await migrated;
        // The index is back: a third variant from an older build is refused.
        await expect(insertAsOldBuild(`G${name.slice(1)}`)).rejects.toMatchObject({ code: 'CONFLICT' });
      });
    }
  });
}
