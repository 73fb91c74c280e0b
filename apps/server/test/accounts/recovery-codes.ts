import { beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { INVALID_RECOVERY_CODE_TEXT, RECOVERY_CODE_COUNT } from '@sealbox/rules';
import { UNLIMITED } from '../../src/domain/accounts/rate-limits.ts';
import { b64, type AccountsSuite } from './context.ts';
import { signedInUser, type Harness } from './harness.ts';

/** TOTP recovery codes (docs/protocol.md "TOTP recovery codes"): made at confirm, each good once in place of a code. */
export function recoveryCodeTests(suite: AccountsSuite) {
  let h: Harness;
  beforeAll(() => {
    ({ h } = suite);
  });
  const { userRow, codeAt, eventsOf, expectError } = suite;

  /** A signed-in user with TOTP turned on, and the recovery codes its confirm answered. */
  async function withTotp() {
    const user = await signedInUser(h);
    const { secret } = (await user.browser.put('/api/totp', { action: 'setup', password: user.password })).body;
    const confirm = await user.browser.put('/api/totp', { action: 'confirm', code: await codeAt(secret, h.clock.now) });
    expect(confirm.status).toBe(200);
    return { ...user, secret, codes: confirm.body.recoveryCodes as string[] };
  }

  const codeRows = (userId: string) =>
    h.db.kysely.selectFrom('totp_recovery_codes').selectAll().where('user_id', '=', userId).execute();
  const left = async (browser: Awaited<ReturnType<typeof withTotp>>['browser']) =>
    (await browser.get('/api/totp')).body.recoveryCodesLeft as number;
  const login = (user: { username: string; password: string }, totpCode: string, browser = h.browser()) =>
    browser.post('/api/login', { username: user.username, password: user.password, totpCode });

  describe('TOTP recovery codes', () => {
    test('confirm answers ten distinct codes of the right shape; only their hashes are stored', async () => {
      const user = await withTotp();
      expect(user.codes.length).toBe(RECOVERY_CODE_COUNT);
      expect(new Set(user.codes).size).toBe(RECOVERY_CODE_COUNT);
      for (const code of user.codes) expect(code).toMatch(/^[2-9a-km-np-z]{5}-[2-9a-km-np-z]{5}$/);
      expect(await left(user.browser)).toBe(RECOVERY_CODE_COUNT);

      const rows = await codeRows(user.id);
      const sha = (text: string) => createHash('sha256').update(text).digest('hex');
      expect(rows.map((r) => r.code_hash).sort()).toEqual(user.codes.map((c) => sha(`${user.id}:${c.replace('-', '')}`)).sort());
      const stored = JSON.stringify(rows);
      for (const code of user.codes) {
        expect(stored).not.toContain(code);
        expect(stored).not.toContain(code.replace('-', ''));
      }
      // Without TOTP there are none.
      const plain = await signedInUser(h);
      expect((await plain.browser.get('/api/totp')).body).toEqual({ recoveryCodesLeft: 0 });
      await expectError(h.browser().get('/api/totp'), 401, 'UNAUTHORIZED');
    });

    test('a refused confirm stores no codes: TOTP on and its codes come in one write', async () => {
      const user = await signedInUser(h);
      const { secret } = (await user.browser.put('/api/totp', { action: 'setup', password: user.password })).body;
      const right = await codeAt(secret, h.clock.now);
      const wrong = right === '000000' ? '111111' : '000000';
      expect((await user.browser.put('/api/totp', { action: 'confirm', code: wrong })).status).toBe(400);
      expect(await codeRows(user.id)).toEqual([]);
      expect((await userRow(user.id)).totp_enabled).toBe(0);
      expect((await user.browser.put('/api/totp', { action: 'confirm', code: right })).status).toBe(200);
      expect((await codeRows(user.id)).length).toBe(RECOVERY_CODE_COUNT);
    });

    test('a code signs in once, typed in any case with or without its hyphen; again it is 401', async () => {
      const user = await withTotp();
      const [first, second] = user.codes as [string, string];
      const told = eventsOf(user.id, 'profile.changed').length;
      const signedIn = await login(user, first.replace('-', ' ').toUpperCase());
      expect(signedIn.status).toBe(200);
      // The account's open tabs hear of it: Profile's count of codes left changed.
      expect(eventsOf(user.id, 'profile.changed').length).toBe(told + 1);
      expect(signedIn.body.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
      expect(signedIn.body.user.totpEnabled).toBe(true);
      await expectError(login(user, first), 401, 'UNAUTHORIZED', INVALID_RECOVERY_CODE_TEXT);
      expect(await left(user.browser)).toBe(RECOVERY_CODE_COUNT - 1);
      // A sign-in with the app's code says nothing of the recovery codes.
      const beforeApp = eventsOf(user.id, 'profile.changed').length;
      const byApp = await login(user, await codeAt(user.secret, h.clock.now + 30_000));
      expect(byApp.status).toBe(200);
      expect(eventsOf(user.id, 'profile.changed').length).toBe(beforeApp);
      expect(byApp.body).not.toHaveProperty('recoveryCodesLeft');
      expect((await login(user, second)).body.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 2);
      // Another account's code is no code of this one.
      const other = await withTotp();
      await expectError(login(user, other.codes[0]!), 401, 'UNAUTHORIZED', INVALID_RECOVERY_CODE_TEXT);
      expect(await left(other.browser)).toBe(RECOVERY_CODE_COUNT);
      // Confirming TOTP takes only the app's code.
      await expectError(user.browser.put('/api/totp', { action: 'confirm', code: user.codes[2] }), 400, 'VALIDATION');
    });

    test('a wrong code is 401 and counts against the TOTP limit; a right one is refunded', async () => {
      const user = await withTotp();
      const app = h.makeApp({ rateLimits: { ...UNLIMITED, totpAccount: { max: 2, windowMs: 300_000 } } });
      const browser = h.browser({ app });
      const wrong = 'aaaaa-aaaaa';
      expect(user.codes).not.toContain(wrong);
      await expectError(login(user, wrong, browser), 401, 'UNAUTHORIZED', INVALID_RECOVERY_CODE_TEXT);
      // Right ones do not use the limit up.
      for (const code of user.codes.slice(0, 3)) expect((await login(user, code, browser)).status).toBe(200);
      await expectError(login(user, wrong, browser), 401, 'UNAUTHORIZED');
      await expectError(login(user, user.codes[3]!, browser), 429, 'RATE_LIMITED');
      // Refused by the limit, the code was not used.
      h.clock.advance(300_000);
      expect((await login(user, user.codes[3]!, browser)).status).toBe(200);
    });

    test('two sign-ins racing with one code: exactly one gets in', async () => {
      const user = await withTotp();
      const code = user.codes[0]!;
      const statuses = (await Promise.all([login(user, code), login(user, code), login(user, code)])).map((r) => r.status);
      expect(statuses.sort()).toEqual([200, 401, 401]);
      expect(await left(user.browser)).toBe(RECOVERY_CODE_COUNT - 1);
    });

    test('made again with the password while TOTP is on: the old ones stop working', async () => {
      const user = await withTotp();
      await login(user, user.codes[0]!);
      const seen = eventsOf(user.id, 'profile.changed').length;
      await expectError(
        user.browser.put('/api/totp', { action: 'recovery-codes', password: b64(32) }),
        403,
        'FORBIDDEN',
        'Wrong password.',
      );
      await expectError(user.browser.put('/api/totp', { action: 'recovery-codes' }), 400, 'VALIDATION');
      expect(await left(user.browser)).toBe(RECOVERY_CODE_COUNT - 1);

      const again = await user.browser.put('/api/totp', { action: 'recovery-codes', password: user.password });
      expect(again.status).toBe(200);
      expect(Object.keys(again.body)).toEqual(['recoveryCodes']);
      const fresh = again.body.recoveryCodes as string[];
      expect(fresh.length).toBe(RECOVERY_CODE_COUNT);
      expect(fresh.filter((c) => user.codes.includes(c))).toEqual([]);
      expect(await left(user.browser)).toBe(RECOVERY_CODE_COUNT);
      expect(eventsOf(user.id, 'profile.changed').length).toBeGreaterThan(seen);
      await expectError(login(user, user.codes[1]!), 401, 'UNAUTHORIZED', INVALID_RECOVERY_CODE_TEXT);
      expect((await login(user, fresh[0]!)).status).toBe(200);

      const plain = await signedInUser(h);
      await expectError(
        plain.browser.put('/api/totp', { action: 'recovery-codes', password: plain.password }),
        400,
        'VALIDATION',
        'TOTP is not enabled.',
      );
      expect(await codeRows(plain.id)).toEqual([]);
      await expectError(
        h.browser().put('/api/totp', { action: 'recovery-codes', password: plain.password }),
        401,
        'UNAUTHORIZED',
      );
    });

    test('TOTP turned off, with the app or with a recovery code (a lost device): every code goes', async () => {
      const byApp = await withTotp();
      h.clock.advance(30_000);
      const off = await byApp.browser.put('/api/totp', {
        action: 'disable',
        code: await codeAt(byApp.secret, h.clock.now),
        password: byApp.password,
      });
      expect(off).toMatchObject({ status: 200, body: { enabled: false } });
      expect(await codeRows(byApp.id)).toEqual([]);

      const lost = await withTotp();
      await expectError(
        lost.browser.put('/api/totp', { action: 'disable', code: 'aaaaa-aaaaa', password: lost.password }),
        400,
        'VALIDATION',
        INVALID_RECOVERY_CODE_TEXT,
      );
      // The password is checked before the code: a wrong one leaves the code unused.
      await expectError(
        lost.browser.put('/api/totp', { action: 'disable', code: lost.codes[0], password: b64(32) }),
        403,
        'FORBIDDEN',
      );
      expect(await left(lost.browser)).toBe(RECOVERY_CODE_COUNT);
      const disabled = await lost.browser.put('/api/totp', { action: 'disable', code: lost.codes[0], password: lost.password });
      expect(disabled).toMatchObject({ status: 200, body: { enabled: false } });
      expect(await userRow(lost.id)).toMatchObject({ totp_enabled: 0, totp_secret: null });
      expect(await codeRows(lost.id)).toEqual([]);
      expect((await h.browser().post('/api/login', { username: lost.username, password: lost.password })).status).toBe(200);
    });
  });
}
