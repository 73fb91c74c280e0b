import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { registrationFor, uniqueName } from './accounts/harness.ts';

/** The accounts API over a real socket: cookies through fetch, the socket address for limits. */
describe('accounts over a real server', () => {
  let dataDir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sealbox-accounts-server-'));
    const env = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, WEB_DIST: dataDir, RATE_LIMIT_CHECK_IP: '3/60' };
    server = await startServer(loadConfig(env), { logger: silentLogger });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('register, log in, use the cookie, upload an avatar, log out', async () => {
    const username = uniqueName('wire');
    const registration = await registrationFor(username);
    const json = (body: unknown) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify(body),
    });
    expect((await fetch(`${server.url}/api/register`, json(registration))).status).toBe(201);
    const login = await fetch(`${server.url}/api/login`, json({ username, password: registration.password }));
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const profile = await fetch(`${server.url}/api/profile`, { headers: { cookie } });
    const { id } = (await profile.json()) as { id: string };
    const form = new FormData();
    form.append('avatar', new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'me.jpg'));
    const upload = await fetch(`${server.url}/api/profile/upload`, {
      method: 'PUT',
      headers: { cookie, origin: server.url },
      body: form,
    });
    expect(await upload.json()).toEqual({ avatarExtension: 'jpg' });
    const avatar = await fetch(`${server.url}/api/avatars/${id}.jpg?x=1`);
    expect(avatar.headers.get('content-type')).toBe('image/jpeg');
    const tooBig = await fetch(`${server.url}/api/profile/upload`, {
      method: 'PUT',
      headers: { cookie, origin: server.url },
      body: (() => {
        const f = new FormData();
        f.append('avatar', new File([new Uint8Array(3 * 1024 * 1024).fill(0xff)], 'big.jpg'));
        return f;
      })(),
    });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: string }).error).toBe('TOO_LARGE');
    const logout = await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { cookie, origin: server.url } });
    expect(logout.status).toBe(204);
    expect((await fetch(`${server.url}/api/profile`, { headers: { cookie } })).status).toBe(401);
  });

  test('rate limits count the socket address (TRUST_PROXY off: X-Forwarded-For is ignored)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${server.url}/api/check?username=abcdef`, { headers: { 'x-forwarded-for': `192.0.2.${i}` } });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
