import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { generate } from 'otplib';
import { DEFAULT_RATE_LIMITS, SLOWDOWN_MS, UNLIMITED, type RateLimits } from '../../src/domain/accounts/rate-limits.ts';
import { SESSION_LIFETIME_MS, TOTP_PENDING_LIFETIME_MS } from '../../src/domain/accounts/sessions.ts';
import { DEFAULT_AVATAR_SVG } from '../../src/http/routes/profile.ts';
import {
  ORIGIN,
  openHarness,
  registrationFor,
  registrationMaterial,
  signedInUser,
  uniqueName,
  type Browser,
  type Harness,
  type MakeDb,
} from './harness.ts';
import { QUOTA } from '../support/app-harness.ts';

const PROFILE_KEYS = [
  'avatarExtension',
  'createdAt',
  'email',
  'gridView',
  'id',
  'publicKey',
  'reservedSpace',
  'signingPublicKey',
  'sortBy',
  'sortOrder',
  'totalSpace',
  'totpEnabled',
  'usedSpace',
  'username',
];
const PUBLIC_USER_KEYS = ['avatarExtension', 'id', 'publicKey', 'signingPublicKey', 'username'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const b64 = (bytes: number) => Buffer.from(new Uint8Array(bytes).fill(7)).toString('base64');

/** Minimal files that start with each format's magic bytes. */
const IMAGES = {
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]),
  jpg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]),
  gif: new Uint8Array([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0, 0, 0]),
  webp: new Uint8Array([...Buffer.from('RIFF'), 26, 0, 0, 0, ...Buffer.from('WEBPVP8 '), 0, 0, 0, 0]),
} as const;
const TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;

function avatarForm(bytes: Uint8Array<ArrayBuffer>, fileName: string, field = 'avatar'): FormData {
  const form = new FormData();
  form.append(field, new File([bytes], fileName, { type: 'image/png' }));
  return form;
}

