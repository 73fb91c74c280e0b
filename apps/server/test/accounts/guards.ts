import { beforeAll, describe, expect, test } from 'bun:test';
import { DEFAULT_RATE_LIMITS, SLOWDOWN_MS, UNLIMITED, type RateLimits } from '../../src/domain/accounts/rate-limits.ts';
import { b64, type AccountsSuite } from './context.ts';
import { ORIGIN, registrationFor, signedInUser, uniqueName, type Harness } from './harness.ts';

/** What guards every call: the origin check, rate limits (docs/operations.md "Accounts: sessions and rate limits") and headers. */
export function guardTests(suite: AccountsSuite) {
  let h: Harness;
  beforeAll(() => {
    ({ h } = suite);
  });
  const { userCount, userRow, codeAt, expectError } = suite;

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
          (await attacker.post('/api/login', { username: i % 2 ? username : username.toUpperCase(), password: b64(32) })).status,
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
}
