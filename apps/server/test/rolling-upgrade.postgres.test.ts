import { CHUNK, decryptName, encryptName, PART_CHUNKS, partCount, wrapItemKey } from '@sealbox/crypto';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import postgres from 'postgres';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, registrationFor, uniqueName } from './accounts/harness.ts';
import { sharingAccount, shareWith } from './sharing/harness.ts';
import { decrypt, download, folderMeta, patternFile, postUpload, sendPart, type Encrypted, type Made } from './files/harness.ts';
import { isolatedEnv, remoteTo, spawnMain, type MainProcess } from './support/main-process.ts';
import { namedBlock } from './support/doc-blocks.ts';
import { releaseBuild } from './support/release-build.ts';
import { postgresAvailability, reportUnavailable, throwawayDatabase, type ThrowawayDatabase } from './support/services.ts';

/**
 * Rolling upgrades (docs/operations.md "Upgrades", issue 16): a past release's server, taken from
 * git history, and this tree's run on one PostgreSQL database and one blob directory, and users
 * move between them as a load balancer sends them. Then the roll finishes (the old one stops, a
 * second current one starts) and every account still signs in. The releases are CHANGELOG.md's.
 */
const RELEASES = [
  // 0.1.0, the last commit before migration 005: as first shipped, 005 lost accounts in this roll.
  { name: '0.1.0', commit: 'bc0c841a37b80b22861ea5aa900a4ad1e8d59d33', sharing: false },
  // 0.2.0 applies 005 as first shipped, before this tree's 009 repairs the database.
  { name: '0.2.0', commit: '2fc14d9a64e98b48acf044104a16a090523ace36', sharing: false },
  // 0.3.0, the release before this tree.
  { name: '0.3.0', commit: '16f8145b9320d0a589ae2388a952a0cac6e3c022', sharing: true },
];

const availability = await postgresAvailability();

if (!availability.available) {
  reportUnavailable('Rolling upgrade: postgres', availability.reason);
} else {
  for (const release of RELEASES) rollingUpgrade(release);
}

interface Account {
  id: string;
  username: string;
  password: string;
  cookie: string;
  /** Stands in for the account root key that wraps top-level item keys. */
  rootKey: Uint8Array;
}

