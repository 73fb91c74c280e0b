/**
 * The `sealbox` CLI against the real server (issue 26 part 1, docs/cli.md): signing in (a
 * session file of mode 0600 holding no key, TOTP, wrong passwords and unknown names refused with
 * exit 3), whoami, mkdir -p, ls and tree with names as the web app shows them, folders made by the
 * CLI opening with the web app's crypto and the reverse, ambiguous names (exit 5), missing paths
 * (exit 4), a session ended elsewhere, and --json answers and errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHUNK,
  PART_CHUNKS,
  ciphertextSize,
  decryptName,
  fingerprint,
  openPins,
  partCount,
  sealPins,
  unwrapItemKey,
  unwrapKeyFromUser,
  verifyGrant,
} from '@sealbox/crypto';
import { createUser, freshCode, type TestUser } from '../../../e2e/support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, type ApiSession } from '../../../e2e/support/files.ts';
import { startServer, type RunningServer } from '../../../e2e/support/server.ts';
import { type Cli, makeCli, random, spawnCli, startProxy } from './support.ts';

const SLOW = 120_000;

export function cliSuite(label: string, environment: () => Promise<{ env: Record<string, string>; stop(): Promise<void> }>) {
  describe(`sealbox CLI: ${label}`, () => {
    let server: RunningServer;
    let stopEnvironment: () => Promise<void> = async () => {};
    let user: TestUser;
    let cli: Cli;

    beforeAll(async () => {
      const made = await environment();
      stopEnvironment = made.stop;
      server = await startServer({ env: { RATE_LIMITS: 'off', ...made.env } });
      user = await createUser(server.url);
      cli = await makeCli(user.password);
    }, SLOW);

    afterAll(async () => {
      await server?.stop();
      await stopEnvironment();
    });

    test(
      'login keeps a 0600 session and no key; wrong password, unknown name and no session are exit 3',
      async () => {
        const wrong = await cli.run(['login', server.url, user.username], { env: { SEALBOX_PASSWORD: 'not the password' } });
        expect(wrong.code).toBe(3);
        expect(wrong.stderr).toBe('sealbox: Invalid username or password.\n');
        const nobody = await cli.run(['login', server.url, 'nobody-here']);
        expect(nobody.code).toBe(3);
        expect((await cli.run(['whoami'])).code).toBe(3);

        // The password from stdin, never from the command line.
        const signedIn = await cli.run(['login', server.url, user.username, '--password-stdin'], {
          env: { SEALBOX_PASSWORD: '' },
          stdin: `${user.password}\n`,
        });
        expect(signedIn.stderr).toBe('');
        expect(signedIn.code).toBe(0);
        expect(signedIn.stdout).toBe(`Signed in to ${server.url} as ${user.username}.\n`);
        const file = join(cli.dir, 'session.json');
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        expect((await stat(cli.dir)).mode & 0o777).toBe(0o700);
        const kept = JSON.parse(await readFile(file, 'utf8'));
        expect(Object.keys(kept).sort()).toEqual(['server', 'token', 'userId', 'username']);
        expect(await readFile(file, 'utf8')).not.toContain(user.password);

        const me = await cli.json(['whoami']);
        expect(me.code).toBe(0);
        expect(me.value).toMatchObject({ server: server.url, username: user.username, userId: user.id });
      },
      SLOW,
    );

    test(
      'mkdir -p, ls and tree: names as the web app shows them, both ways',
      async () => {
        expect((await cli.run(['mkdir', '-p', 'Docs/2026/Taxes', 'Photos ✈ Trip'])).code).toBe(0);
        // -p again changes nothing; without -p an existing name is refused, in any case.
        expect((await cli.json(['mkdir', '-p', 'Docs/2026'])).value).toEqual({ made: [] });
        const taken = await cli.run(['mkdir', 'docs']);
        expect(taken.code).toBe(5);
        expect(taken.stderr).toBe('sealbox: A folder named "docs" already exists here.\n');
        expect((await cli.run(['mkdir', 'Docs/a\\b'])).code).toBe(2);

        // Made through the API as the web app's worker makes them: the CLI reads them.
        const session = await apiLogin(server.url, user);
        const docs = await folderNamed(session, null, 'Docs');
        await apiUploadFile(session, docs, 'notes.txt', new TextEncoder().encode('twelve bytes'));
        const ls = await cli.run(['ls', '-l', '/Docs']);
        expect(ls.code).toBe(0);
        expect(
          ls.stdout
            .split('\n')
            .filter(Boolean)
            .map((row) => row.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/, 'WHEN')),
        ).toEqual(['d          -  WHEN  2026/', '-       12 B  WHEN  notes.txt']);
        const tree = await cli.run(['tree']);
        expect(tree.stdout).toBe(
          [
            '/',
            '├── Docs/',
            '│   ├── 2026/',
            '│   │   └── Taxes/',
            '│   └── notes.txt',
            '└── Photos ✈ Trip/',
            '',
            '4 folders, 1 file',
            '',
          ].join('\n'),
        );
        const listed = await cli.json(['ls', 'Docs/notes.txt']);
        expect(listed.value).toMatchObject([{ name: 'notes.txt', type: 'file', size: 12, decrypted: true }]);

        // ...and what the CLI made opens with the web app's crypto under the real keys.
        const taxes = await folderNamed(session, await folderNamed(session, docs, '2026'), 'Taxes');
        expect(taxes.id).toMatch(/^[0-9a-f-]{36}$/);
      },
      SLOW,
    );

    test(
      'missing paths are exit 4, two items of one name exit 5 with their ids, a wrong password exit 3',
      async () => {
        const missing = await cli.run(['ls', 'Nope/deeper']);
        expect(missing.code).toBe(4);
        expect(missing.stderr).toBe('sealbox: /Nope: no such file or folder.\n');
        const throughFile = await cli.run(['ls', 'Docs/notes.txt/x']);
        expect(throughFile.code).toBe(4);

        const session = await apiLogin(server.url, user);
        const one = await apiCreateFolder(session, null, 'Twice');
        const two = await apiCreateFolder(session, null, 'twice');
        const ambiguous = await cli.json(['ls', 'TWICE']);
        expect(ambiguous.code).toBe(5);
        expect(ambiguous.value.exitCode).toBe(5);
        expect(ambiguous.value.error).toContain(one.id);
        expect(ambiguous.value.error).toContain(two.id);

        const wrong = await cli.run(['ls'], { env: { SEALBOX_PASSWORD: 'not the password' } });
        expect(wrong.code).toBe(3);
        expect(wrong.stderr).toBe('sealbox: Wrong password.\n');
        const usage = await cli.run(['frobnicate']);
        expect(usage.code).toBe(2);
        expect((await cli.run(['ls', '--bogus'])).code).toBe(2);
      },
      SLOW,
    );

    test(
      'TOTP: a code from the environment signs in; without one and no terminal, a clear exit 2',
      async () => {
        const guarded = await createUser(server.url, { totp: true });
        const other = await makeCli(guarded.password);
        const noCode = await other.run(['login', server.url, guarded.username]);
        expect(noCode.code).toBe(2);
        expect(noCode.stderr).toContain('TOTP code');
        // The step confirming TOTP was taken (each step is taken once): the next one.
        const confirmed = await freshCode(guarded.totpSecret!);
        const { code } = await freshCode(guarded.totpSecret!, confirmed.step);
        const signedIn = await other.run(['login', server.url, guarded.username], { env: { SEALBOX_TOTP: code } });
        expect(signedIn.stderr).toBe('');
        expect(signedIn.code).toBe(0);
        expect((await other.json(['whoami'])).value.username).toBe(guarded.username);
      },
      SLOW,
    );

    test(
      'put and get a tree: names in several scripts, an empty file, one in parts; byte for byte',
      async () => {
        const base = await mkdtemp(join(tmpdir(), 'sealbox-cli-tree-'));
        const files: Record<string, Uint8Array<ArrayBuffer>> = {
          'Trip 2026/Fotos été/日本/写真 1.bin': random(300_000),
          'Trip 2026/Привет мир.txt': new TextEncoder().encode('привет'),
          'Trip 2026/empty': new Uint8Array(0),
          'Trip 2026/big one.bin': random(20 * 1024 * 1024 + 123),
        };
        for (const [path, bytes] of Object.entries(files)) {
          await mkdir(join(base, 'up', path, '..'), { recursive: true });
          await writeFile(join(base, 'up', path), bytes);
        }
        const put = await cli.json(['put', join(base, 'up', 'Trip 2026'), '/']);
        expect(put.code).toBe(0);
        expect(put.value.uploaded.map((row: { path: string }) => row.path).sort()).toEqual(
          Object.keys(files)
            .map((path) => `/${path}`)
            .sort(),
        );
        const down = join(base, 'down');
        await mkdir(down);
        const got = await cli.json(['get', '/Trip 2026', down]);
        expect(got.code).toBe(0);
        for (const [path, bytes] of Object.entries(files)) {
          expect(new Uint8Array(await readFile(join(down, path)))).toEqual(bytes);
        }
        expect((await readdir(join(down, 'Trip 2026'))).sort()).toEqual(['Fotos été', 'big one.bin', 'empty', 'Привет мир.txt']);
        // A get that would overwrite refuses unless told; a put over a file's name is a new version.
        expect((await cli.run(['get', '/Trip 2026/empty', join(down, 'Trip 2026')])).code).toBe(5);
        await writeFile(join(base, 'empty'), 'no longer empty');
        expect((await cli.run(['put', join(base, 'empty'), '/Trip 2026/empty'])).code).toBe(0);
        expect((await cli.run(['get', '-f', '/Trip 2026/empty', join(down, 'Trip 2026')])).code).toBe(0);
        expect(await readFile(join(down, 'Trip 2026', 'empty'), 'utf8')).toBe('no longer empty');
        const session = await apiLogin(server.url, user);
        const trip = await folderNamed(session, null, 'Trip 2026');
        const emptyId = (await folderNamed(session, trip, 'empty')).id;
        const versions = await (
          await fetch(`${server.url}/api/file/${emptyId}/versions`, { headers: { cookie: session.cookie } })
        ).json();
        expect(versions.versions.length).toBe(1);
      },
      SLOW,
    );

    test(
      'put of a folder of 40 files lists each folder once; names the same but for case make a version',
      async () => {
        const base = await mkdtemp(join(tmpdir(), 'sealbox-cli-many-'));
        await mkdir(join(base, 'Many', 'Sub'), { recursive: true });
        for (let i = 0; i < 38; i++) await writeFile(join(base, 'Many', `file ${i}.txt`), `file ${i}`);
        await writeFile(join(base, 'Many', 'Same.txt'), 'first');
        await writeFile(join(base, 'Many', 'same.txt'), 'second');
        for (let i = 0; i < 5; i++) await writeFile(join(base, 'Many', 'Sub', `inner ${i}.txt`), `inner ${i}`);
        const proxy = startProxy(server.url);
        let same: Array<{ id: string; name: string }> = [];
        try {
          const counted = await makeCli(user.password);
          expect((await counted.run(['login', proxy.url, user.username])).code).toBe(0);
          const before = proxy.listings;
          const put = await counted.json(['put', join(base, 'Many'), '/']);
          expect(put.code).toBe(0);
          expect(put.value.uploaded).toHaveLength(45);
          expect(proxy.listings - before).toBeLessThan(6);
          // Again into the folders now there: each listed once more, every file a new version.
          const second = proxy.listings;
          expect((await counted.json(['put', join(base, 'Many'), '/'])).code).toBe(0);
          expect(proxy.listings - second).toBeLessThan(8);
          const listed = await counted.json(['ls', '/Many']);
          expect(listed.value).toHaveLength(40);
          same = listed.value.filter((row: { name: string }) => row.name.toLowerCase() === 'same.txt');
          expect(same).toHaveLength(1);
          const down = join(base, 'same-back.txt');
          expect((await counted.run(['get', `/Many/${same[0]!.name}`, down])).code).toBe(0);
          expect(await readFile(down, 'utf8')).toBe('second');
        } finally {
          proxy.stop();
        }
        const session = await apiLogin(server.url, user);
        const versions = await (
          await fetch(`${server.url}/api/file/${same[0]!.id}/versions`, { headers: { cookie: session.cookie } })
        ).json();
        expect(versions.versions.length).toBe(3);
      },
      SLOW,
    );

    test(
      'a put killed with -9 half-way sends only the missing parts again; a get resumes; tampered data is exit 7',
      async () => {
        const proxy = startProxy(server.url);
        try {
          const base = await mkdtemp(join(tmpdir(), 'sealbox-cli-kill-'));
          const content = random(40 * 1024 * 1024 + 7);
          await writeFile(join(base, 'movie.bin'), content);
          const viaProxy = await makeCli(user.password);
          expect((await viaProxy.run(['login', proxy.url, user.username])).code).toBe(0);

          // Part 2 hangs: the put waits on it with the others sent when it is killed.
          proxy.stallParts.add(2);
          const child = spawnCli(viaProxy, user.password, ['put', join(base, 'movie.bin'), '/']);
          const parts0 = partCount(ciphertextSize(content.length));
          while (proxy.partsSeen.length < parts0) await Bun.sleep(20);
          await Bun.sleep(300);
          child.kill('SIGKILL');
          await child.exited;
          const journal = JSON.parse(await readFile(join(viaProxy.dir, 'uploads.json'), 'utf8'));
          expect(Object.keys(journal).length).toBe(1);
          expect(JSON.stringify(journal)).not.toContain(user.password);

          // What the server holds of it (parts go out three at a time, so some after part 2 may be in).
          const { uploadId } = Object.values(journal)[0] as { uploadId: string };
          const held = await apiLogin(server.url, user);
          const status = await (await fetch(`${server.url}/api/upload/${uploadId}`, { headers: { cookie: held.cookie } })).json();
          const parts = partCount(ciphertextSize(content.length));
          const missing = Array.from({ length: parts }, (_, n) => n).filter((n) => !status.received.includes(n));
          expect(status.received).toContain(0);
          expect(status.received).toContain(1);
          expect(missing).toContain(2);

          proxy.stallParts.clear();
          proxy.partsSeen = [];
          const rerun = await viaProxy.run(['put', join(base, 'movie.bin'), '/']);
          expect(rerun.stderr).toBe('');
          expect(rerun.code).toBe(0);
          expect(parts).toBeGreaterThan(4);
          expect([...proxy.partsSeen].sort((a, b) => a - b)).toEqual(missing);
          expect(JSON.parse(await readFile(join(viaProxy.dir, 'uploads.json'), 'utf8'))).toEqual({});

          // A get hanging after 6 MiB (4 MiB written) is killed; run again it asks only for the rest.
          proxy.cutDataAfter = 6 * 1024 * 1024;
          const dest = join(base, 'movie-back.bin');
          const getting = spawnCli(viaProxy, user.password, ['get', '/movie.bin', dest]);
          for (;;) {
            const size = (await stat(`${dest}.sealbox-part`).catch(() => undefined))?.size ?? 0;
            if (size >= 4 * 1024 * 1024) break;
            await Bun.sleep(20);
          }
          getting.kill('SIGKILL');
          await getting.exited;
          proxy.cutDataAfter = -1;
          proxy.dataRanges = [];
          const resumed = await viaProxy.run(['get', '/movie.bin', dest]);
          expect(resumed.code).toBe(0);
          expect(proxy.dataRanges.length).toBe(1);
          expect(Number(/^bytes=(\d+)-$/.exec(proxy.dataRanges[0]!)?.[1])).toBeGreaterThan(0);
          expect(new Uint8Array(await readFile(dest))).toEqual(content);

          // A flipped byte anywhere fails the integrity check: exit 7, no file left in place.
          proxy.flipDataByte = 5 * 1024 * 1024;
          const tampered = await viaProxy.run(['get', '/movie.bin', join(base, 'tampered.bin')]);
          expect(tampered.code).toBe(7);
          expect(tampered.stderr).toContain('integrity');
          expect(await stat(join(base, 'tampered.bin')).catch(() => 'absent')).toBe('absent');
        } finally {
          proxy.stop();
        }
      },
      SLOW,
    );

    test(
      'a file changed in place after a kill (same size and time) starts over: no part goes out twice under one key',
      async () => {
        const proxy = startProxy(server.url);
        try {
          const base = await mkdtemp(join(tmpdir(), 'sealbox-cli-changed-'));
          const file = join(base, 'ledger.bin');
          const content = random(2 * PART_CHUNKS * CHUNK + 1000);
          await writeFile(file, content);
          // A whole-millisecond time, so that setting it again gives the very same mtimeMs.
          const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
          await utimes(file, when, when);
          const viaProxy = await makeCli(user.password);
          expect((await viaProxy.run(['login', proxy.url, user.username])).code).toBe(0);

          // Part 2 is begun (its fingerprint journalled) but never reaches the server.
          proxy.stallParts.add(2);
          const child = spawnCli(viaProxy, user.password, ['put', file, '/']);
          const parts = partCount(ciphertextSize(content.length));
          expect(parts).toBe(3);
          while (proxy.partsSeen.length < parts) await Bun.sleep(20);
          await Bun.sleep(300);
          child.kill('SIGKILL');
          await child.exited;
          const journal = Object.values(JSON.parse(await readFile(join(viaProxy.dir, 'uploads.json'), 'utf8'))) as Array<{
            uploadId: string;
            started: Record<string, string>;
          }>;
          // Part 2's fingerprint is journalled; parts the server confirmed before it began have left.
          const journalled = Object.keys(journal[0]!.started).sort();
          expect(journalled).toContain('2');
          for (const n of journalled) expect(['0', '1', '2']).toContain(n);

          // Changed inside part 2, size and time kept: only its fingerprint tells.
          const changed = content.slice();
          changed[2 * PART_CHUNKS * CHUNK + 10] = changed[2 * PART_CHUNKS * CHUNK + 10]! ^ 0xff;
          await writeFile(file, changed);
          await utimes(file, when, when);
          proxy.stallParts.clear();
          proxy.partsSeen = [];
          const rerun = await viaProxy.run(['put', file, '/']);
          expect(rerun.stderr).toBe('');
          expect(rerun.code).toBe(0);
          // A fresh upload: every part, under a new key and nonce; the old one is ended.
          expect([...proxy.partsSeen].sort((a, b) => a - b)).toEqual([0, 1, 2]);
          const held = await apiLogin(server.url, user);
          const old = await fetch(`${server.url}/api/upload/${journal[0]!.uploadId}`, { headers: { cookie: held.cookie } });
          expect(old.status).toBe(404);
          const back = join(base, 'ledger-back.bin');
          expect((await viaProxy.run(['get', '/ledger.bin', back])).code).toBe(0);
          expect(new Uint8Array(await readFile(back))).toEqual(changed);
        } finally {
          proxy.stop();
        }
      },
      SLOW,
    );

    test(
      'mv moves into folders and renames (keys re-wrapped, names re-sealed); rm goes to the trash, folders only with -r',
      async () => {
        expect((await cli.run(['mkdir', '-p', 'Move/From', 'Move/To', 'Move/Other'])).code).toBe(0);
        const base = await mkdtemp(join(tmpdir(), 'sealbox-cli-mv-'));
        await writeFile(join(base, 'one.txt'), 'one');
        await writeFile(join(base, 'two.txt'), 'two');
        expect((await cli.run(['put', join(base, 'one.txt'), join(base, 'two.txt'), '/Move/From'])).code).toBe(0);

        // Two files into a folder, then one renamed in place, then a folder moved and renamed at once.
        const moved = await cli.json(['mv', '/Move/From/one.txt', '/Move/From/two.txt', '/Move/To']);
        expect(moved.value).toEqual({
          moved: [
            { from: '/Move/From/one.txt', to: '/Move/To/one.txt' },
            { from: '/Move/From/two.txt', to: '/Move/To/two.txt' },
          ],
        });
        expect((await cli.run(['mv', '/Move/To/one.txt', '/Move/To/uno.txt'])).code).toBe(0);
        expect((await cli.run(['mv', '/Move/Other', '/Move/To/Renamed'])).code).toBe(0);
        expect((await cli.run(['tree', '/Move'])).stdout).toBe(
          [
            '/Move',
            '├── From/',
            '└── To/',
            '    ├── Renamed/',
            '    ├── two.txt',
            '    └── uno.txt',
            '',
            '3 folders, 2 files',
            '',
          ].join('\n'),
        );
        // What moved opens with the web app's crypto under its new folder's key, under its new name.
        const session = await apiLogin(server.url, user);
        const to = await folderNamed(session, await folderNamed(session, null, 'Move'), 'To');
        expect((await folderNamed(session, to, 'uno.txt')).id).toMatch(/^[0-9a-f-]{36}$/);
        const back = join(base, 'uno-back.txt');
        expect((await cli.run(['get', '/Move/To/uno.txt', back])).code).toBe(0);
        expect(await readFile(back, 'utf8')).toBe('one');

        // A name already there is refused before anything moves; a folder into itself is refused.
        const clash = await cli.run(['mv', '/Move/To/two.txt', '/Move/To/uno.txt']);
        expect(clash.code).toBe(5);
        expect((await cli.run(['mv', '/Move/To', '/Move/To/Renamed'])).code).not.toBe(0);
        expect((await cli.run(['ls', '/Move/To/Renamed'])).code).toBe(0);

        // rm: a folder needs -r; what is deleted goes to the trash and can be restored.
        const folder = await cli.run(['rm', '/Move/To']);
        expect(folder.code).toBe(2);
        const removed = await cli.json(['rm', '-r', '/Move/To', '/Move/From']);
        expect(removed.code).toBe(0);
        expect(removed.value).toEqual({ deleted: ['/Move/To', '/Move/From'], retentionDays: 30 });
        expect((await cli.run(['ls', '/Move'])).stdout).toBe('');
        const trash = await (
          await fetch(`${server.url}/api/trash?limit=10&offset=0`, { headers: { cookie: session.cookie } })
        ).json();
        expect(trash.files.map((item: { id: string }) => item.id)).toContain(to.id);
      },
      SLOW,
    );

    test(
      'share: K wrapped to the pinned key and the grant signed; pins shared with the web app; a changed key is refused',
      async () => {
        const bobUser = await createUser(server.url);
        const bob = await apiLogin(server.url, bobUser);
        expect((await cli.run(['mkdir', 'For Bob'])).code).toBe(0);
        const shared = await cli.json(['share', '/For Bob', '--with', bobUser.username.toUpperCase(), '--edit']);
        expect(shared.code).toBe(0);
        expect(shared.value).toMatchObject({ path: '/For Bob', user: bobUser.username, edit: true, pinnedNow: true });

        // Bob's list holds it; the grant verifies under the CLI user's signing key and opens to the folder's K.
        const session = await apiLogin(server.url, user);
        const folder = await folderNamed(session, null, 'For Bob');
        const list = await (await fetch(`${server.url}/api/shared`, { headers: { cookie: bob.cookie } })).json();
        const entry = list.files.find((row: { id: string }) => row.id === folder.id);
        const me = await (await fetch(`${server.url}/api/user/${user.id}`, { headers: { cookie: bob.cookie } })).json();
        const grant = {
          sharerId: user.id,
          recipientId: bob.userId,
          itemId: folder.id,
          encryptedKey: entry.grant.encryptedKey,
          edit: true,
        };
        await verifyGrant(me.signingPublicKey, grant, entry.grant.signature);
        expect(await unwrapKeyFromUser(bob.keys.encryptionPrivateKey, entry.grant.encryptedKey)).toEqual(folder.key);

        // The pin went into the account's pins, which the web app reads too.
        const stored = await (await fetch(`${server.url}/api/profile/pins`, { headers: { cookie: session.cookie } })).json();
        const pins = await openPins(session.rootKey, user.id, stored.sealed, stored.nonce);
        const them = await (await fetch(`${server.url}/api/user/${bob.userId}`, { headers: { cookie: session.cookie } })).json();
        expect(pins[bob.userId]).toBe(await fingerprint(them.publicKey, them.signingPublicKey));
        expect((await cli.run(['share', '/For Bob', '--with', bobUser.username])).code).toBe(5);

        // Another recipient pinned (by another device) to other keys: refused, nothing shared.
        const carolUser = await createUser(server.url);
        const carol = await apiLogin(server.url, carolUser);
        const resealed = await sealPins(session.rootKey, user.id, { ...pins, [carol.userId]: 'ab'.repeat(32) });
        const put = await fetch(`${server.url}/api/profile/pins`, {
          method: 'PUT',
          headers: { cookie: session.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ ...resealed, version: stored.version }),
        });
        expect(put.status).toBe(200);
        const refused = await cli.run(['share', '/For Bob', '--with', carolUser.username]);
        expect(refused.code).toBe(7);
        expect(refused.stderr).toContain('keys changed');
        const carolList = await (await fetch(`${server.url}/api/shared`, { headers: { cookie: carol.cookie } })).json();
        expect(carolList.files).toEqual([]);
        expect((await cli.run(['share', '/For Bob', '--with', user.username])).code).toBe(2);
      },
      SLOW,
    );

    test(
      'shared: lists what others shared, verified; tree and get read inside; a grant or listing the server altered is refused',
      async () => {
        const owner = await createUser(server.url);
        const ownerCli = await makeCli(owner.password);
        expect((await ownerCli.run(['login', server.url, owner.username])).code).toBe(0);
        const base = await mkdtemp(join(tmpdir(), 'sealbox-cli-shared-'));
        await mkdir(join(base, 'Given', 'Inner'), { recursive: true });
        await writeFile(join(base, 'Given', 'Inner', 'deep.txt'), 'from the owner');
        const photo = random(400_000);
        await writeFile(join(base, 'Given', 'photo.bin'), photo);
        expect((await ownerCli.run(['put', join(base, 'Given'), '/'])).code).toBe(0);
        expect((await ownerCli.run(['share', '/Given', '--with', user.username, '--edit'])).code).toBe(0);

        const proxy = startProxy(server.url);
        try {
          const mine = await makeCli(user.password);
          expect((await mine.run(['login', proxy.url, user.username])).code).toBe(0);
          const listed = await mine.json(['ls', 'shared:']);
          expect(listed.value).toEqual([
            expect.objectContaining({ name: 'Given', type: 'folder', owner: owner.username, edit: true, verified: true }),
          ]);
          expect((await mine.run(['ls', 'shared:'])).stdout).toBe(`Given/  (${owner.username}, editor)\n`);
          const tree = await mine.run(['tree', 'shared:Given']);
          expect(tree.stdout).toContain('└── deep.txt');
          const down = join(base, 'down');
          await mkdir(down);
          expect((await mine.run(['get', 'shared:Given/Inner/deep.txt', 'shared:Given/photo.bin', down])).code).toBe(0);
          expect(await readFile(join(down, 'deep.txt'), 'utf8')).toBe('from the owner');
          expect(new Uint8Array(await readFile(join(down, 'photo.bin')))).toEqual(photo);
          expect((await mine.run(['ls', 'shared:Nothing'])).code).toBe(4);

          // The server raises nothing it did not sign: the edit flag flipped, the grant no longer verifies.
          proxy.rewriteShared = (page) => ({
            ...page,
            files: page.files.map((file) => ({ ...file, grant: { ...file.grant, editPermission: !file.grant.editPermission } })),
          });
          const altered = await mine.json(['ls', 'shared:']);
          expect(altered.value).toEqual([expect.objectContaining({ name: 'Given', verified: false })]);
          const refused = await mine.run(['get', 'shared:Given', join(base, 'refused')]);
          expect([refused.code, refused.stderr]).toEqual([
            7,
            'sealbox: shared:Given: this share could not be verified; nothing is read through it.\n',
          ]);
          // One of the user's own folders listed as someone's share: not a share at all.
          proxy.rewriteShared = (page) => ({
            ...page,
            files: page.files.map((file) => ({ ...file, ownerId: user.id, grant: { ...file.grant, sharerId: user.id } })),
          });
          expect((await mine.json(['ls', 'shared:'])).value).toEqual([]);
        } finally {
          proxy.stop();
        }
      },
      SLOW,
    );

    test(
      'link: the URL opens for anyone with get, without an account; a password link, a damaged or foreign key',
      async () => {
        const base = await mkdtemp(join(tmpdir(), 'sealbox-cli-link-'));
        await mkdir(join(base, 'Album', 'inner'), { recursive: true });
        await writeFile(join(base, 'Album', 'a.bin'), random(700_000));
        await writeFile(join(base, 'Album', 'inner', 'b.txt'), 'inside');
        expect((await cli.run(['put', join(base, 'Album'), '/'])).code).toBe(0);
        const made = await cli.json(['link', '/Album', '--expires', '7d']);
        expect(made.code).toBe(0);
        const url = made.value.url as string;
        expect(url).toStartWith(`${server.url}/share?linkId=`);
        expect(made.value.expiresAt - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

        const stranger = await makeCli('unused');
        const down = join(base, 'down');
        const got = await stranger.json(['get', url, down]);
        expect(got.code).toBe(0);
        expect(new Uint8Array(await readFile(join(down, 'a.bin')))).toEqual(
          new Uint8Array(await readFile(join(base, 'Album', 'a.bin'))),
        );
        expect(await readFile(join(down, 'inner', 'b.txt'), 'utf8')).toBe('inside');

        // A file link with a password: asked for (here from the environment), a wrong one is exit 3.
        const file = await cli.json(['link', '/Album/inner/b.txt', '--password'], {
          env: { SEALBOX_LINK_PASSWORD: 'open sesame' },
        });
        expect(file.value.passwordProtected).toBe(true);
        const wrong = await stranger.run(['get', file.value.url, join(base, 'x.txt')], {
          env: { SEALBOX_LINK_PASSWORD: 'wrong' },
        });
        expect(wrong.code).toBe(3);
        const right = await stranger.run(['get', file.value.url, join(base, 'b.txt')], {
          env: { SEALBOX_LINK_PASSWORD: 'open sesame' },
        });
        expect(right.code).toBe(0);
        expect(await readFile(join(base, 'b.txt'), 'utf8')).toBe('inside');

        // The fragment damaged, or the key of another item: nothing is fetched as if it were the link's.
        const damaged = await stranger.run(['get', `${url.split('#')[0]}#not-a-key`, join(base, 'y')]);
        expect(damaged.code).toBe(2);
        const foreign = await stranger.run(['get', `${url.split('#')[0]}#${file.value.url.split('#')[1]}`, join(base, 'z')]);
        expect(foreign.code).toBe(7);
        expect(foreign.stderr).toBe('sealbox: This link could not be verified.\n');
      },
      SLOW,
    );

    test(
      'a keyring keeps the keys sealed under a passphrase; wrong, short or changed ones open nothing',
      async () => {
        const keyed = await makeCli(user.password);
        expect((await keyed.run(['login', server.url, user.username])).code).toBe(0);
        const file = join(keyed.dir, 'keyring.json');
        const passphrase = 'a passphrase of my own';
        const short = await keyed.run(['keyring', 'save'], { env: { SEALBOX_KEYRING_PASSPHRASE: 'short' } });
        expect([short.code, short.stderr]).toEqual([2, 'sealbox: The passphrase must be at least 8 characters long.\n']);
        const wrongPassword = await keyed.run(['keyring', 'save'], {
          env: { SEALBOX_PASSWORD: 'not the password', SEALBOX_KEYRING_PASSPHRASE: passphrase },
        });
        expect([wrongPassword.code, wrongPassword.stderr]).toEqual([3, 'sealbox: Wrong password.\n']);
        expect(await Bun.file(file).exists()).toBe(false);

        const byPassword = await keyed.json(['ls', '/'], {});
        expect(byPassword.code).toBe(0);
        const saved = await keyed.run(['keyring', 'save'], { env: { SEALBOX_KEYRING_PASSPHRASE: passphrase } });
        expect(saved.code).toBe(0);
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        const text = await readFile(file, 'utf8');
        for (const secret of [user.password, passphrase]) expect(text).not.toContain(secret);
        const stored = JSON.parse(text);
        expect(stored.sealed.kdf.version).toBe(2);
        // Fresh salts: not the account's own sealed copy under another name.
        const signed = await apiLogin(server.url, user);
        const account = await publicFacts(server.url, signed.cookie, user.username, user.id);
        expect(stored.sealed.passwordSalt).not.toBe(account.passwordSalt);
        expect(stored.sealed.publicKey).toBe(account.publicKey);

        // The passphrase now opens the keys; the password is not asked for (a wrong one is ignored).
        const listed = await keyed.json(['ls', '/'], {
          env: { SEALBOX_PASSWORD: 'not the password', SEALBOX_KEYRING_PASSPHRASE: passphrase },
        });
        expect(listed.code).toBe(0);
        expect(listed.value).toEqual(byPassword.value);
        const wrong = await keyed.run(['ls', '/'], { env: { SEALBOX_KEYRING_PASSPHRASE: 'another passphrase' } });
        expect([wrong.code, wrong.stderr]).toEqual([3, 'sealbox: Wrong keyring passphrase.\n']);

        // A keyring changed on disk: its ciphertext (does not open) or its claimed keys (not the bundle's).
        const flipped = {
          ...stored,
          sealed: { ...stored.sealed, encryptedPrivateKey: flipBase64(stored.sealed.encryptedPrivateKey) },
        };
        await writeFile(file, JSON.stringify(flipped));
        expect((await keyed.run(['ls', '/'], { env: { SEALBOX_KEYRING_PASSPHRASE: passphrase } })).code).toBe(3);
        const stranger = await createUser(server.url);
        const other = await publicFacts(server.url, signed.cookie, stranger.username, stranger.id);
        await writeFile(file, JSON.stringify({ ...stored, sealed: { ...stored.sealed, publicKey: other.publicKey } }));
        const swapped = await keyed.run(['ls', '/'], { env: { SEALBOX_KEYRING_PASSPHRASE: passphrase } });
        expect(swapped.code).toBe(7);
        await writeFile(file, text);

        const forgotten = await keyed.run(['keyring', 'forget']);
        expect([forgotten.code, forgotten.stdout]).toEqual([0, 'Keyring forgotten: commands ask for your password again.\n']);
        expect(await Bun.file(file).exists()).toBe(false);
        expect(
          (await keyed.run(['ls', '/'], { env: { SEALBOX_KEYRING_PASSPHRASE: passphrase, SEALBOX_PASSWORD: 'nope nope' } })).code,
        ).toBe(3);

        // Logout forgets a keyring with the session.
        expect((await keyed.run(['keyring', 'save'], { env: { SEALBOX_KEYRING_PASSPHRASE: passphrase } })).code).toBe(0);
        expect((await keyed.run(['logout'])).code).toBe(0);
        expect(await Bun.file(file).exists()).toBe(false);
      },
      SLOW,
    );

    test(
      'a session ended elsewhere is exit 3; logout ends it on the server and forgets it',
      async () => {
        const second = await makeCli(user.password);
        expect((await second.run(['login', server.url, user.username])).code).toBe(0);
        const token = JSON.parse(await readFile(join(second.dir, 'session.json'), 'utf8')).token as string;
        expect((await second.run(['logout'])).stdout).toBe(`Signed out of ${server.url}.\n`);
        const after = await fetch(`${server.url}/api/profile`, { headers: { cookie: `sealbox_session=${token}` } });
        expect(after.status).toBe(401);
        expect((await second.run(['whoami'])).code).toBe(3);

        // The first CLI's session, ended by a password-less logout through the API of its token.
        const first = JSON.parse(await readFile(join(cli.dir, 'session.json'), 'utf8')).token as string;
        await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { cookie: `sealbox_session=${first}` } });
        const ended = await cli.run(['whoami']);
        expect(ended.code).toBe(3);
      },
      SLOW,
    );
  });
}

/** A user's login salt (from the lookup) and public key (from their public profile). */
async function publicFacts(url: string, cookie: string, name: string, id: string) {
  const [found] = (await (await fetch(`${url}/api/users/search/${encodeURIComponent(name)}?limit=1`)).json()) as Array<{
    passwordSalt: string;
  }>;
  const profile = (await (await fetch(`${url}/api/user/${id}`, { headers: { cookie } })).json()) as { publicKey: string };
  return { passwordSalt: found?.passwordSalt, publicKey: profile.publicKey };
}

/** A base64 text with one byte of what it encodes changed. */
function flipBase64(text: string): string {
  const bytes = Buffer.from(text, 'base64');
  bytes[bytes.length >> 1]! ^= 1;
  return bytes.toString('base64');
}

/** The folder called `name` in `parent` (null: the top level), opened with the web app's crypto. */
async function folderNamed(session: ApiSession, parent: { id: string; key: Uint8Array } | null, name: string) {
  const query = parent ? `id=${parent.id}&depth=1&limit=1000&offset=0` : 'depth=1&limit=1000&offset=0';
  const listing = await (await fetch(`${session.baseUrl}/api/file?${query}`, { headers: { cookie: session.cookie } })).json();
  for (const item of listing.files as Array<Record<string, string>>) {
    const key = await unwrapItemKey(parent ? parent.key : session.rootKey, item.id!, item.encryptedKey!, item.keyNonce!);
    if ((await decryptName(key, item.id!, item.encryptedFileName!, item.nameNonce!)) === name) return { id: item.id!, key };
  }
  throw new Error(`no folder ${name}`);
}
