import { beforeAll, describe, expect, test } from 'bun:test';
import { b64, type AccountsSuite } from './context.ts';
import { registrationFor, registrationMaterial, uniqueName, type Harness } from './harness.ts';
import { QUOTA } from '../support/app-harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Registration, the availability check and the login lookup (docs/protocol.md "Accounts"). */
export function registrationTests(suite: AccountsSuite) {
  let h: Harness;
  beforeAll(() => {
    ({ h } = suite);
  });
  const { userCount, userRow, expectError } = suite;

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

    test('a taken username or email (any case) is 409 CONFLICT with the product texts', async () => {
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
      const results = await Promise.all([h.browser().post('/api/register', payload), h.browser().post('/api/register', payload)]);
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
      expect((await browser.get(`/api/check?email=${encodeURIComponent(`${username.toUpperCase()}@EXAMPLE.org`)}`)).body).toEqual(
        { ok: false },
      );
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
}
