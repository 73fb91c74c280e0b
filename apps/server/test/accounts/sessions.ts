import { beforeAll, describe, expect, test } from 'bun:test';
import { SESSION_LIFETIME_MS } from '../../src/domain/accounts/sessions.ts';
import { b64, PROFILE_KEYS, type AccountsSuite } from './context.ts';
import { registrationFor, signedInUser, uniqueName, type Harness } from './harness.ts';
import { QUOTA } from '../support/app-harness.ts';

/** Login and logout, the session guard and the list of sessions (docs/protocol.md "Accounts"). */
export function sessionTests(suite: AccountsSuite) {
  let h: Harness;
  beforeAll(() => {
    ({ h } = suite);
  });
  const { sessionRows, eventsOf, expectError } = suite;

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
}
