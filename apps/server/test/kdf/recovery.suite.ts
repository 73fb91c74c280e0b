import { makeRecovery, recoverAccount, type Registration, type RecoverySetup, unlockAccount } from '@sealbox/crypto';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DEFAULT_RATE_LIMITS } from '../../src/domain/accounts/rate-limits.ts';
import { RECOVERY_REFUSED } from '../../src/domain/accounts/recovery.ts';
import { openHarness, registrationMaterial, signedInUser, uniqueName, type Harness, type MakeDb } from '../accounts/harness.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'remembered at last, a new one';

/**
 * The recovery phrase (docs/protocol.md "Recovery phrase"): made from Profile for the current
 * password, proven with recoveryAuth alone (an unknown name and a wrong phrase answer alike), and
 * a reset that re-seals the same keys under a new password, turns TOTP off (its recovery codes
 * deleted) and ends every session.
 */
export function recoverySuite(dialect: string, makeDb: MakeDb): void {
  describe(`recovery phrase: ${dialect}`, () => {
    let h: Harness;
    let material: Registration;

    beforeAll(async () => {
      h = await openHarness(makeDb);
      material = await registrationMaterial();
    }, 120_000);
    afterAll(() => h.cleanup());

    const userRow = (id: string) => h.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    /** A signed-in user with a recovery phrase made for them. */
    async function withPhrase() {
      const user = await signedInUser(h, { username: uniqueName('rec') });
      const setup = await makeRecovery(PASSWORD, material, user.id);
      const { phrase: _, ...copy } = setup;
      const made = await user.browser.put('/api/account/recovery', { currentPassword: material.password, ...copy });
      expect(made.status).toBe(200);
      return { ...user, setup };
    }

    const open = (username: string, setup: Pick<RecoverySetup, 'recoveryAuth'>) =>
      h.browser().post('/api/recovery/open', { username, recoveryAuth: setup.recoveryAuth });

    test('made for the current password only; its status says when; a new one voids the old', async () => {
      const user = await signedInUser(h, { username: uniqueName('rec') });
      expect((await user.browser.get('/api/account/recovery')).body).toEqual({ createdAt: null });
      const first = await makeRecovery(PASSWORD, material, user.id);
      const { phrase: _, ...copy } = first;
      const wrong = await user.browser.put('/api/account/recovery', { currentPassword: 'A'.repeat(44), ...copy });
      expect({ status: wrong.status, message: wrong.body.message }).toEqual({ status: 403, message: 'Wrong password.' });
      expect((await h.browser().put('/api/account/recovery', { currentPassword: material.password, ...copy })).status).toBe(401);
      for (const bad of [{ recoveryAuth: 'AAAA' }, { recoveryNonce: 'AAAA' }, { recoverySealed: '!' }]) {
        const refused = await user.browser.put('/api/account/recovery', { currentPassword: material.password, ...copy, ...bad });
        expect(refused.status).toBe(400);
      }
      expect((await user.browser.get('/api/account/recovery')).body).toEqual({ createdAt: null });

      const made = await user.browser.put('/api/account/recovery', { currentPassword: material.password, ...copy });
      expect(made.body).toEqual({ createdAt: h.clock.now });
      expect((await user.browser.get('/api/account/recovery')).body).toEqual({ createdAt: h.clock.now });
      expect((await open(user.username, first)).status).toBe(200);

      const second = await makeRecovery(PASSWORD, material, user.id);
      const { phrase: __, ...again } = second;
      expect((await user.browser.put('/api/account/recovery', { currentPassword: material.password, ...again })).status).toBe(
        200,
      );
      expect((await open(user.username, first)).status).toBe(401);
      expect((await open(user.username, second)).status).toBe(200);
      // The server stores the auth only as a hash, and nothing of the phrase.
      const row = await h.db.kysely
        .selectFrom('account_recovery')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(second.recoveryAuth);
      expect(JSON.stringify(row)).not.toContain(second.phrase);
    }, 60_000);

    test('open: the copy for the right phrase; a wrong phrase, an unknown name or no phrase answer alike', async () => {
      const user = await withPhrase();
      const right = await open(user.username, user.setup);
      expect(right.status).toBe(200);
      expect(right.body).toEqual({
        userId: user.id,
        recoverySealed: user.setup.recoverySealed,
        recoveryNonce: user.setup.recoveryNonce,
        publicKey: material.publicKey,
        signingPublicKey: material.signingPublicKey,
      });
      // Case as typed does not matter, as at login.
      expect((await open(user.username.toUpperCase(), user.setup)).status).toBe(200);
      const other = await withPhrase();
      const without = await signedInUser(h, { username: uniqueName('rec') });
      const refusals = [
        await open(user.username, other.setup),
        await open(uniqueName('ghost'), user.setup),
        await open(without.username, user.setup),
      ];
      for (const refused of refusals) {
        expect({ status: refused.status, body: refused.body }).toEqual({
          status: 401,
          body: { error: 'UNAUTHORIZED', message: RECOVERY_REFUSED },
        });
      }
      expect((await h.browser().post('/api/recovery/open', { username: user.username, recoveryAuth: 'AAAA' })).status).toBe(400);
    }, 60_000);

    test('phrase guesses count as wrong logins: one address is refused after the limit, the owner is not', async () => {
      const user = await withPhrase();
      const app = h.makeApp({ rateLimits: DEFAULT_RATE_LIMITS, sleep: async () => {} });
      const attacker = h.browser({ app, ip: '192.0.2.30' });
      const owner = h.browser({ app, ip: '192.0.2.31' });
      const { max } = DEFAULT_RATE_LIMITS.loginAccountIp;
      const guess = (from: typeof attacker) =>
        from.post('/api/recovery/open', {
          username: user.username,
          recoveryAuth: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
        });
      const statuses: number[] = [];
      for (let i = 0; i < max + 3; i++) statuses.push((await guess(attacker)).status);
      expect(statuses).toEqual([...Array<number>(max).fill(401), 429, 429, 429]);
      // The password login of that account from that address shares the count.
      expect((await attacker.post('/api/login', { username: user.username, password: material.password })).status).toBe(429);
      // The owner, elsewhere, still gets in with the phrase.
      const right = await owner.post('/api/recovery/open', { username: user.username, recoveryAuth: user.setup.recoveryAuth });
      expect(right.status).toBe(200);
    }, 60_000);

    test('reset: a new password for the same keys; TOTP off and its recovery codes gone, every session ended, the phrase still good', async () => {
      const user = await withPhrase();
      const phone = h.browser({ ip: '203.0.113.20' });
      expect((await phone.post('/api/login', { username: user.username, password: material.password })).status).toBe(200);
      await h.db.kysely
        .updateTable('users')
        .set({ totp_enabled: 1, totp_secret: 'JBSWY3DPEHPK3PXP' })
        .where('id', '=', user.id)
        .execute();
      const codes = await user.browser.put('/api/totp', { action: 'recovery-codes', password: material.password });
      expect(codes.body.recoveryCodes).toHaveLength(10);
      const codeRows = () =>
        h.db.kysely.selectFrom('totp_recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
      const before = await userRow(user.id);
      const seen = h.delivered.length;

      const opened = (await open(user.username, user.setup)).body;
      const { reset } = await recoverAccount(user.setup.phrase, opened, NEW_PASSWORD);
      // A wrong phrase cannot reset, nor can a reset that reuses the copy's nonce.
      const other = await withPhrase();
      const stranger = await h.browser().post('/api/recovery/reset', {
        username: user.username,
        ...reset,
        recoveryAuth: other.setup.recoveryAuth,
      });
      expect(stranger.status).toBe(401);
      const replayed = await h.browser().post('/api/recovery/reset', {
        username: user.username,
        ...reset,
        recoveryNonce: user.setup.recoveryNonce,
      });
      expect(replayed.status).toBe(400);
      expect(await userRow(user.id)).toEqual(before);
      expect(await codeRows()).toHaveLength(10);

      const done = await h.browser().post('/api/recovery/reset', { username: user.username, ...reset });
      expect(done.status).toBe(204);
      const after = await userRow(user.id);
      expect(after).toMatchObject({
        totp_enabled: 0,
        totp_secret: null,
        password_salt: reset.passwordSalt,
        encrypted_private_key: reset.encryptedPrivateKey,
        public_key: before.public_key,
        signing_public_key: before.signing_public_key,
      });
      // TOTP went off with its recovery codes, in the reset's transaction.
      expect(await codeRows()).toEqual([]);
      expect(await h.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
      expect(h.delivered.slice(seen).filter((e) => e.kind === 'session.ended')).toHaveLength(2);
      expect((await user.browser.get('/api/profile')).status).toBe(401);

      // Only the new password signs in, to the same keys; the phrase opens the fresh copy.
      expect((await h.browser().post('/api/login', { username: user.username, password: material.password })).status).toBe(401);
      const login = await h.browser().post('/api/login', { username: user.username, password: reset.password });
      expect(login.status).toBe(200);
      const keys = await unlockAccount(NEW_PASSWORD, { ...login.body, passwordSalt: reset.passwordSalt });
      expect(keys.publicKey).toBe(material.publicKey);
      const again = await open(user.username, user.setup);
      expect(again.body).toMatchObject({ recoverySealed: reset.recoverySealed, recoveryNonce: reset.recoveryNonce });
    }, 60_000);
  });
}
