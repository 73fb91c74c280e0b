import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { up as nameKeysBesideOldBuilds } from '../../src/infra/db/migrations/009-name-keys-beside-old-builds.ts';
import { nameKey } from '../../src/ports/accounts.ts';
import { openHarness, registrationFor, uniqueName, type Harness, type MakeDb } from './harness.ts';

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
    async function insertAsOldBuild(username: string, email: string | null = null): Promise<string> {
      const template = await h.browser().post('/api/register', await registrationFor(uniqueName('tmpl')));
      expect(template.status).toBe(201);
      const { username_key, email_key, ...known } = await row(template.body.id);
      await h.db.kysely.deleteFrom('users').where('id', '=', known.id).execute();
      const id = crypto.randomUUID();
      await h.db.kysely
        .insertInto('users')
        .values({ ...known, id, username, email })
        .execute();
      return id;
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
  });
}
