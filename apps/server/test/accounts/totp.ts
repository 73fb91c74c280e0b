import { beforeAll, describe, expect, test } from 'bun:test';
import { TOTP_PENDING_LIFETIME_MS } from '../../src/domain/accounts/sessions.ts';
import { b64, type AccountsSuite } from './context.ts';
import { signedInUser, type Harness } from './harness.ts';

/** The second factor: TOTP setup, login with a code and disabling it (docs/protocol.md "Accounts"). */
export function totpTests(suite: AccountsSuite) {
  let h: Harness;
  beforeAll(() => {
    ({ h } = suite);
  });
  const { userRow, sessionRows, codeAt, eventsOf, expectError } = suite;

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
        await expectError(phone.call(method!, path!, method === 'PUT' ? { json: { action: 'setup' } } : {}), 401, 'UNAUTHORIZED');
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
      await expectError(browser.put('/api/totp', { action: 'disable', code, password }), 400, 'VALIDATION', 'Invalid TOTP code.');

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
      await expectError(browser.put('/api/totp', { action: 'confirm', code: '123456' }), 400, 'VALIDATION', 'Set up TOTP first.');
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
}