/** Runs the whole accounts API contract (docs/protocol.md "Accounts") against one database. */
export function accountsSuite(dialect: string, makeDb: MakeDb): void {
  describe(`Accounts API: ${dialect}`, () => {
    let h: Harness;

    beforeAll(async () => {
      await registrationMaterial();
      h = await openHarness(makeDb);
    }, 60_000);
    afterAll(async () => {
      await h?.cleanup();
    });

    const userCount = async () =>
      Number(
        (
          await h.db.kysely
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const userRow = (id: string) => h.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const sessionRows = (userId: string) =>
      h.db.kysely.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
    const codeAt = (secret: string, ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
    const eventsOf = (userId: string, kind: string) => h.delivered.filter((e) => e.kind === kind && e.userIds.includes(userId));

    async function expectError(
      result: Promise<{ status: number; body: any }>,
      status: number,
      error: string,
      message?: string | RegExp,
    ) {
      const { status: actual, body } = await result;
      expect({ status: actual, error: body?.error }).toEqual({ status, error });
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
      if (typeof message === 'string') expect(body.message).toBe(message);
      else if (message) expect(body.message).toMatch(message);
    }

    describe('registration', () => {
      test('201 { id }; quota from config, nothing used; the stored verifier is argon2id of the login hash, not the hash', async () => {
        const browser = h.browser();
        const username = uniqueName('reg');
        const registration = await registrationFor(username, { email: `${username}@example.org` });
        const { status, body } = await browser.post('/api/register', registration);
        expect(status).toBe(201);
        expect(Object.keys(body)).toEqual(['id']);
        expect(body.id).toMatch(UUID);
        const row = await userRow(body.id);
        expect(row).toMatchObject({
          username,
          email: `${username}@example.org`,
          used_space: 0,
          total_space: QUOTA,
          grid_view: 0,
          sort_by: 'name',
          sort_order: 'asc',
          totp_enabled: 0,
          avatar_extension: null,
          password_salt: registration.passwordSalt,
          public_key: registration.publicKey,
        });
        expect(row.login_verifier).not.toBe(registration.password);
        expect(row.login_verifier).not.toContain(registration.password);
        expect(row.login_verifier.startsWith('$argon2id$')).toBe(true);
        expect(await Bun.password.verify(registration.password, row.login_verifier)).toBe(true);
        expect(await Bun.password.verify(b64(32), row.login_verifier)).toBe(false);
        expect(JSON.parse(row.kdf_params)).toEqual(registration.kdf);
      });

      test('an empty email is no email', async () => {
        const { body } = await h.browser().post('/api/register', await registrationFor(uniqueName(), { email: '' }));
        expect((await userRow(body.id)).email).toBeNull();
      });

      const weakKdf = (patch: (kdf: any) => void) => async () => {
        const kdf = structuredClone((await registrationMaterial()).kdf) as any;
        patch(kdf);
        return { kdf };
      };
      const bad: Array<[string, () => Promise<Record<string, unknown>> | Record<string, unknown>, RegExp | string]> = [
        ['a 2-character username', () => ({ username: 'ab' }), 'Username must be 3-20 characters long.'],
        ['a 21-character username', () => ({ username: 'a'.repeat(21) }), 'Username must be 3-20 characters long.'],
        ['a username with a control character', () => ({ username: 'bad\u0007name' }), /control/],
        ['a username with surrounding spaces', () => ({ username: ' spaced ' }), /spaces/],
        ['a username of the wrong type', () => ({ username: 12345 }), /username/],
        ['a malformed email', () => ({ email: 'not-an-address' }), 'Invalid email!'],
        ['an email with spaces', () => ({ email: 'a b@example.org' }), 'Invalid email!'],
        ['a missing password', () => ({ password: undefined }), /password/],
        ['a 31-byte password hash', () => ({ password: b64(31) }), /password must be 32 bytes/],
        ['a password that is not base64', () => ({ password: '!'.repeat(44) }), /password must be base64/],
        ['non-canonical base64', () => ({ passwordSalt: 'AAAAAAAAAAAAAAAAAAAAAB==' }), /passwordSalt must be base64/],
        ['a 15-byte passwordSalt', () => ({ passwordSalt: b64(15) }), /passwordSalt must be 16 bytes/],
        ['a 17-byte salt', () => ({ salt: b64(17) }), /salt must be 16 bytes/],
        ['a 16-byte iv', () => ({ iv: b64(16) }), /iv must be 12 bytes/],
        ['an empty encryptedPrivateKey', () => ({ encryptedPrivateKey: '' }), /encryptedPrivateKey/],
        ['a publicKey of random bytes', () => ({ publicKey: b64(550) }), /publicKey must be an RSA-OAEP SPKI/],
        ['a signing key as publicKey', async () => ({ publicKey: (await registrationMaterial()).signingPublicKey }), /publicKey/],
        [
          'an RSA key as signingPublicKey',
          async () => ({ signingPublicKey: (await registrationMaterial()).publicKey }),
          /signingPublicKey/,
        ],
        ['kdf missing', () => ({ kdf: undefined }), /kdf/],
        ['kdf of the wrong type', () => ({ kdf: 'argon2id' }), /kdf/],
        ['kdf version 0', weakKdf((k) => (k.version = 0)), /kdf.version is below the minimum 1/],
        [
          'argon2id iterations below 256',
          weakKdf((k) => (k.argon2id.iterations = 255)),
          /kdf.argon2id.iterations is below the minimum 256/,
        ],
        ['argon2id memory below 512 KiB', weakKdf((k) => (k.argon2id.memoryKiB = 256)), /memoryKiB is below/],
        ['argon2id hash length below 32', weakKdf((k) => (k.argon2id.hashLength = 16)), /hashLength is below/],
        [
          'PBKDF2 iterations below 120000',
          weakKdf((k) => (k.pbkdf2.iterations = 100_000)),
          /pbkdf2.iterations is below the minimum 120000/,
        ],
        ['absurd PBKDF2 iterations', weakKdf((k) => (k.pbkdf2.iterations = 1e9)), /above the maximum/],
        ['fractional iterations', weakKdf((k) => (k.argon2id.iterations = 256.5)), /kdf/],
      ];
      test.each(bad)('%s is 400 VALIDATION and creates nothing', async (_, patch, message) => {
        const before = await userCount();
        const payload = { ...(await registrationFor(uniqueName())), ...(await patch()) };
        await expectError(h.browser().post('/api/register', payload), 400, 'VALIDATION', message);
        expect(await userCount()).toBe(before);
      });

      test('malformed JSON and an oversize body are refused; nothing is created', async () => {
        const before = await userCount();
        const browser = h.browser();
        const malformed = await browser.call('POST', '/api/register', {
          body: '{"username":',
          headers: { 'content-type': 'application/json' },
        });
        expect(malformed.status).toBe(400);
        expect(malformed.body.error).toBe('VALIDATION');
        const huge = { ...(await registrationFor(uniqueName())), encryptedPrivateKey: 'A'.repeat(2 * 1024 * 1024) };
        const oversize = await browser.post('/api/register', huge);
        expect(oversize.status).toBe(413);
        expect(oversize.body.error).toBe('TOO_LARGE');
        const large = { ...(await registrationFor(uniqueName())), encryptedPrivateKey: b64(200 * 1024) };
        await expectError(browser.post('/api/register', large), 400, 'VALIDATION');
        expect(await userCount()).toBe(before);
      });

      test('a taken username or email (any case) is 409 CONFLICT with SPEC messages', async () => {
        const username = uniqueName('Taken');
        const email = `${username}@Example.org`;
        const browser = h.browser();
        expect((await browser.post('/api/register', await registrationFor(username, { email }))).status).toBe(201);
        const before = await userCount();
        await expectError(
          browser.post('/api/register', await registrationFor(username.toUpperCase())),
          409,
          'CONFLICT',
          'Username is already in use!',
        );
        await expectError(
          browser.post('/api/register', await registrationFor(uniqueName(), { email: email.toLowerCase() })),
          409,
          'CONFLICT',
          'Email is already in use!',
        );
        expect(await userCount()).toBe(before);
      });

      test('names compare beyond ASCII and across normalisation forms; invisible characters are refused', async () => {
        const browser = h.browser();
        const base = `Åsa${uniqueName().slice(-6)}`;
        expect((await browser.post('/api/register', await registrationFor(base))).status).toBe(201);
        const before = await userCount();
        for (const twin of [base.replace('Å', 'å'), base.replace('Å', 'A\u030A')]) {
          await expectError(
            browser.post('/api/register', await registrationFor(twin)),
            409,
            'CONFLICT',
            'Username is already in use!',
          );
        }
        expect((await browser.get(`/api/check?username=${encodeURIComponent(base.replace('Å', 'å'))}`)).body).toEqual({
          ok: false,
        });
        await expectError(
          browser.post('/api/register', await registrationFor(`al\u200Bice${uniqueName().slice(-4)}`)),
          400,
          'VALIDATION',
        );
        expect(await userCount()).toBe(before);
      });

      test('two registrations racing for one name: one 201, one 409', async () => {
        const username = uniqueName('race');
        const payload = await registrationFor(username);
        const results = await Promise.all([
          h.browser().post('/api/register', payload),
          h.browser().post('/api/register', payload),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      });
    });

    describe('availability check', () => {
      test('ok = free, case-insensitive, for usernames and emails', async () => {
        const username = uniqueName('Check');
        await h.browser().post('/api/register', await registrationFor(username, { email: `${username}@example.org` }));
        const browser = h.browser();
        expect((await browser.get(`/api/check?username=${username.toLowerCase()}`)).body).toEqual({ ok: false });
        expect((await browser.get(`/api/check?username=${uniqueName('free')}`)).body).toEqual({ ok: true });
        expect(
          (await browser.get(`/api/check?email=${encodeURIComponent(`${username.toUpperCase()}@EXAMPLE.org`)}`)).body,
        ).toEqual({ ok: false });
        expect((await browser.get('/api/check?email=nobody%40example.org')).body).toEqual({ ok: true });
      });

      test.each([
        ['neither', ''],
        ['both', '?username=alice&email=a%40b.org'],
        ['a malformed email', '?email=nope'],
        ['a too short username', '?username=ab'],
        ['an empty email', '?email='],
      ])('%s is 400', async (_, query) => {
        await expectError(h.browser().get(`/api/check${query}`), 400, 'VALIDATION');
      });
    });

    describe('login lookup', () => {
      test('limit=1 answers [{ id, username, passwordSalt, kdf }] by exact, case-insensitive name, without a session', async () => {
        const username = uniqueName('Look');
        const registration = await registrationFor(username);
        const { body: created } = await h.browser().post('/api/register', registration);
        const { status, body } = await h.browser().get(`/api/users/search/${username.toUpperCase()}?limit=1`);
        expect(status).toBe(200);
        expect(body).toEqual([{ id: created.id, username, passwordSalt: registration.passwordSalt, kdf: registration.kdf }]);
      });

      test('an unknown name, or a mere prefix, is 404 "User does not exist"', async () => {
        const username = uniqueName('Prefix');
        await h.browser().post('/api/register', await registrationFor(username));
        await expectError(h.browser().get('/api/users/search/nobody-like-this?limit=1'), 404, 'NOT_FOUND', 'User does not exist');
        await expectError(
          h.browser().get(`/api/users/search/${username.slice(0, -1)}?limit=1`),
          404,
          'NOT_FOUND',
          'User does not exist',
        );
      });
    });

    describe('login and logout', () => {
      test('200 with the sealed account and a fresh HttpOnly SameSite=Lax cookie, not Secure over http', async () => {
        const username = uniqueName('login');
        const registration = await registrationFor(username);
        const browser = h.browser();
        const { body: created } = await browser.post('/api/register', registration);
        const { status, body, response } = await browser.post('/api/login', {
          username: username.toUpperCase(),
          password: registration.password,
        });
        expect(status).toBe(200);
        expect(Object.keys(body).sort()).toEqual([
          'encryptedPrivateKey',
          'iv',
          'kdf',
          'publicKey',
          'salt',
          'signingPublicKey',
          'user',
        ]);
        expect(body).toMatchObject({
          salt: registration.salt,
          iv: registration.iv,
          encryptedPrivateKey: registration.encryptedPrivateKey,
          publicKey: registration.publicKey,
          signingPublicKey: registration.signingPublicKey,
          kdf: registration.kdf,
        });
        expect(Object.keys(body.user).sort()).toEqual(PROFILE_KEYS);
        expect(body.user).toMatchObject({ id: created.id, username, usedSpace: 0, totalSpace: QUOTA, totpEnabled: false });
        const cookie = response.headers.get('set-cookie')!;
        expect(cookie).toMatch(/^sealbox_session=[A-Za-z0-9_-]{43}; /);
        for (const part of ['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${SESSION_LIFETIME_MS / 1000}`])
          expect(cookie).toContain(part);
        expect(cookie).not.toContain('Secure');
        // The database keeps the token's SHA-256, never the token.
        const [session] = await sessionRows(created.id);
        expect(session!.id).toBe(new Bun.CryptoHasher('sha256').update(browser.cookie!).digest('hex'));
        expect(session!.totp_pending).toBe(0);
        expect((await browser.get('/api/profile')).status).toBe(200);
      });

      test('the cookie is Secure when PUBLIC_ORIGIN is https', async () => {
        const { username, password } = await signedInUser(h);
        const app = h.makeApp({ publicOrigin: 'https://drive.example.org' });
        const browser = h.browser({ app, origin: 'https://drive.example.org' });
        await browser.post('/api/login', { username, password });
        expect(browser.lastSetCookie).toContain('; Secure');
      });

      test('a wrong password or unknown user is 401 "Invalid username or password." and sets no cookie', async () => {
        const { username, id } = await signedInUser(h);
        const before = (await sessionRows(id)).length;
        const browser = h.browser();
        await expectError(
          browser.post('/api/login', { username, password: b64(32) }),
          401,
          'UNAUTHORIZED',
          'Invalid username or password.',
        );
        expect(browser.lastSetCookie).toBeNull();
        await expectError(
          browser.post('/api/login', { username: 'no-such-user', password: b64(32) }),
          401,
          'UNAUTHORIZED',
          'Invalid username or password.',
        );
        expect((await sessionRows(id)).length).toBe(before);
      });

      test.each([
        ['no body', undefined],
        ['no password', { username: 'someone' }],
        ['an empty username', { username: '', password: 'x' }],
        ['a numeric password', { username: 'someone', password: 5 }],
      ])('%s is 400', async (_, body) => {
        await expectError(h.browser().post('/api/login', body), 400, 'VALIDATION');
      });

      test('a new login in a browser ends the session it had', async () => {
        const { browser, username, password, id } = await signedInUser(h);
        const oldCookie = browser.cookie;
        await browser.post('/api/login', { username, password });
        expect(browser.cookie).not.toBe(oldCookie);
        expect((await sessionRows(id)).length).toBe(1);
        const stale = h.browser();
        stale.cookie = oldCookie;
        await expectError(stale.get('/api/profile'), 401, 'UNAUTHORIZED');
      });

      test('logout: 204, session gone, cookie cleared; also without a session', async () => {
        const { browser, id } = await signedInUser(h);
        const token = browser.cookie;
        const { status, body } = await browser.post('/api/logout');
        expect(status).toBe(204);
        expect(body).toBeNull();
        expect(browser.lastSetCookie).toMatch(/^sealbox_session=; .*Max-Age=0/);
        expect(await sessionRows(id)).toEqual([]);
        expect(eventsOf(id, 'session.ended').length).toBe(1);
        const stale = h.browser();
        stale.cookie = token;
        await expectError(stale.get('/api/profile'), 401, 'UNAUTHORIZED');
        expect((await h.browser().post('/api/logout')).status).toBe(204);
      });
    });

    describe('session guard', () => {
      test.each([
        ['GET', '/api/profile'],
        ['PUT', '/api/profile'],
        ['PUT', '/api/profile/preferences'],
        ['PUT', '/api/profile/upload'],
        ['PUT', '/api/totp'],
        ['GET', '/api/sessions'],
        ['DELETE', `/api/session/${'a'.repeat(64)}`],
        ['GET', `/api/user/${crypto.randomUUID()}`],
        ['GET', '/api/users/search/abc?limit=10'],
        ['GET', '/api/users/search/abc'],
      ])('%s %s without a session is 401 UNAUTHORIZED', async (method, path) => {
        await expectError(h.browser().call(method, path), 401, 'UNAUTHORIZED');
      });

      test.each(['garbage', 'A'.repeat(43), '%00;', ''])('a made-up cookie %p is no session', async (cookie) => {
        const browser = h.browser();
        browser.cookie = cookie;
        await expectError(browser.get('/api/profile'), 401, 'UNAUTHORIZED');
      });
    });

    describe('profile and preferences', () => {
      test('GET /api/profile is the Profile shape', async () => {
        const { browser, id, username } = await signedInUser(h);
        const { status, body } = await browser.get('/api/profile');
        expect(status).toBe(200);
        expect(Object.keys(body).sort()).toEqual(PROFILE_KEYS);
        expect(body).toMatchObject({
          id,
          username,
          email: null,
          gridView: false,
          sortBy: 'name',
          sortOrder: 'asc',
          avatarExtension: null,
          usedSpace: 0,
          reservedSpace: 0,
          totalSpace: QUOTA,
          totpEnabled: false,
        });
        expect(typeof body.createdAt).toBe('number');
      });

      test('PUT /api/profile changes the email, 409 when taken, 400 when malformed (unchanged), null clears', async () => {
        const { browser, id } = await signedInUser(h);
        const other = await signedInUser(h);
        await other.browser.put('/api/profile', { email: `${other.username}@example.org` });
        const mine = `${uniqueName('mail')}@example.org`;
        const { status, body } = await browser.put('/api/profile', { email: mine });
        expect(status).toBe(200);
        expect(body.email).toBe(mine);
        expect(eventsOf(id, 'profile.changed').length).toBeGreaterThan(0);
        await expectError(
          browser.put('/api/profile', { email: `${other.username.toUpperCase()}@example.org` }),
          409,
          'CONFLICT',
          'Email is already in use!',
        );
        await expectError(browser.put('/api/profile', { email: 'broken' }), 400, 'VALIDATION', 'Invalid email!');
        await expectError(browser.put('/api/profile', {}), 400, 'VALIDATION');
        expect((await userRow(id)).email).toBe(mine);
        expect((await browser.put('/api/profile', { email: null })).body.email).toBeNull();
      });

      test('preferences: partial updates, bad values 400 and unchanged, an event naming only ids', async () => {
        const { browser, id } = await signedInUser(h);
        const before = eventsOf(id, 'profile.changed').length;
        expect((await browser.put('/api/profile/preferences', { gridView: true })).body).toMatchObject({
          gridView: true,
          sortBy: 'name',
          sortOrder: 'asc',
        });
        expect((await browser.put('/api/profile/preferences', { sortBy: 'modified', sortOrder: 'desc' })).body).toMatchObject({
          gridView: true,
          sortBy: 'modified',
          sortOrder: 'desc',
        });
        await expectError(browser.put('/api/profile/preferences', { sortBy: 'colour' }), 400, 'VALIDATION');
        await expectError(browser.put('/api/profile/preferences', { sortOrder: 'up' }), 400, 'VALIDATION');
        await expectError(browser.put('/api/profile/preferences', { gridView: 'yes' }), 400, 'VALIDATION');
        expect(await userRow(id)).toMatchObject({ grid_view: 1, sort_by: 'modified', sort_order: 'desc' });
        const events = eventsOf(id, 'profile.changed');
        expect(events.length).toBe(before + 2);
        expect(events.at(-1)).toEqual({ kind: 'profile.changed', userIds: [id] });
      });
    });

    describe('TOTP', () => {
      test('setup, confirm, login needs the code (307), a code works once, a half-logged-in session can do nothing, disable', async () => {
        const { browser, username, password, id } = await signedInUser(h);
        const setup = await browser.put('/api/totp', { action: 'setup', password });
        expect(setup.status).toBe(200);
        const { secret, uri } = setup.body as { secret: string; uri: string };
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        expect(uri).toStartWith('otpauth://totp/');
        expect(uri).toContain(`secret=${secret}`);
        expect(uri).toContain('issuer=Sealbox');
        // Not enabled until confirmed.
        expect((await browser.get('/api/profile')).body.totpEnabled).toBe(false);
        const loginPlain = await h.browser().post('/api/login', { username, password });
        expect(loginPlain.status).toBe(200);

        const wrong = (await codeAt(secret, h.clock.now)) === '000000' ? '111111' : '000000';
        await expectError(browser.put('/api/totp', { action: 'confirm', code: wrong }), 400, 'VALIDATION', 'Invalid TOTP code.');
        const confirm = await browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now) });
        expect(confirm).toMatchObject({ status: 200, body: { enabled: true } });
        expect((await browser.get('/api/profile')).body.totpEnabled).toBe(true);
        expect(eventsOf(id, 'profile.changed').length).toBeGreaterThan(0);

        // Password right, no code: 307 and a half-logged-in session.
        const phone = h.browser({
          userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Mobile/15E148 Safari/604.1',
        });
        const pending = await phone.post('/api/login', { username, password });
        expect(pending.status).toBe(307);
        expect(pending.body).toEqual({ error: 'TOTP_REQUIRED', message: expect.any(String) });
        expect(phone.lastSetCookie).toContain(`Max-Age=${TOTP_PENDING_LIFETIME_MS / 1000}`);
        expect(phone.lastSetCookie).toContain('HttpOnly');
        const pendingRows = (await sessionRows(id)).filter((s) => s.totp_pending === 1);
        expect(pendingRows.length).toBe(1);
        for (const [method, path] of [
          ['GET', '/api/profile'],
          ['GET', '/api/sessions'],
          ['PUT', '/api/totp'],
          ['GET', `/api/user/${id}`],
          ['GET', '/api/users/search/who?limit=5'],
        ]) {
          await expectError(
            phone.call(method!, path!, method === 'PUT' ? { json: { action: 'setup' } } : {}),
            401,
            'UNAUTHORIZED',
          );
        }
        // Public routes ignore the session: a half login does not lock this browser out of them.
        for (const path of ['/api/check?username=whoever', `/api/users/search/${username}?limit=1`, `/api/avatars/${id}.png`]) {
          expect((await phone.request('GET', path)).status).toBe(200);
        }
        // Wrong password still 401 even with a good code; wrong code 401.
        await expectError(
          phone.post('/api/login', { username, password: b64(32), totpCode: await codeAt(secret, h.clock.now) }),
          401,
          'UNAUTHORIZED',
        );
        const again = await phone.post('/api/login', { username, password });
        expect(again.status).toBe(307);
        await expectError(
          phone.post('/api/login', { username, password, totpCode: wrong }),
          401,
          'UNAUTHORIZED',
          'Invalid TOTP code.',
        );

        // The confirm used this time step; the next one logs in, once.
        h.clock.advance(30_000);
        const code = await codeAt(secret, h.clock.now);
        await phone.post('/api/login', { username, password });
        const ok = await phone.post('/api/login', { username, password, totpCode: code });
        expect(ok.status).toBe(200);
        expect(ok.body.user.totpEnabled).toBe(true);
        expect((await phone.get('/api/profile')).status).toBe(200);
        expect((await sessionRows(id)).filter((s) => s.totp_pending === 1)).toEqual([]);
        const replay = h.browser();
        await expectError(replay.post('/api/login', { username, password, totpCode: code }), 401, 'UNAUTHORIZED');
        // A code from the previous step (inside the window) is refused too: steps only move forward.
        await expectError(
          replay.post('/api/login', { username, password, totpCode: await codeAt(secret, h.clock.now - 30_000) }),
          401,
          'UNAUTHORIZED',
        );
        await expectError(
          browser.put('/api/totp', { action: 'disable', code, password }),
          400,
          'VALIDATION',
          'Invalid TOTP code.',
        );

        h.clock.advance(30_000);
        const disable = await browser.put('/api/totp', { action: 'disable', code: await codeAt(secret, h.clock.now), password });
        expect(disable).toMatchObject({ status: 200, body: { enabled: false } });
        expect(await userRow(id)).toMatchObject({ totp_enabled: 0, totp_secret: null });
        expect((await h.browser().post('/api/login', { username, password })).status).toBe(200);
      });

      test('a code one step early or late is accepted, two steps is not', async () => {
        const { browser, id, password } = await signedInUser(h);
        const { secret } = (await browser.put('/api/totp', { action: 'setup', password })).body;
        await expectError(
          browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now + 60_000) }),
          400,
          'VALIDATION',
        );
        await expectError(
          browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now - 60_000) }),
          400,
          'VALIDATION',
        );
        expect(
          (await browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now + 30_000) })).status,
        ).toBe(200);
        expect((await userRow(id)).totp_enabled).toBe(1);
      });

      test('wrong states and malformed bodies are 400 and change nothing', async () => {
        const { browser, id, password } = await signedInUser(h);
        await expectError(
          browser.put('/api/totp', { action: 'confirm', code: '123456' }),
          400,
          'VALIDATION',
          'Set up TOTP first.',
        );
        await expectError(
          browser.put('/api/totp', { action: 'disable', code: '123456', password }),
          400,
          'VALIDATION',
          'TOTP is not enabled.',
        );
        await expectError(browser.put('/api/totp', { action: 'enable' }), 400, 'VALIDATION');
        await expectError(browser.put('/api/totp', { action: 'confirm' }), 400, 'VALIDATION');
        await expectError(browser.put('/api/totp', { action: 'confirm', code: '12345a' }), 400, 'VALIDATION');
        expect(await userRow(id)).toMatchObject({ totp_enabled: 0, totp_secret: null });
        const { secret } = (await browser.put('/api/totp', { action: 'setup', password })).body;
        await browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now) });
        await expectError(browser.put('/api/totp', { action: 'setup', password }), 400, 'VALIDATION', 'TOTP is already enabled.');
        expect((await userRow(id)).totp_secret).toBe(secret);
      });

      test('setup and disable need the login password: a stolen cookie alone cannot add or remove the second factor', async () => {
        const { browser, id, password } = await signedInUser(h);
        const thief = h.browser({ ip: '192.0.2.66' });
        thief.cookie = browser.cookie;
        const wrongPassword = b64(32);
        await expectError(thief.put('/api/totp', { action: 'setup' }), 400, 'VALIDATION');
        await expectError(
          thief.put('/api/totp', { action: 'setup', password: wrongPassword }),
          403,
          'FORBIDDEN',
          'Wrong password.',
        );
        expect(await userRow(id)).toMatchObject({ totp_enabled: 0, totp_secret: null });

        const { secret } = (await browser.put('/api/totp', { action: 'setup', password })).body;
        await browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now) });
        h.clock.advance(30_000);
        const code = await codeAt(secret, h.clock.now);
        await expectError(thief.put('/api/totp', { action: 'disable', code }), 400, 'VALIDATION');
        await expectError(
          thief.put('/api/totp', { action: 'disable', code, password: wrongPassword }),
          403,
          'FORBIDDEN',
          'Wrong password.',
        );
        expect(await userRow(id)).toMatchObject({ totp_enabled: 1, totp_secret: secret });
        // 403, not 401: the session lives on, and the refused attempt did not use the code up.
        expect((await thief.get('/api/profile')).status).toBe(200);
        expect(await browser.put('/api/totp', { action: 'disable', code, password })).toMatchObject({
          status: 200,
          body: { enabled: false },
        });
      });

      test('a half login expires after 5 minutes', async () => {
        const { browser, username, password, id } = await signedInUser(h);
        const { secret } = (await browser.put('/api/totp', { action: 'setup', password })).body;
        await browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now) });
        const other = h.browser();
        expect((await other.post('/api/login', { username, password })).status).toBe(307);
        h.clock.advance(TOTP_PENDING_LIFETIME_MS + 1000);
        // The expired half session is simply no session now: public calls work, guarded ones are 401.
        expect((await other.get('/api/check?username=whoever')).status).toBe(200);
        expect((await other.get('/api/profile')).status).toBe(401);
        expect((await sessionRows(id)).filter((s) => s.totp_pending === 1)).toEqual([]);
      });
    });

    describe('sessions', () => {
      test('list marks the current one and names devices; ending another makes its next request 401', async () => {
        const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
        const { browser, username, password, id } = await signedInUser(h);
        const laptop = h.browser({ userAgent: firefox });
        await laptop.post('/api/login', { username, password });
        const { status, body } = await browser.get('/api/sessions');
        expect(status).toBe(200);
        expect(body.length).toBe(2);
        for (const s of body) expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'device', 'id', 'lastSeenAt']);
        const current = body.find((s: any) => s.current);
        const other = body.find((s: any) => !s.current);
        expect(current.device).toBe('Chrome on Linux');
        expect(other.device).toBe('Firefox on Windows');
        expect(body.filter((s: any) => s.current).length).toBe(1);

        const ended = await browser.delete(`/api/session/${other.id}`);
        expect(ended.status).toBe(204);
        expect(eventsOf(id, 'session.ended').at(-1)).toEqual({ kind: 'session.ended', userIds: [id], sessionId: other.id });
        await expectError(laptop.get('/api/profile'), 401, 'UNAUTHORIZED');
        expect((await browser.get('/api/sessions')).body.map((s: any) => s.id)).toEqual([current.id]);
      });

      test("someone else's session, an unknown id and a malformed id are 404 and end nothing", async () => {
        const alice = await signedInUser(h);
        const bob = await signedInUser(h);
        const [bobSession] = (await bob.browser.get('/api/sessions')).body;
        await expectError(alice.browser.delete(`/api/session/${bobSession.id}`), 404, 'NOT_FOUND');
        await expectError(alice.browser.delete(`/api/session/${'0'.repeat(64)}`), 404, 'NOT_FOUND');
        await expectError(alice.browser.delete('/api/session/not-an-id'), 404, 'NOT_FOUND');
        expect((await bob.browser.get('/api/profile')).status).toBe(200);
      });

      test('a session slides: used within 30 days it lives on; unused for 30 days it is gone', async () => {
        const { browser, id } = await signedInUser(h);
        const [before] = await sessionRows(id);
        // Within a minute nothing is written.
        h.clock.advance(30_000);
        await browser.get('/api/profile');
        expect(browser.lastSetCookie).toBeNull();
        expect((await sessionRows(id))[0]!.last_seen_at).toBe(before!.last_seen_at);
        h.clock.advance(SESSION_LIFETIME_MS - 60_000);
        expect((await browser.get('/api/profile')).status).toBe(200);
        expect(browser.lastSetCookie).toContain(`Max-Age=${SESSION_LIFETIME_MS / 1000}`);
        const [after] = await sessionRows(id);
        expect(after!.last_seen_at).toBe(h.clock.now);
        expect(after!.expires_at).toBe(h.clock.now + SESSION_LIFETIME_MS);
        h.clock.advance(SESSION_LIFETIME_MS + 1);
        await expectError(browser.get('/api/profile'), 401, 'UNAUTHORIZED');
      });
    });

    describe('users', () => {
      test('GET /api/user/{id}: the public view; 404 for unknown and malformed ids', async () => {
        const alice = await signedInUser(h);
        const bob = await signedInUser(h);
        const { status, body } = await alice.browser.get(`/api/user/${bob.id}`);
        expect(status).toBe(200);
        expect(Object.keys(body).sort()).toEqual(PUBLIC_USER_KEYS);
        expect(body).toMatchObject({ id: bob.id, username: bob.username, avatarExtension: null });
        await expectError(alice.browser.get(`/api/user/${crypto.randomUUID()}`), 404, 'NOT_FOUND', 'User does not exist');
        await expectError(alice.browser.get('/api/user/1%27%20or%201=1'), 404, 'NOT_FOUND');
      });

      test('search: prefix, case-insensitive, sorted, self excluded, at most 10, pages', async () => {
        const prefix = `q${Math.random().toString(36).slice(2, 7)}`;
        const me = await signedInUser(h, { username: `${prefix}me` });
        const names = Array.from({ length: 12 }, (_, i) => `${prefix}${String.fromCharCode(97 + i)}`);
        for (const name of names.toReversed()) await h.browser().post('/api/register', await registrationFor(i18nCase(name)));
        const { status, body } = await me.browser.get(`/api/users/search/${prefix.toUpperCase()}`);
        expect(status).toBe(200);
        expect(body.length).toBe(10);
        expect(body.map((u: any) => u.username.toLowerCase())).toEqual(names.slice(0, 10));
        for (const user of body) expect(Object.keys(user).sort()).toEqual(PUBLIC_USER_KEYS);
        expect(body.some((u: any) => u.id === me.id)).toBe(false);
        const page = await me.browser.get(`/api/users/search/${prefix}?limit=5&offset=10`);
        expect(page.body.map((u: any) => u.username.toLowerCase())).toEqual(names.slice(10));
        expect((await me.browser.get(`/api/users/search/${prefix}me`)).body).toEqual([]);
        // Wildcards are plain characters.
        expect((await me.browser.get(`/api/users/search/${prefix.slice(0, 3)}%25`)).body).toEqual([]);
        expect((await me.browser.get(`/api/users/search/${prefix.slice(0, 3)}___`)).body).toEqual([]);
      });

      test.each([
        ['fewer than 3 characters', '/api/users/search/ab'],
        ['limit above 10', '/api/users/search/abc?limit=11'],
        ['limit 0', '/api/users/search/abc?limit=0'],
        ['a non-numeric limit', '/api/users/search/abc?limit=ten'],
        ['a negative offset', '/api/users/search/abc?offset=-1'],
      ])('search with %s is 400', async (_, path) => {
        const { browser } = await signedInUser(h);
        await expectError(browser.get(path), 400, 'VALIDATION');
      });
    });

    describe('avatars', () => {
      test.each(Object.keys(IMAGES) as Array<keyof typeof IMAGES>)(
        'a %s is accepted by its content and served with its type',
        async (ext) => {
          const { browser, id } = await signedInUser(h);
          const upload = await browser.call('PUT', '/api/profile/upload', { body: avatarForm(IMAGES[ext], 'picture.bin') });
          expect(upload.status).toBe(200);
          expect(upload.body).toEqual({ avatarExtension: ext });
          expect((await browser.get('/api/profile')).body.avatarExtension).toBe(ext);
          expect(eventsOf(id, 'profile.changed').length).toBeGreaterThan(0);
          const served = await h.browser().request('GET', `/api/avatars/${id}.${ext}?v=${Math.random()}`);
          expect(served.status).toBe(200);
          expect(served.headers.get('content-type')).toBe(TYPES[ext]);
          expect(served.headers.get('x-content-type-options')).toBe('nosniff');
          expect(served.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
          expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES[ext]);
          // Another extension than the stored one is the default.
          const other = await h.browser().request('GET', `/api/avatars/${id}.${ext === 'png' ? 'gif' : 'png'}`);
          expect(other.headers.get('content-type')).toBe('image/svg+xml');
        },
      );

      test('the default avatar when none: our SVG, nosniff', async () => {
        const { id } = await signedInUser(h);
        for (const path of [`/api/avatars/${id}.png`, `/api/avatars/${crypto.randomUUID()}.jpg`, `/api/avatars/${id}.svg?r=1`]) {
          const response = await h.browser().request('GET', path);
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe('image/svg+xml');
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
          const text = await response.text();
          expect(text).toBe(DEFAULT_AVATAR_SVG.toString());
          expect(text).toStartWith('<svg');
          expect(text).not.toContain('<script');
        }
      });

      test.each(['nope', `${crypto.randomUUID()}`, `${crypto.randomUUID()}.png.exe`, 'x.png', '..%2f..%2fetc%2fpasswd'])(
        'a malformed avatar name %p is 404',
        async (name) => {
          await expectError(h.browser().get(`/api/avatars/${name}`), 404, 'NOT_FOUND');
        },
      );

      test('text named .png, SVG, a missing field and an oversize image are refused; nothing changes', async () => {
        const { browser, id } = await signedInUser(h);
        await browser.call('PUT', '/api/profile/upload', { body: avatarForm(IMAGES.gif, 'a.gif') });
        const refuse = async (body: FormData, status: number, error: string) => {
          const result = await browser.call('PUT', '/api/profile/upload', { body });
          expect({ status: result.status, error: result.body.error }).toEqual({ status, error });
        };
        await refuse(avatarForm(new TextEncoder().encode('just some text, not an image'), 'photo.png'), 400, 'VALIDATION');
        await refuse(
          avatarForm(
            new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
            'a.svg',
          ),
          400,
          'VALIDATION',
        );
        await refuse(avatarForm(new Uint8Array(0), 'empty.png'), 400, 'VALIDATION');
        await refuse(avatarForm(IMAGES.png, 'a.png', 'picture'), 400, 'VALIDATION');
        const big = new Uint8Array(2 * 1024 * 1024 + 1);
        big.set(IMAGES.png);
        await refuse(avatarForm(big, 'big.png'), 413, 'TOO_LARGE');
        const exactly = new Uint8Array(2 * 1024 * 1024);
        exactly.set(IMAGES.png);
        expect((await browser.call('PUT', '/api/profile/upload', { body: avatarForm(exactly, 'max.png') })).status).toBe(200);
        // What was refused never replaced the stored avatar.
        await browser.call('PUT', '/api/profile/upload', { body: avatarForm(IMAGES.gif, 'a.gif') });
        await refuse(avatarForm(new TextEncoder().encode('text'), 'photo.png'), 400, 'VALIDATION');
        expect((await userRow(id)).avatar_extension).toBe('gif');
        const served = await h.browser().request('GET', `/api/avatars/${id}.gif`);
        expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES.gif);
      });
    });

    describe('origin check', () => {
      test('a mutating request from a foreign origin is 403 FORBIDDEN and does nothing', async () => {
        const username = uniqueName('xsite');
        const before = await userCount();
        const evil = h.browser({ origin: 'https://evil.example' });
        await expectError(evil.post('/api/register', await registrationFor(username)), 403, 'FORBIDDEN');
        await expectError(h.browser({ origin: 'null' }).post('/api/register', await registrationFor(username)), 403, 'FORBIDDEN');
        expect(await userCount()).toBe(before);
        const { browser, id } = await signedInUser(h);
        const hijacked = h.browser({ origin: 'http://localhost.evil.example' });
        hijacked.cookie = browser.cookie;
        await expectError(hijacked.put('/api/profile/preferences', { gridView: true }), 403, 'FORBIDDEN');
        await expectError(hijacked.post('/api/logout'), 403, 'FORBIDDEN');
        expect((await userRow(id)).grid_view).toBe(0);
        // Reads are not mutations; requests without an Origin (non-browser clients) pass.
        expect((await hijacked.get('/api/profile')).status).toBe(200);
        const cli = h.browser({ origin: null });
        cli.cookie = browser.cookie;
        expect((await cli.put('/api/profile/preferences', { gridView: true })).status).toBe(200);
      });

      test('PUBLIC_ORIGIN is accepted as our own', async () => {
        const app = h.makeApp({ publicOrigin: 'https://drive.example.org' });
        const browser = h.browser({ app, origin: 'https://drive.example.org' });
        expect((await browser.post('/api/register', await registrationFor(uniqueName()))).status).toBe(201);
        const other = h.browser({ app, origin: 'https://other.example.org' });
        expect((await other.post('/api/register', await registrationFor(uniqueName()))).status).toBe(403);
      });
    });

    describe('rate limits', () => {
      const small = (patch: Partial<RateLimits>): RateLimits => ({ ...UNLIMITED, ...patch });
      const ip = () => `198.51.100.${Math.floor(Math.random() * 250)}`;

      async function expect429(result: Promise<{ status: number; body: any; response: Response }>, windowSeconds = 60) {
        const { status, body, response } = await result;
        expect(status).toBe(429);
        expect(body).toEqual({ error: 'RATE_LIMITED', message: 'You are sending too many requests. Please slow down.' });
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
      }

      test('login per IP: every attempt counts, other addresses are unaffected, the window resets', async () => {
        const { username, password } = await signedInUser(h);
        const app = h.makeApp({ rateLimits: small({ loginIp: { max: 2, windowMs: 60_000 } }) });
        const address = ip();
        const browser = h.browser({ app, ip: address });
        expect((await browser.post('/api/login', { username, password })).status).toBe(200);
        expect((await browser.post('/api/login', { username, password: b64(32) })).status).toBe(401);
        await expect429(browser.post('/api/login', { username, password }));
        expect((await h.browser({ app, ip: `${address}9` }).post('/api/login', { username, password })).status).toBe(200);
        h.clock.advance(60_000);
        expect((await browser.post('/api/login', { username, password })).status).toBe(200);
      });

      test('failures from other addresses never refuse the owner: one address is refused, the account only slowed', async () => {
        const { username, password } = await signedInUser(h);
        const slept: number[] = [];
        const sleep = async (ms: number) => void slept.push(ms);
        // Two instances over one database: the counters are shared.
        const [a, b] = [
          h.makeApp({ rateLimits: DEFAULT_RATE_LIMITS, sleep }),
          h.makeApp({ rateLimits: DEFAULT_RATE_LIMITS, sleep }),
        ];
        const attacker = h.browser({ app: a, ip: '192.0.2.10' });
        const owner = h.browser({ app: b, ip: '192.0.2.20' });
        const { max } = DEFAULT_RATE_LIMITS.loginAccountIp;

        const statuses: number[] = [];
        for (let i = 0; i < 30; i++)
          statuses.push(
            (await attacker.post('/api/login', { username: i % 2 ? username : username.toUpperCase(), password: b64(32) }))
              .status,
          );
        expect(statuses).toEqual([...Array<number>(max).fill(401), ...Array<number>(30 - max).fill(429)]);
        await expect429(attacker.post('/api/login', { username, password }), DEFAULT_RATE_LIMITS.loginAccountIp.windowMs / 1000);
        expect((await owner.post('/api/login', { username, password })).status).toBe(200);
        expect(slept).toEqual([]);

        // Many addresses together pass the account's slow limit: every attempt now waits, none is refused.
        const { max: slowMax } = DEFAULT_RATE_LIMITS.loginAccountSlow;
        for (let i = max; i < slowMax + 3; i++) {
          expect(
            (await h.browser({ app: a, ip: `192.0.2.${100 + i}` }).post('/api/login', { username, password: b64(32) })).status,
          ).toBe(401);
        }
        expect(slept).toEqual([SLOWDOWN_MS, SLOWDOWN_MS, SLOWDOWN_MS]);
        expect((await owner.post('/api/login', { username, password })).status).toBe(200);
        expect(slept).toEqual(Array<number>(4).fill(SLOWDOWN_MS));
      });

      test('the per-account slowdown really waits (Bun.sleep) and then lets the right password in', async () => {
        const { username, password } = await signedInUser(h);
        const app = h.makeApp({ rateLimits: small({ loginAccountSlow: { max: 1, windowMs: 60_000 } }) });
        expect((await h.browser({ app, ip: ip() }).post('/api/login', { username, password: b64(32) })).status).toBe(401);
        const started = performance.now();
        expect((await h.browser({ app, ip: ip() }).post('/api/login', { username, password })).status).toBe(200);
        expect(performance.now() - started).toBeGreaterThanOrEqual(SLOWDOWN_MS - 50);
      }, 10_000);

      test('wrong passwords at TOTP setup count as failed logins from that address', async () => {
        const { browser, username, password } = await signedInUser(h, { ip: '192.0.2.30' });
        const app = h.makeApp({ rateLimits: small({ loginAccountIp: { max: 2, windowMs: 60_000 } }) });
        const thief = h.browser({ app, ip: '192.0.2.31' });
        thief.cookie = browser.cookie;
        await expectError(thief.put('/api/totp', { action: 'setup', password: b64(32) }), 403, 'FORBIDDEN', 'Wrong password.');
        await expectError(thief.put('/api/totp', { action: 'setup', password: b64(32) }), 403, 'FORBIDDEN', 'Wrong password.');
        await expect429(thief.put('/api/totp', { action: 'setup', password }));
        await expect429(h.browser({ app, ip: '192.0.2.31' }).post('/api/login', { username, password }));
        expect((await h.browser({ app, ip: '192.0.2.32' }).post('/api/login', { username, password })).status).toBe(200);
      });

      test('TOTP codes per account', async () => {
        const { browser: home, username, password } = await signedInUser(h);
        const { secret } = (await home.put('/api/totp', { action: 'setup', password })).body;
        await home.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now) });
        const app = h.makeApp({ rateLimits: small({ totpAccount: { max: 2, windowMs: 300_000 } }) });
        const right = await codeAt(secret, h.clock.now + 30_000);
        const wrong = right === '000000' ? '111111' : '000000';
        const browser = h.browser({ app });
        expect((await browser.post('/api/login', { username, password, totpCode: wrong })).status).toBe(401);
        expect((await browser.post('/api/login', { username, password, totpCode: wrong })).status).toBe(401);
        await expect429(browser.post('/api/login', { username, password, totpCode: right }), 300);
      });

      test('availability checks, lookups and searches per IP and per account', async () => {
        const { browser: me, username } = await signedInUser(h);
        const app = h.makeApp({
          rateLimits: small({
            checkIp: { max: 2, windowMs: 60_000 },
            lookupIp: { max: 1, windowMs: 60_000 },
            searchIp: { max: 100, windowMs: 60_000 },
            searchAccount: { max: 2, windowMs: 60_000 },
            registerIp: { max: 1, windowMs: 60_000 },
          }),
        });
        const browser = h.browser({ app, ip: ip() });
        await browser.get('/api/check?username=abcd');
        await browser.get('/api/check?username=abcd');
        await expect429(browser.get('/api/check?username=abcd'));
        expect((await browser.get(`/api/users/search/${username}?limit=1`)).status).toBe(200);
        await expect429(browser.get(`/api/users/search/${username}?limit=1`));
        const searcher = h.browser({ app, ip: ip() });
        searcher.cookie = me.cookie;
        await searcher.get('/api/users/search/abc');
        await searcher.get('/api/users/search/abc');
        await expect429(searcher.get('/api/users/search/abc'));
        expect((await browser.post('/api/register', await registrationFor(uniqueName()))).status).toBe(201);
        await expect429(browser.post('/api/register', await registrationFor(uniqueName())));
      });

      test('changing the email is counted like an email check (a 409 says the email is taken): 429 with Retry-After', async () => {
        const { browser } = await signedInUser(h);
        const app = h.makeApp({ rateLimits: small({ checkIp: { max: 2, windowMs: 60_000 } }) });
        const prober = h.browser({ app, ip: ip() });
        prober.cookie = browser.cookie;
        expect((await prober.put('/api/profile', { email: `${uniqueName('a')}@example.org` })).status).toBe(200);
        expect((await prober.put('/api/profile', { email: `${uniqueName('b')}@example.org` })).status).toBe(200);
        await expect429(prober.put('/api/profile', { email: `${uniqueName('c')}@example.org` }));
      });

      test('without TRUST_PROXY, X-Forwarded-For is ignored', async () => {
        const app = h.makeApp({ trustProxy: false, rateLimits: small({ checkIp: { max: 1, windowMs: 60_000 } }) });
        await h.browser({ app, ip: ip() }).get('/api/check?username=abcd');
        // A different forwarded address is the same client when the header is not trusted.
        await expect429(h.browser({ app, ip: ip() }).get('/api/check?username=abcd'));
      });

      test('the counters hold no IPs or names', async () => {
        const rows = await h.db.kysely.selectFrom('rate_limits').select('key').execute();
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
      });

      test('defaults are finite', () => {
        for (const limit of Object.values(DEFAULT_RATE_LIMITS)) expect(Number.isFinite(limit.max)).toBe(true);
      });
    });

    test('every answer of the accounts API carries the security headers and no-store (avatars excepted)', async () => {
      const { browser, id } = await signedInUser(h);
      for (const path of ['/api/profile', '/api/sessions', `/api/user/${id}`]) {
        const response = await browser.request('GET', path);
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      }
      expect(ORIGIN).toBe('http://localhost');
    });
  });
}

/** Mixed case, so the sort must be case-insensitive to come out in order. */
function i18nCase(name: string): string {
  return name.length % 2 === 0 ? name.toUpperCase() : name;
}

export type { Browser };
