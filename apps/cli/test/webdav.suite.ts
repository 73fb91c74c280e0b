/**
 * `sealbox webdav` against the real server, tested with real clients (issue 26 part 3,
 * docs/cli.md "WebDAV"): litmus, the WebDAV compliance suite (basic, copymove and http pass whole;
 * props and locks fail only where a property would be stored, which the bridge refuses), and
 * rclone syncing a tree up, checking it with --download and syncing it down again byte for byte.
 * Live events clear its listing cache. And the bridge's own guards: loopback only, a Host header naming it, its password, and a PUT
 * cut off half-way leaving nothing behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUser, type TestUser } from '../../../e2e/support/accounts.ts';
import { apiLogin, apiUploadFile } from '../../../e2e/support/files.ts';
import { decryptName, unwrapItemKey } from '@sealbox/crypto';
import { startServer, type RunningServer } from '../../../e2e/support/server.ts';
import { type Cli, makeCli, random, type spawnCli, startBridge, startProxy, rcloneRemote } from './support.ts';

const SLOW = 600_000;
const DAV_PASSWORD = 'bridge-password-for-tests';

/** Runs a command to its end; answers its exit code and output. */
async function run(cmd: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

/** Each litmus test's outcome by name ('pass', 'FAIL', 'SKIPPED'), and the summary lines. */
function litmusOutcomes(output: string): Map<string, string> {
  const outcomes = new Map<string, string>();
  for (const match of output.matchAll(/^\s*\d+\.\s+(\w+)\.*\s+(pass|FAIL|SKIPPED)/gm)) outcomes.set(match[1]!, match[2]!);
  return outcomes;
}

/** On SQLite + disk: the bridge sees the server only through its API, whatever stores it. */
export function webdavSuite() {
  describe('sealbox webdav: sqlite + disk', () => {
    let server: RunningServer;
    let user: TestUser;
    let cli: Cli;
    let bridge: ReturnType<typeof spawnCli>;
    let url: string;
    const auth = { authorization: `Basic ${Buffer.from(`sealbox:${DAV_PASSWORD}`).toString('base64')}` };

    beforeAll(async () => {
      server = await startServer({ env: { RATE_LIMITS: 'off' } });
      user = await createUser(server.url);
      cli = await makeCli(user.password);
      expect((await cli.run(['login', server.url, user.username])).code).toBe(0);
      ({ child: bridge, url } = await startBridge(cli, user.password, DAV_PASSWORD));
    }, SLOW);

    afterAll(async () => {
      bridge?.kill('SIGTERM');
      await bridge?.exited;
      await server?.stop();
    });

    test('guards: loopback, its own Host, its password', async () => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/`, { method: 'PROPFIND', headers: { depth: '0' } })).status).toBe(401);
      const wrong = { authorization: `Basic ${Buffer.from('sealbox:nope').toString('base64')}` };
      expect((await fetch(`${url}/`, { method: 'PROPFIND', headers: { ...wrong, depth: '0' } })).status).toBe(401);
      // A page on another name that resolves to 127.0.0.1 (DNS rebinding) is refused.
      const rebound = await fetch(`${url}/`, { method: 'PROPFIND', headers: { ...auth, depth: '0', host: 'evil.example:80' } });
      expect(rebound.status).toBe(403);
      const ok = await fetch(`${url}/`, { method: 'PROPFIND', headers: { ...auth, depth: '0' } });
      expect(ok.status).toBe(207);
      expect((await fetch(`${url}/`, { method: 'PROPFIND', headers: { ...auth, depth: 'infinity' } })).status).toBe(403);
    });

    test(
      'litmus: basic, copymove and http pass whole; props and locks fail only on stored properties',
      async () => {
        const outcomes = new Map<string, string>();
        for (const suite of ['basic', 'copymove', 'http', 'props', 'locks']) {
          const result = await run(['litmus', `${url}/`, 'sealbox', DAV_PASSWORD], { TESTS: suite });
          for (const [name, outcome] of litmusOutcomes(result.stdout)) outcomes.set(`${suite}/${name}`, outcome);
          const summary = /summary for `\w+': of (\d+) tests run: (\d+) passed/.exec(result.stdout);
          expect(summary).not.toBeNull();
          if (['basic', 'copymove', 'http'].includes(suite)) expect(summary![2]).toBe(summary![1]);
        }
        const failed = [...outcomes].filter(([, outcome]) => outcome === 'FAIL').map(([name]) => name);
        // Every failure is a PROPPATCH (a dead property to store), or the read-back of one.
        expect(failed.sort()).toEqual(['locks/owner_modify', 'props/propget', 'props/propmanyns', 'props/propset']);
        expect(outcomes.get('basic/put_get_utf8_segment')).toBe('pass');
        expect(outcomes.get('locks/cond_put')).toBe('pass');
      },
      SLOW,
    );

    test(
      'rclone: a tree synced up, checked with --download, synced down byte for byte',
      async () => {
        const base = await mkdtemp(join(tmpdir(), 'sealbox-rclone-'));
        const up = join(base, 'up');
        const files = new Map<string, Uint8Array<ArrayBuffer>>();
        files.set('big/one large file.bin', random(40 * 1024 * 1024 + 5));
        for (let i = 0; i < 200; i++)
          files.set(`many/file ${String(i).padStart(3, '0')}.txt`, new TextEncoder().encode(`small ${i}`));
        files.set('Ünïcødé/日本語/файл ✓.txt', new TextEncoder().encode('names in several scripts'));
        files.set('empty', new Uint8Array(0));
        for (const [path, bytes] of files) {
          await mkdir(join(up, path, '..'), { recursive: true });
          await writeFile(join(up, path), bytes);
        }
        const remote = await rcloneRemote(url, DAV_PASSWORD, base);
        const synced = await run(['rclone', 'sync', up, 'sb:Backup', '--transfers', '4'], remote);
        expect(synced.stderr).not.toContain('ERROR');
        expect(synced.code).toBe(0);
        const checked = await run(['rclone', 'check', '--download', up, 'sb:Backup'], remote);
        expect(checked.stderr).toContain('0 differences found');
        expect(checked.code).toBe(0);
        const down = join(base, 'down');
        expect((await run(['rclone', 'sync', 'sb:Backup', down], remote)).code).toBe(0);
        for (const [path, bytes] of files)
          expect(new Uint8Array(await readFile(join(down, path)))).toEqual(new Uint8Array(bytes));
        expect((await readdir(join(down, 'many'))).length).toBe(200);

        // Ranges read only what they ask for, each chunk checked: inside, across chunks, a suffix.
        const big = files.get('big/one large file.bin')!;
        const bigUrl = `${url}/Backup/big/${encodeURIComponent('one large file.bin')}`;
        for (const [range, from, to] of [
          ['bytes=1000-1999', 1000, 2000],
          ['bytes=262000-5000000', 262_000, 5_000_001],
          [`bytes=-${100}`, big.length - 100, big.length],
        ] as const) {
          const answer = await fetch(bigUrl, { headers: { ...auth, range } });
          expect(answer.status).toBe(206);
          expect(answer.headers.get('content-range')).toBe(`bytes ${from}-${to - 1}/${big.length}`);
          expect(new Uint8Array(await answer.arrayBuffer())).toEqual(big.slice(from, to));
        }
        expect((await fetch(bigUrl, { headers: { ...auth, range: `bytes=${big.length}-` } })).status).toBe(416);

        // What rclone put is what the drive holds: the CLI (the web app's crypto) lists it.
        const listed = await cli.json(['ls', '/Backup/Ünïcødé/日本語']);
        expect(listed.value.map((row: { name: string }) => row.name)).toEqual(['файл ✓.txt']);
      },
      SLOW,
    );

    test('a change made elsewhere shows in the next listing at once: live events clear the cache', async () => {
      const listing = async () =>
        (await fetch(`${url}/Live/`, { method: 'PROPFIND', headers: { ...auth, depth: '1' } }).then((r) => r.text())).match(
          /<D:displayname>[^<]*<\/D:displayname>/g,
        ) ?? [];
      expect((await fetch(`${url}/Live`, { method: 'MKCOL', headers: auth })).status).toBe(201);
      expect(await listing()).toEqual(['<D:displayname>Live</D:displayname>']);
      // The web app (here its crypto through the API) adds a file; the cache kept for 30 s is cleared.
      const session = await apiLogin(server.url, user);
      const listed = await (
        await fetch(`${server.url}/api/file?depth=1&limit=1000&offset=0`, { headers: { cookie: session.cookie } })
      ).json();
      for (const item of listed.files) {
        const key = await unwrapItemKey(session.rootKey, item.id, item.encryptedKey, item.keyNonce);
        if ((await decryptName(key, item.id, item.encryptedFileName, item.nameNonce)) !== 'Live') continue;
        await apiUploadFile(session, { id: item.id, key }, 'from the web.txt', new TextEncoder().encode('hi'));
      }
      for (let tries = 0; tries < 50 && (await listing()).length < 2; tries++) await Bun.sleep(100);
      expect(await listing()).toContain('<D:displayname>from the web.txt</D:displayname>');
    });

    test('60 files PUT into one folder, four at a time: the folder is listed a few times, not once a file', async () => {
      // A second bridge, through a proxy that counts listings (and passes the live socket on).
      const proxy = startProxy(server.url);
      const counted = await makeCli(user.password);
      expect((await counted.run(['login', proxy.url, user.username])).code).toBe(0);
      const { child, url: davUrl } = await startBridge(counted, user.password, DAV_PASSWORD);
      try {
        expect((await fetch(`${davUrl}/Many`, { method: 'MKCOL', headers: auth })).status).toBe(201);
        // Its live socket says hello soon after it starts; until then each PUT lists afresh.
        await Bun.sleep(1000);
        const before = proxy.listings;
        const names = Array.from({ length: 60 }, (_, i) => `file ${i}.txt`);
        for (let i = 0; i < names.length; i += 4) {
          const four = names.slice(i, i + 4);
          const statuses = await Promise.all(
            four.map((name) =>
              fetch(`${davUrl}/Many/${encodeURIComponent(name)}`, {
                method: 'PUT',
                headers: auth,
                body: `content of ${name}`,
              }).then((response) => response.status),
            ),
          );
          expect(statuses).toEqual([201, 201, 201, 201]);
        }
        expect(proxy.listings - before).toBeLessThan(8);
        // What it kept is what the server has: a fresh bridge lists the same 60 and each opens.
        const listed = await fetch(`${url}/Many/`, { method: 'PROPFIND', headers: { ...auth, depth: '1' } }).then((r) =>
          r.text(),
        );
        for (const name of names) expect(listed).toContain(`<D:displayname>${name}</D:displayname>`);
        expect(await (await fetch(`${davUrl}/Many/file%2059.txt`, { headers: auth })).text()).toBe('content of file 59.txt');
        // The same name again is a new version of that file, not a second file.
        expect((await fetch(`${davUrl}/Many/file%200.txt`, { method: 'PUT', headers: auth, body: 'again' })).status).toBe(204);
        expect(await (await fetch(`${url}/Many/file%200.txt`, { headers: auth })).text()).toBe('again');
        const again = await fetch(`${url}/Many/`, { method: 'PROPFIND', headers: { ...auth, depth: '1' } }).then((r) => r.text());
        expect(again.match(/<D:displayname>file 0\.txt<\/D:displayname>/g)).toHaveLength(1);
      } finally {
        child.kill('SIGTERM');
        await child.exited;
        proxy.stop();
      }
    });

    test('a PUT cut off half-way leaves nothing behind, not even an unfinished upload', async () => {
      const size = 30 * 1024 * 1024;
      const socket = await Bun.connect({
        hostname: '127.0.0.1',
        port: Number(new URL(url).port),
        socket: { data() {} },
      });
      const head =
        `PUT /cut-off.bin HTTP/1.1\r\nHost: 127.0.0.1:${new URL(url).port}\r\nAuthorization: ${auth.authorization}\r\n` +
        `Content-Length: ${size}\r\nContent-Type: application/octet-stream\r\n\r\n`;
      socket.write(head);
      socket.write(random(5 * 1024 * 1024));
      await Bun.sleep(500);
      socket.end();
      await Bun.sleep(1500);
      expect((await fetch(`${url}/cut-off.bin`, { method: 'HEAD', headers: auth })).status).toBe(404);
      const session = await apiLogin(server.url, user);
      const unfinished = await (
        await fetch(`${server.url}/api/uploads?limit=10&offset=0`, { headers: { cookie: session.cookie } })
      ).json();
      expect(unfinished.total).toBe(0);
    });
  });
}
