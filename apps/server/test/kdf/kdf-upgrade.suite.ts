import { KDF_V2, type KdfUpgrade, type Registration, toBase64, unlockAccount, upgradeAccount } from '@sealbox/crypto';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  KDF_ALREADY_V2,
  KDF_BELOW_DEFAULT,
  KDF_CHANGED_MEANWHILE,
  KDF_ONLY_UPWARDS,
} from '../../src/domain/accounts/kdf-upgrade.ts';
import { openHarness, registrationMaterial, signedInUser, uniqueName, type Harness, type MakeDb } from '../accounts/harness.ts';

const PASSWORD = 'correct horse battery staple';
const b64 = (bytes: number) => toBase64(new Uint8Array(bytes).fill(7));

/**
 * PUT /api/account/kdf (docs/protocol.md "Account"): a version-1 account moves to version-2
 * password keys at its next login. The server replaces the login verifier and the sealed account
 * together, keeps the sessions, and changes nothing on any refusal.
 */
export function kdfUpgradeSuite(dialect: string, makeDb: MakeDb): void {
  describe(`PUT /api/account/kdf: ${dialect}`, () => {
    let h: Harness;
    let v1: Registration;
    let upgrades: KdfUpgrade[];

    beforeAll(async () => {
      h = await openHarness(makeDb);
      v1 = await registrationMaterial();
      // Every user below is registered from the same version-1 material, so these fit them all.
      upgrades = await Promise.all([0, 1].map(async () => (await upgradeAccount(PASSWORD, v1)).upgrade));
    }, 120_000);
    afterAll(() => h.cleanup());

    const userRow = (id: string) => h.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    const v1User = () => signedInUser(h, { username: uniqueName('kdf') });

    const body = (upgrade: KdfUpgrade, overrides: Record<string, unknown> = {}) => ({
      currentPassword: v1.password,
      ...upgrade,
      ...overrides,
    });

    test('200 { kdf }: verifier and sealed account replaced together, sessions kept, only the new login password works', async () => {
      const { id, username, browser } = await v1User();
      const other = h.browser({ ip: '203.0.113.9' });
      expect((await other.post('/api/login', { username, password: v1.password })).status).toBe(200);
      const before = await userRow(id);
      const upgrade = upgrades[0]!;

      const { status, body: answer } = await browser.put('/api/account/kdf', body(upgrade));
      expect(status).toBe(200);
      expect(answer).toEqual({ kdf: KDF_V2 });

      const after = await userRow(id);
      expect(JSON.parse(after.kdf_params)).toEqual(KDF_V2);
      expect(after).toMatchObject({
        password_salt: upgrade.passwordSalt,
        salt: upgrade.salt,
        iv: upgrade.iv,
        encrypted_private_key: upgrade.encryptedPrivateKey,
        public_key: before.public_key,
        signing_public_key: before.signing_public_key,
      });
      // The server's own argon2id of what it received, never the login password itself.
      expect(after.login_verifier).toStartWith('$argon2id$');
      expect(after.login_verifier).not.toBe(before.login_verifier);
      expect(after.login_verifier).not.toContain(upgrade.password);
      expect(await Bun.password.verify(upgrade.password, after.login_verifier)).toBe(true);

      // Both sessions live on.
      expect((await browser.get('/api/profile')).status).toBe(200);
      expect((await other.get('/api/profile')).status).toBe(200);

      // The lookup now hands out version 2; only the new login password signs in.
      const lookup = await h.browser().get(`/api/users/search/${username}?limit=1`);
      expect(lookup.body).toEqual([{ id, username, passwordSalt: upgrade.passwordSalt, kdf: KDF_V2 }]);
      expect((await h.browser().post('/api/login', { username, password: v1.password })).status).toBe(401);
      const login = await h.browser().post('/api/login', { username, password: upgrade.password });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ kdf: KDF_V2, salt: upgrade.salt, iv: upgrade.iv });

      // And what it answers opens with the password, to the same keys.
      const keys = await unlockAccount(PASSWORD, { ...login.body, passwordSalt: lookup.body[0].passwordSalt });
      expect(keys.publicKey).toBe(v1.publicKey);
      expect(keys.signingPublicKey).toBe(v1.signingPublicKey);
    }, 60_000);

    test('without a session: 401, nothing changes', async () => {
      const { id } = await v1User();
      const before = await userRow(id);
      const { status } = await h.browser().put('/api/account/kdf', body(upgrades[0]!));
      expect(status).toBe(401);
      expect(await userRow(id)).toEqual(before);
    });

    test('a wrong current login password (a stolen cookie alone): 403, nothing changes', async () => {
      const { id, browser } = await v1User();
      const before = await userRow(id);
      const { status, body: answer } = await browser.put('/api/account/kdf', body(upgrades[0]!, { currentPassword: b64(32) }));
      expect({ status, error: answer.error, message: answer.message }).toEqual({
        status: 403,
        error: 'FORBIDDEN',
        message: 'Wrong password.',
      });
      expect(await userRow(id)).toEqual(before);
    });

    const kdf = (patch: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      ...KDF_V2,
      ...extra,
      argon2id: { ...KDF_V2.argon2id, ...patch },
    });
    const bad: Array<[string, () => Record<string, unknown>, RegExp | string]> = [
      ['version 1 (a downgrade)', () => ({ kdf: v1.kdf }), KDF_ONLY_UPWARDS],
      ['version 2 with a pbkdf2 part', () => ({ kdf: kdf({}, { pbkdf2: { iterations: 120_000 } }) }), /pbkdf2/],
      ['version 2 below the floor (1 MiB)', () => ({ kdf: kdf({ memoryKiB: 1024 }) }), /memoryKiB is below the minimum 19456/],
      ['version 2 with one pass', () => ({ kdf: kdf({ iterations: 1 }) }), /iterations is below the minimum 2/],
      [
        "version 2 at registration's floor (19 MiB, 2 passes)",
        () => ({ kdf: kdf({ memoryKiB: 19 * 1024, iterations: 2 }) }),
        KDF_BELOW_DEFAULT,
      ],
      ["version 2 with the default's memory but 2 passes", () => ({ kdf: kdf({ iterations: 2 }) }), KDF_BELOW_DEFAULT],
      ["version 2 with the default's passes but 32 MiB", () => ({ kdf: kdf({ memoryKiB: 32 * 1024 }) }), KDF_BELOW_DEFAULT],
      ['version 2 above the ceiling (11 passes)', () => ({ kdf: kdf({ iterations: 11 }) }), /iterations is above the maximum 10/],
      ['version 2 with 1 GiB', () => ({ kdf: kdf({ memoryKiB: 1 << 20 }) }), /memoryKiB is above the maximum/],
      ['an unknown version 3', () => ({ kdf: { ...KDF_V2, version: 3 } }), /kdf.version is above the maximum 2/],
      ['version 0', () => ({ kdf: { ...KDF_V2, version: 0 } }), /kdf.version is below the minimum 1/],
      ['kdf as text', () => ({ kdf: 'argon2id' }), /kdf/],
      ['kdf missing', () => ({ kdf: undefined }), /kdf/],
      ['a 31-byte password', () => ({ password: b64(31) }), /password must be 32 bytes/],
      ['a password that is not base64', () => ({ password: '!'.repeat(44) }), /password must be base64/],
      ['a password of the wrong type', () => ({ password: 12 }), /password/],
      ['no current password', () => ({ currentPassword: undefined }), /currentPassword/],
      ['a 15-byte passwordSalt', () => ({ passwordSalt: b64(15) }), /passwordSalt must be 16 bytes/],
      ['the old passwordSalt again', () => ({ passwordSalt: v1.passwordSalt }), 'passwordSalt must be new'],
      ['a 17-byte salt', () => ({ salt: b64(17) }), /salt must be 16 bytes/],
      ['a 16-byte iv', () => ({ iv: b64(16) }), /iv must be 12 bytes/],
      ['the old iv again', () => ({ iv: v1.iv }), 'iv must be new'],
      ['an empty encryptedPrivateKey', () => ({ encryptedPrivateKey: '' }), /encryptedPrivateKey/],
      ['a 16-byte encryptedPrivateKey', () => ({ encryptedPrivateKey: b64(16) }), /encryptedPrivateKey must be 17-65536 bytes/],
    ];
    test.each(bad)('%s is 400 VALIDATION and changes nothing', async (_, patch, message) => {
      const { id, browser } = await v1User();
      const before = await userRow(id);
      const { status, body: answer } = await browser.put('/api/account/kdf', body(upgrades[0]!, patch()));
      expect({ status, error: answer.error }).toEqual({ status: 400, error: 'VALIDATION' });
      if (typeof message === 'string') expect(answer.message).toBe(message);
      else expect(answer.message).toMatch(message);
      expect(await userRow(id)).toEqual(before);
      // The account still signs in as before.
      expect((await browser.get('/api/profile')).status).toBe(200);
    });

    test('two upgrades racing from two devices: one wins whole, the other changes nothing', async () => {
      const { id, username, browser } = await v1User();
      const second = h.browser({ ip: '203.0.113.7' });
      expect((await second.post('/api/login', { username, password: v1.password })).status).toBe(200);
      const [a, b] = await Promise.all([
        browser.put('/api/account/kdf', body(upgrades[0]!)),
        second.put('/api/account/kdf', body(upgrades[1]!)),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]!);
      const loser = a.status === 200 ? b : a;
      if (loser.status === 409) expect(loser.body.message).toBe(KDF_CHANGED_MEANWHILE);
      const winner = a.status === 200 ? upgrades[0]! : upgrades[1]!;
      const row = await userRow(id);
      expect(row).toMatchObject({
        password_salt: winner.passwordSalt,
        iv: winner.iv,
        encrypted_private_key: winner.encryptedPrivateKey,
      });
      expect(await Bun.password.verify(winner.password, row.login_verifier)).toBe(true);
    }, 30_000);

    test('a version-2 account is refused (409), with its current login password too, and nothing changes', async () => {
      const { id, browser } = await v1User();
      expect((await browser.put('/api/account/kdf', body(upgrades[0]!))).status).toBe(200);
      const before = await userRow(id);
      for (const currentPassword of [upgrades[0]!.password, v1.password]) {
        const again = await browser.put('/api/account/kdf', body(upgrades[1]!, { currentPassword }));
        expect({ status: again.status, error: again.body.error, message: again.body.message }).toEqual({
          status: 409,
          error: 'CONFLICT',
          message: KDF_ALREADY_V2,
        });
      }
      expect(await userRow(id)).toEqual(before);
      expect((await browser.get('/api/profile')).status).toBe(200);
    }, 30_000);

    test('parameters stronger than the default are taken', async () => {
      const { id, browser } = await v1User();
      const stronger = kdf({ iterations: KDF_V2.argon2id.iterations + 1 });
      const { status, body: answer } = await browser.put('/api/account/kdf', body(upgrades[0]!, { kdf: stronger }));
      expect({ status, answer }).toEqual({ status: 200, answer: { kdf: stronger } });
      expect(JSON.parse((await userRow(id)).kdf_params)).toEqual(stronger);
    }, 30_000);
  });
}
