import { changeAccountPassword, KDF_V2, type KdfUpgrade, type Registration, unlockAccount } from '@sealbox/crypto';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { INVALID_CREDENTIALS_TEXT } from '@sealbox/rules';
import { createAccountRepositories } from '../../src/infra/db/accounts/index.ts';
import { KDF_BELOW_DEFAULT, KDF_CHANGED_MEANWHILE, KDF_ONLY_UPWARDS } from '../../src/domain/accounts/kdf-upgrade.ts';
import { openHarness, registrationMaterial, signedInUser, uniqueName, type Harness, type MakeDb } from '../accounts/harness.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a new password, long enough';

/**
 * PUT /api/account/password (docs/protocol.md "Password change"): the same bundle re-sealed under
 * keys of the new password. The verifier and the sealed account are replaced together, every
 * other session of the account ends (session.ended for each), the caller's stays, and nothing
 * changes on any refusal.
 */
export function passwordChangeSuite(dialect: string, makeDb: MakeDb): void {
  describe(`PUT /api/account/password: ${dialect}`, () => {
    let h: Harness;
    let material: Registration;
    let changes: KdfUpgrade[];

    beforeAll(async () => {
      h = await openHarness(makeDb);
      material = await registrationMaterial();
      // Every user below is registered from the same material, so these fit them all.
      changes = await Promise.all([0, 1].map(async () => (await changeAccountPassword(PASSWORD, material, NEW_PASSWORD)).change));
    }, 120_000);
    afterAll(() => h.cleanup());

    const userRow = (id: string) => h.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const sessionIds = async (userId: string) =>
      (await h.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).map((r) => r.id).sort();

    const newUser = () => signedInUser(h, { username: uniqueName('pw') });

    const body = (change: KdfUpgrade, overrides: Record<string, unknown> = {}) => ({
      currentPassword: material.password,
      ...change,
      ...overrides,
    });

    test('200: verifier and sealed account replaced, every other session ended, this one kept', async () => {
      const { id, username, browser } = await newUser();
      const phone = h.browser({ ip: '203.0.113.9' });
      const laptop = h.browser({ ip: '203.0.113.10' });
      for (const other of [phone, laptop]) {
        expect((await other.post('/api/login', { username, password: material.password })).status).toBe(200);
      }
      const before = await userRow(id);
      const sessionsBefore = await sessionIds(id);
      expect(sessionsBefore).toHaveLength(3);
      const seen = h.delivered.length;

      const change = changes[0]!;
      const { status, body: answer } = await browser.put('/api/account/password', body(change));
      expect({ status, answer }).toEqual({ status: 200, answer: { kdf: KDF_V2, endedSessions: 2 } });

      const after = await userRow(id);
      // Only the account's password keys changed: same public keys, same everything else.
      const {
        login_verifier: v0,
        password_salt: p0,
        salt: s0,
        iv: i0,
        encrypted_private_key: e0,
        kdf_params: k0,
        ...rest0
      } = before;
      const {
        login_verifier: v1,
        password_salt: p1,
        salt: s1,
        iv: i1,
        encrypted_private_key: e1,
        kdf_params: k1,
        ...rest1
      } = after;
      expect(rest1).toEqual(rest0);
      expect({ p1, s1, i1, e1, k1: JSON.parse(k1) }).toEqual({
        p1: change.passwordSalt,
        s1: change.salt,
        i1: change.iv,
        e1: change.encryptedPrivateKey,
        k1: KDF_V2,
      });
      expect(v1).not.toBe(v0);
      expect(await Bun.password.verify(change.password, v1)).toBe(true);

      // The other sessions are gone, each told; this one stays.
      const left = await sessionIds(id);
      expect(left).toHaveLength(1);
      const ended = h.delivered.slice(seen).filter((e) => e.kind === 'session.ended');
      expect(ended.map((e) => e.sessionId).sort()).toEqual(sessionsBefore.filter((s) => !left.includes(s)));
      expect(ended.every((e) => e.userIds.length === 1 && e.userIds[0] === id)).toBe(true);
      expect((await browser.get('/api/profile')).status).toBe(200);
      for (const other of [phone, laptop]) expect((await other.get('/api/profile')).status).toBe(401);

      // Only the new password signs in, and what it answers opens to the same keys.
      expect((await h.browser().post('/api/login', { username, password: material.password })).status).toBe(401);
      const login = await h.browser().post('/api/login', { username, password: change.password });
      expect(login.status).toBe(200);
      const keys = await unlockAccount(NEW_PASSWORD, { ...login.body, passwordSalt: change.passwordSalt });
      expect([keys.publicKey, keys.signingPublicKey]).toEqual([material.publicKey, material.signingPublicKey]);
      await expect(unlockAccount(PASSWORD, { ...login.body, passwordSalt: change.passwordSalt })).rejects.toThrow();
    }, 60_000);

    test('POST /api/account/sealed: the sealed account for the current login password only', async () => {
      const { browser } = await newUser();
      const got = await browser.post('/api/account/sealed', { currentPassword: material.password });
      expect(got.status).toBe(200);
      const { password: _, ...sealed } = material;
      expect(got.body).toEqual({ ...sealed, kdf: material.kdf });
      const wrong = await browser.post('/api/account/sealed', { currentPassword: changes[0]!.password });
      expect({ status: wrong.status, body: wrong.body.encryptedPrivateKey }).toEqual({ status: 403, body: undefined });
      expect((await h.browser().post('/api/account/sealed', { currentPassword: material.password })).status).toBe(401);
      expect((await browser.post('/api/account/sealed', {})).status).toBe(400);
    });

    test('without a session: 401, nothing changes', async () => {
      const { id } = await newUser();
      const before = await userRow(id);
      expect((await h.browser().put('/api/account/password', body(changes[0]!))).status).toBe(401);
      expect(await userRow(id)).toEqual(before);
    });

    test('a wrong current password (a stolen cookie alone): 403, nothing changes, no session ends', async () => {
      const { id, username, browser } = await newUser();
      const other = h.browser({ ip: '203.0.113.11' });
      expect((await other.post('/api/login', { username, password: material.password })).status).toBe(200);
      const before = await userRow(id);
      const wrong = await browser.put('/api/account/password', body(changes[0]!, { currentPassword: changes[1]!.password }));
      expect({ status: wrong.status, message: wrong.body.message }).toEqual({ status: 403, message: 'Wrong password.' });
      expect(await userRow(id)).toEqual(before);
      expect(await sessionIds(id)).toHaveLength(2);
    });

    const bad: Array<[string, () => Record<string, unknown>, string | RegExp]> = [
      ['version 1 keys', () => ({ kdf: material.kdf }), KDF_ONLY_UPWARDS],
      [
        'keys below the default',
        () => ({ kdf: { ...KDF_V2, argon2id: { ...KDF_V2.argon2id, iterations: 2 } } }),
        KDF_BELOW_DEFAULT,
      ],
      ['the old passwordSalt', () => ({ passwordSalt: material.passwordSalt }), 'passwordSalt must be new'],
      ['the old iv', () => ({ iv: material.iv }), 'iv must be new'],
      ['a 31-byte login password', () => ({ password: 'A'.repeat(40) }), /password must be 32 bytes/],
    ];
    test.each(bad)('%s: 400, nothing changes', async (_, patch, message) => {
      const { id, browser } = await newUser();
      const before = await userRow(id);
      const { status, body: answer } = await browser.put('/api/account/password', body(changes[0]!, patch()));
      expect({ status, error: answer.error }).toEqual({ status: 400, error: 'VALIDATION' });
      if (typeof message === 'string') expect(answer.message).toBe(message);
      else expect(answer.message).toMatch(message);
      expect(await userRow(id)).toEqual(before);
    });

    test('a sign-in checked against the old password just before the change lands gets no session', async () => {
      const { id, username, browser } = await newUser();
      // The sign-in read the account (and checked the password) before the change committed.
      const repositories = createAccountRepositories(h.db);
      const stale = (await repositories.users.findById(id))!;
      expect((await browser.put('/api/account/password', body(changes[1]!))).status).toBe(200);
      const sessionsAfter = await sessionIds(id);
      const racing = h.makeApp({
        accounts: { ...repositories, users: { ...repositories.users, findByUsername: async () => stale } },
      });
      const late = await h
        .browser({ app: racing, ip: '203.0.113.11' })
        .post('/api/login', { username, password: material.password });
      expect({ status: late.status, message: late.body.message }).toEqual({ status: 401, message: INVALID_CREDENTIALS_TEXT });
      expect(await sessionIds(id)).toEqual(sessionsAfter);
    }, 60_000);

    test('two changes racing from two devices: one wins whole, the other changes nothing', async () => {
      const { id, username, browser } = await newUser();
      const second = h.browser({ ip: '203.0.113.12' });
      expect((await second.post('/api/login', { username, password: material.password })).status).toBe(200);
      const [a, b] = await Promise.all([
        browser.put('/api/account/password', body(changes[0]!)),
        second.put('/api/account/password', body(changes[1]!)),
      ]);
      const winnerIndex = a.status === 200 ? 0 : 1;
      const loser = winnerIndex === 0 ? b : a;
      expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
      // The loser either lost the compare-and-set, or its session had been ended by the winner.
      expect([401, 403, 409]).toContain(loser.status);
      if (loser.status === 409) expect(loser.body.message).toBe(KDF_CHANGED_MEANWHILE);
      const row = await userRow(id);
      expect(row.encrypted_private_key).toBe(changes[winnerIndex]!.encryptedPrivateKey);
      expect(await sessionIds(id)).toHaveLength(1);
    }, 30_000);
  });
}
