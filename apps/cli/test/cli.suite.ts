/**
 * The `sealbox` CLI against the real server (issue 26 part 1, docs/cli.md): signing in (a
 * session file of mode 0600 holding no key, TOTP, wrong passwords and unknown names refused with
 * exit 3), whoami, mkdir -p, ls and tree with names as the web app shows them, folders made by the
 * CLI opening with the web app's crypto and the reverse, ambiguous names (exit 5), missing paths
 * (exit 4), a session ended elsewhere, and --json answers and errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { stat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decryptName, unwrapItemKey } from '@sealbox/crypto';
import { createUser, freshCode, type TestUser } from '../../../e2e/support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, type ApiSession } from '../../../e2e/support/files.ts';
import { startServer, type RunningServer } from '../../../e2e/support/server.ts';
import { type Cli, makeCli } from './support.ts';

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