function rollingUpgrade({ name, commit, sharing }: (typeof RELEASES)[number]): void {
  describe(`rolling upgrade from ${name} (${commit.slice(0, 7)}) to this tree, on one PostgreSQL database`, () => {
    let database: ThrowawayDatabase;
    let dataDir: string;
    let env: Record<string, string>;
    let old: MainProcess;
    let current: MainProcess;
    const started: MainProcess[] = [];
    const accounts: Account[] = [];

    beforeAll(async () => {
      const build = await releaseBuild(commit);
      database = await throwawayDatabase('sealbox_roll');
      dataDir = await mkdtemp(join(tmpdir(), 'sealbox-roll-'));
      // One blob directory for both, as one bucket would be; a stand-in page for the web build.
      const webDist = join(dataDir, 'web');
      await Bun.write(join(webDist, 'index.html'), '<!doctype html>');
      // The releases before the trash would still list what this one moves there: docs/operations.md
      // "Trash" has the trash off until every instance runs this release, as here.
      env = isolatedEnv(dataDir, {
        DATA_DIR: dataDir,
        WEB_DIST: webDist,
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        TRASH_RETENTION_DAYS: '0',
      });
      // The old release first, as before the upgrade; then this tree's, which migrates beside it.
      old = await spawnMain(env, { argv: build.argv, cwd: build.root });
      started.push(old);
      current = await spawnMain(env);
      started.push(current);
    }, 120_000);

    afterAll(async () => {
      for (const server of started) {
        server.child.kill('SIGTERM');
        await server.child.exited;
      }
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** A client on `server`; with an account, signed in as it (sessions live in the database). */
    function on(server: MainProcess, account?: Account): Browser {
      const browser = new Browser(
        remoteTo(() => server.url),
        { origin: null },
      );
      browser.cookie = account?.cookie;
      return browser;
    }

    async function register(server: MainProcess, username: string): Promise<Account> {
      // Real key pairs (one made per run), so that shares are wrapped and signed as a browser does.
      const { registration } = await sharingAccount();
      const browser = on(server);
      const created = await browser.post('/api/register', { ...registration, username, email: null });
      expect([created.status, created.body]).toEqual([201, expect.objectContaining({ id: expect.any(String) })]);
      const account = { id: created.body.id, username, password: registration.password, cookie: '', rootKey: new Uint8Array(32) };
      crypto.getRandomValues(account.rootKey);
      account.cookie = await signIn(server, username, account.password, account.id);
      accounts.push(account);
      return account;
    }

    /** Signs in as `username` on `server`, expecting account `id`; answers the session cookie. */
    async function signIn(server: MainProcess, username: string, password: string, id: string): Promise<string> {
      const browser = on(server);
      const login = await browser.post('/api/login', { username, password });
      expect([login.status, login.body?.user?.id]).toEqual([200, id]);
      return browser.cookie!;
    }

    test('accounts: registered on either build, signed in on the other by any case; case variants refused on both', async () => {
      const bob = await register(old, uniqueName('Bob'));
      await signIn(current, bob.username, bob.password, bob.id);
      await signIn(current, bob.username.toLowerCase(), bob.password, bob.id);
      const ann = await register(current, uniqueName('Ann'));
      await signIn(old, ann.username, ann.password, ann.id);

      for (const [server, taken] of [
        [current, bob.username.toLowerCase()],
        [current, bob.username.toUpperCase()],
        [old, ann.username.toLowerCase()],
        [old, bob.username.toUpperCase()],
      ] as const) {
        const variant = await on(server).post('/api/register', await registrationFor(taken));
        const build = server === old ? `the ${name} build` : 'the current build';
        expect({ on: build, taken, status: variant.status }).toEqual({ on: build, taken, status: 409 });
      }
      // Nobody else can claim Bob's name through a lookup either.
      const found = await on(current).get(`/api/users/search/${bob.username.toUpperCase()}?limit=1`);
      expect(found.body).toEqual([expect.objectContaining({ id: bob.id, username: bob.username })]);
    });

    test('files: folders, an upload in parts across both, byte-for-byte downloads, rename, move and delete across the builds', async () => {
      const [bob, ann] = accounts as [Account, Account];
      // Bob's folder on the old build, a file in it sent in two parts: begun on the old build,
      // the second part and the completion on the current one.
      const folder = await folderMeta(bob.rootKey, null, 'Holiday');
      expect((await postUpload(on(old, bob), folder.meta)).status).toBe(201);
      const big = await patternFile(folder.key, folder.id, PART_CHUNKS * CHUNK + 1000, 3, 'big.bin');
      expect(partCount(big.cipher.byteLength)).toBe(2);
      const begun = await postUpload(on(old, bob), big.meta);
      expect(begun.status).toBe(201);
      expect((await sendPart(on(old, bob), begun.body.uploadId, big, 0)).status).toBe(204);
      expect((await sendPart(on(current, bob), begun.body.uploadId, big, 1)).status).toBe(204);
      expect((await on(current, bob).post(`/api/upload/${begun.body.uploadId}/complete`)).status).toBe(200);
      await expectDownload(bob, big);

      // Ann's file, whole, on the current build; read back on both.
      const small = await patternFile(ann.rootKey, null, 70_000, 5, 'notes.txt');
      expect((await postUpload(on(current, ann), small.meta, small.cipher)).status).toBe(201);
      await expectDownload(ann, small);

      // Renamed on the current build, read on the old one; moved on the old one, read on the current.
      const renamed = await encryptName(big.key, big.id, 'renamed.bin');
      const rename = { type: 'rename', encryptedName: renamed.encryptedFileName, nameNonce: renamed.nameNonce };
      expect((await on(current, bob).put(`/api/file/${big.id}`, rename)).status).toBe(200);
      expect(await nameOf(on(old, bob), folder, big)).toBe('renamed.bin');
      const inner = await folderMeta(folder.key, folder.id, 'Inner');
      expect((await postUpload(on(current, bob), inner.meta)).status).toBe(201);
      const move = { type: 'move', parentId: inner.id, ...(await wrapItemKey(inner.key, big.id, big.key)) };
      expect((await on(old, bob).put(`/api/file/${big.id}`, move)).status).toBe(200);
      expect(await nameOf(on(current, bob), inner, big)).toBe('renamed.bin');
      await expectDownload(bob, big);

      // The old build's folder, deleted on the current one: nothing left, the space given back on both.
      expect((await on(current, bob).delete(`/api/file/${folder.id}`)).status).toBe(204);
      for (const server of [old, current]) {
        expect((await on(server, bob).get(`/api/file/data/${big.id}`)).status).toBe(404);
        expect((await on(server, bob).get('/api/profile')).body.usedSpace).toBe(0);
        expect((await on(server, ann).get('/api/profile')).body.usedSpace).toBe(small.cipher.byteLength);
      }
    }, 60_000);

    if (sharing) {
      test('sharing: a file shared on the old build opens on the current one; revoked there, it is gone on the old one', async () => {
        const [bob, ann] = accounts as [Account, Account];
        const gift = await patternFile(bob.rootKey, null, 40_000, 9, 'gift.txt');
        expect((await postUpload(on(old, bob), gift.meta, gift.cipher)).status).toBe(201);
        const { keys } = await sharingAccount();
        await shareWith(
          { browser: on(old, bob), id: bob.id, rootKey: bob.rootKey, username: bob.username, keys },
          gift,
          ann.id,
          false,
        );

        const shared = await on(current, ann).get('/api/shared');
        expect((shared.body.files as Array<{ id: string }>).map((f) => f.id)).toContain(gift.id);
        await expectDownload(ann, gift);

        const revoke = { type: 'user', fileId: gift.id, userId: ann.id };
        expect((await on(current, bob).call('DELETE', '/api/shared', { json: revoke })).status).toBe(204);
        expect((await on(old, ann).get(`/api/file/data/${gift.id}`)).status).toBe(404);
        expect((await on(old, ann).get('/api/shared')).body.files).toEqual([]);
      });
    }

    test('finishing the roll: the old build stopped, a second current instance, and every account signs in', async () => {
      old.child.kill('SIGTERM');
      expect(await old.child.exited).toBe(0);
      const second = await spawnMain(env);
      started.push(second);
      expect(accounts.length).toBeGreaterThan(0);
      for (const account of accounts) {
        for (const server of [current, second]) {
          await signIn(server, account.username, account.password, account.id);
          await signIn(server, account.username.toUpperCase(), account.password, account.id);
        }
      }
      // Builds before 0.3.0 do not count items: the guide's recount, as written, puts it right.
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(await namedBlock('item-recount'));
        const counts =
          await sql`select id, item_count::int as counted, (select count(*)::int from items where owner_id = users.id) as owned from users`;
        expect(counts.filter((c) => c.counted !== c.owned)).toEqual([]);
      } finally {
        await sql.end({ timeout: 5 });
      }
    });

    async function expectDownload(owner: Account, file: Encrypted): Promise<void> {
      for (const server of [old, current]) {
        const { status, bytes } = await download(on(server, owner), file.id);
        expect(status).toBe(200);
        expect(Buffer.from(await decrypt(file, bytes)).equals(Buffer.from(file.plain))).toBe(true);
      }
    }

    /** The item's name as `browser`'s server lists it in `parent`, decrypted with the item's key. */
    async function nameOf(browser: Browser, parent: Made, item: Made): Promise<string> {
      const listing = await browser.get(`/api/file?id=${parent.id}`);
      expect(listing.status).toBe(200);
      const row = (listing.body.files as Array<{ id: string; encryptedFileName: string; nameNonce: string }>).find(
        (f) => f.id === item.id,
      );
      expect(row).toBeDefined();
      return decryptName(item.key, item.id, row!.encryptedFileName, row!.nameNonce);
    }
  });
}
