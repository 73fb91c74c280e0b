import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { newFileNonce, PART_BYTES, toBase64 } from '@sealbox/crypto';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { PURGE_BATCH } from '../../src/domain/files/deletion.ts';
import { RSA_WRAPPED_KEY_BYTES, SIGNATURE_BYTES } from '../../src/domain/files/validation.ts';
import { Browser } from '../accounts/harness.ts';
import {
  patternBytes,
  patternFile,
  postFolder,
  postUpload,
  sealContent,
  sendPart,
  uploadFile,
  type User,
} from '../files/harness.ts';
import { s3Env, startLocalS3 } from '../support/s3rver.ts';
import { postgresAvailability, reportUnavailable, throwawayDatabase } from '../support/services.ts';
import { localS3Client, postgresTruth, s3Blobs } from '../support/storage-truth.ts';
import { diskTruth, expectConsistent, killableServer, signUp, type KillableServer } from './support.ts';

/**
 * kill -9 at known steps of the writes files.crash.test.ts does not reach (it covers a part cut
 * mid-body, between parts and before complete, and a folder delete raced at random delays):
 * the server is started with SEALBOX_TEST_PAUSE so the chosen transaction hangs just before
 * its commit or just after it (before its events, blob deletes and answer), killed there, and
 * started again. Afterwards the write is all there or not at all, the start-up sweep has left
 * no orphan blob, usedSpace equals the bytes stored, and an answered revocation holds.
 */

/** A storage backend the server is started on, and how its truth is checked beside it. */
interface Backend {
  env: Record<string, string>;
  /** Asserts usedSpace = bytes stored, reserves, and blobs against rows; answers the user's items. */
  consistent(userId: string): Promise<{ used: number; items: Array<{ id: string; state: string }> }>;
  cleanup(): Promise<void>;
}

// Suites run one after the other: these belong to the one running.
let server: KillableServer;
let backend: Backend;
let owner: User;
let recipient: User;

/** Restarts paused at `pause`, fires `request`, kills the server once it hangs, starts it clean. */
async function killAt(pause: string, request: () => Promise<unknown>, whileDown?: () => Promise<void>): Promise<void> {
  await server.kill();
  await server.start({ SEALBOX_TEST_PAUSE: pause });
  const pending = request().catch((error: unknown) => error);
  await server.paused();
  await server.kill();
  await pending;
  await whileDown?.();
  await server.start();
}

const b64 = (n: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(n))).toString('base64');

/** A share of `itemId` with the recipient, of the shapes the server checks (it cannot verify them). */
const grantTo = (itemId: string) => ({
  type: 'user',
  id: itemId,
  userId: recipient.id,
  encryptedKey: b64(RSA_WRAPPED_KEY_BYTES),
  edit: false,
  signature: b64(SIGNATURE_BYTES),
});

async function canRead(user: User, id: string): Promise<boolean> {
  const response = await user.browser.request('GET', `/api/file/data/${id}`);
  await response.arrayBuffer();
  return response.status === 200;
}

async function listedIds(user: User): Promise<string[]> {
  const { body } = await user.browser.get('/api/file?depth=10');
  return body.files.map((f: { id: string }) => f.id);
}

describe('SEALBOX_TEST_PAUSE', () => {
  test('is inert unless set, and refuses anything but before-commit|after-commit:<kind>[:<n>]', () => {
    expect(loadConfig({}).testPause).toBeUndefined();
    expect(loadConfig({ SEALBOX_TEST_PAUSE: 'after-commit:share.deleted:2' }).testPause).toEqual({
      when: 'after-commit',
      kind: 'share.deleted',
      nth: 2,
    });
    for (const bad of ['share.deleted', 'during:share.deleted', 'before-commit:', 'before-commit:x:y']) {
      expect(() => loadConfig({ SEALBOX_TEST_PAUSE: bad })).toThrow(ConfigError);
    }
  });
});

function killPoints(name: string, openBackend: () => Promise<Backend>, options: { tree: boolean }): void {
  describe(name, () => {
    beforeAll(async () => {
      backend = await openBackend();
      server = await killableServer('sealbox-faults-kill-', backend.env);
      await server.start();
      owner = await signUp(server);
      recipient = await signUp(server);
    });

    afterAll(async () => {
      await server?.stop();
      await backend?.cleanup();
    });

    for (const when of ['before-commit', 'after-commit'] as const) {
      test(`complete, ${when}: the file is whole or invisible, quota exact`, async () => {
        const file = await patternFile(owner.rootKey, null, PART_BYTES + 5000, 3);
        const created = await postUpload(owner.browser, file.meta);
        expect(created.status).toBe(201);
        const { uploadId } = created.body;
        for (const n of [0, 1]) expect((await sendPart(owner.browser, uploadId, file, n)).status).toBe(204);
        await killAt(`${when}:upload.completed`, () => owner.browser.post(`/api/upload/${uploadId}/complete`));
        const truth = await backend.consistent(owner.id);
        const state = truth.items.find((item) => item.id === file.id)?.state;
        if (when === 'before-commit') {
          expect(state).toBe('uploading');
          expect(await listedIds(owner)).not.toContain(file.id);
          // The client's retry finishes it.
          expect((await owner.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(200);
        } else {
          expect(state).toBe('ready');
          // A retry of the unanswered complete is told it is done or gone, never a second file.
          expect([200, 404, 409]).toContain((await owner.browser.post(`/api/upload/${uploadId}/complete`)).status);
        }
        expect(await listedIds(owner)).toContain(file.id);
        const bytes = new Uint8Array(await (await owner.browser.request('GET', `/api/file/data/${file.id}`)).arrayBuffer());
        expect(bytes).toEqual(file.cipher);
        await backend.consistent(owner.id);
      }, 30_000);
    }

    for (const when of ['before-commit', 'after-commit'] as const) {
      test(`complete of a new version, ${when}: the old content or the new, whole, quota exact`, async () => {
        const file = await patternFile(owner.rootKey, null, 4000, 7);
        await uploadFile(owner, file);
        const nonce = newFileNonce();
        const plain = patternBytes(PART_BYTES + 3000, 8);
        const cipher = await sealContent(file.key, nonce, plain);
        const meta = { versionOf: file.id, fileNonce: toBase64(nonce), size: cipher.byteLength };
        const created = await postUpload(owner.browser, meta);
        expect(created.status).toBe(201);
        const { uploadId } = created.body;
        for (const n of [0, 1]) expect((await sendPart(owner.browser, uploadId, { cipher }, n)).status).toBe(204);
        await killAt(`${when}:item.versions`, () => owner.browser.post(`/api/upload/${uploadId}/complete`));
        await backend.consistent(owner.id);
        const served = async () =>
          new Uint8Array(await (await owner.browser.request('GET', `/api/file/data/${file.id}`)).arrayBuffer());
        if (when === 'before-commit') {
          expect(await served()).toEqual(file.cipher);
          expect((await owner.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(200);
        }
        expect(await served()).toEqual(cipher);
        const versions = (await owner.browser.get(`/api/file/${file.id}/versions`)).body.versions;
        expect(versions.map((v: { fileNonce: string }) => v.fileNonce)).toEqual([toBase64(file.fileNonce)]);
        await backend.consistent(owner.id);
      }, 30_000);
    }

    // PostgreSQL + S3 leaves this to files.crash.postgres-s3 (orphans there wait out the sweep's grace).
    if (options.tree)
      test(`delete of a tree of over ${PURGE_BATCH} items to the trash, then for good: killed before the first commit and after a purge batch`, async () => {
        const user = await signUp(server);
        const root = await postFolder(user, null, 'big');
        // Wide and shallow plus one deep branch, and files with blobs and a share right under the
        // folder: a purge step takes a folder's files (and empty subfolders) before walking into
        // the others, so the first batch takes them (publishing share.deleted) and leaves most of
        // the tree for later. Each wide folder holds one, so none is taken in that first sweep.
        const made: string[] = [root.id];
        for (let i = 0; i < PURGE_BATCH / 2 + 30; i += 1) {
          const folder = await postFolder(user, root, `f${i}`);
          const inner = await postFolder(user, folder, 'inner');
          made.push(folder.id, inner.id);
        }
        let parent = root;
        for (let depth = 0; depth < 4; depth += 1) {
          const folder = await postFolder(user, parent, `d${depth}`);
          made.push(folder.id);
          parent = folder;
        }
        const files = [
          await patternFile(root.key, root.id, PART_BYTES + 100, 5),
          await patternFile(root.key, root.id, 20_000, 6),
          await patternFile(parent.key, parent.id, 30_000, 7),
        ];
        for (const file of files) {
          await uploadFile(user, file);
          made.push(file.id);
        }
        expect((await user.browser.post('/api/share', grantTo(files[1]!.id))).status).toBe(201);
        expect(await canRead(recipient, files[1]!.id)).toBe(true);
        const stored = (await backend.consistent(user.id)).used;
        expect(stored).toBeGreaterThan(PART_BYTES);

        // Killed inside the first transaction (the folder marked deleting): nothing happened.
        await killAt('before-commit:item.deleted', () => user.browser.delete(`/api/file/${root.id}`));
        const kept = await backend.consistent(user.id);
        expect(kept.used).toBe(stored);
        expect(kept.items.map((item) => item.id).sort()).toEqual([...made].sort());
        expect(await listedIds(user)).toContain(root.id);
        expect(await canRead(recipient, files[1]!.id)).toBe(true);

        // In the trash: hidden from everyone, every byte still counted.
        expect((await user.browser.delete(`/api/file/${root.id}`)).status).toBe(204);
        expect((await backend.consistent(user.id)).used).toBe(stored);
        expect(await listedIds(user)).not.toContain(root.id);
        expect(await canRead(recipient, files[1]!.id)).toBe(false);

        // Deleted for good, killed after the first purge batch committed, before its blobs were
        // deleted: the start-up sweep finishes the delete and takes the orphans.
        await killAt(
          'after-commit:share.deleted',
          () => user.browser.delete(`/api/trash/${root.id}`),
          async () => {
            // Down: one batch gone, the rest (and the folder, marked) still there, the batch's blobs orphaned.
            const cut = await diskTruth(server.dataDir, user.id);
            expect(cut.items.length).toBeGreaterThan(0);
            expect(cut.items.length).toBeLessThan(made.length);
            expect(cut.blobs.filter((key) => !cut.named.includes(key)).length).toBeGreaterThan(0);
            expect(cut.used).toBe(cut.stored);
          },
        );
        const truth = await backend.consistent(user.id);
        expect(truth.items).toEqual([]);
        expect(truth.used).toBe(0);
        expect(await listedIds(user)).toEqual([]);
        expect(await canRead(recipient, files[1]!.id)).toBe(false);
      }, 60_000);

    test('account delete: killed before its commit nothing happened; after it, the start-up sweep finishes', async () => {
      const user = await signUp(server);
      const folder = await postFolder(user, null, 'mine');
      for (let i = 0; i < 30; i += 1) await postFolder(user, folder, `f${i}`);
      const file = await patternFile(folder.key, folder.id, PART_BYTES + 2000, 11);
      await uploadFile(user, file);
      expect((await user.browser.post('/api/share', grantTo(file.id))).status).toBe(201);
      const remove = () => user.browser.post('/api/account/delete', { password: user.password, confirm: user.username });

      // Cut inside the one transaction that ends the account: still there, whole.
      await killAt('before-commit:session.ended', remove);
      expect((await listedIds(user)).length).toBe(32);
      expect(await canRead(recipient, file.id)).toBe(true);
      expect((await backend.consistent(user.id)).items.length).toBe(32);

      // Cut right after it: gone for everyone at once; the restarted server removes the items
      // while it serves (their purge gives way to requests, so it does not hold up the start).
      await killAt('after-commit:session.ended', remove);
      expect((await user.browser.get('/api/profile')).status).toBe(401);
      expect(await canRead(recipient, file.id)).toBe(false);
      // Looked at while the purge runs, the store may be between a row and its blob (a failed
      // fresh-clone run caught one such moment): only the end must be consistent.
      const purged = async () => {
        try {
          return (await backend.consistent(user.id)).items.length === 0;
        } catch {
          return false;
        }
      };
      const deadline = Date.now() + 20_000;
      while (!(await purged()) && Date.now() < deadline) await Bun.sleep(100);
      const truth = await backend.consistent(user.id);
      expect(truth.items).toEqual([]);
      expect(truth.used).toBe(0);
      const login = await new Browser(server.remote).post('/api/login', { username: user.username, password: user.password });
      expect(login.status).toBe(401);
    }, 60_000);

    test('share, revocation and link password change: killed before or after commit, answered holds', async () => {
      const file = await patternFile(owner.rootKey, null, 3000, 9);
      await uploadFile(owner, file);
      const grant = () => grantTo(file.id);
      const revoke = { type: 'user', fileId: file.id, userId: recipient.id };

      // A share cut before its commit never happened; after it, it did.
      await killAt('before-commit:share.created', () => owner.browser.post('/api/share', grant()));
      expect(await canRead(recipient, file.id)).toBe(false);
      await killAt('after-commit:share.created', () => owner.browser.post('/api/share', grant()));
      expect(await canRead(recipient, file.id)).toBe(true);

      // A revocation cut before its commit was never answered: the grant stands (the owner retries).
      await killAt('before-commit:share.deleted', () => owner.browser.call('DELETE', '/api/shared', { json: revoke }));
      expect(await canRead(recipient, file.id)).toBe(true);
      // Cut after its commit: gone, though the owner never heard.
      await killAt('after-commit:share.deleted', () => owner.browser.call('DELETE', '/api/shared', { json: revoke }));
      expect(await canRead(recipient, file.id)).toBe(false);
      const shared = (await recipient.browser.get('/api/shared')).body.files.map((f: { id: string }) => f.id);
      expect(shared).not.toContain(file.id);
      // Answered, then killed at once: no access survives the restart.
      expect((await owner.browser.post('/api/share', grant())).status).toBe(201);
      expect((await owner.browser.call('DELETE', '/api/shared', { json: revoke })).status).toBe(204);
      await server.kill();
      await server.start();
      expect(await canRead(recipient, file.id)).toBe(false);

      // A link password change: before its commit the old password and proofs hold; after it
      // only the new password opens the link and every earlier proof is void.
      const link = await owner.browser.post('/api/share', {
        type: 'link',
        id: file.id,
        expires: 0,
        password: 'old pass',
        edit: false,
      });
      expect(link.status).toBe(201);
      const { linkId } = link.body;
      const visitor = new Browser(server.remote);
      expect((await visitor.post(`/api/shared/${linkId}`, { password: 'old pass' })).status).toBe(200);
      const readsByLink = async () => {
        const response = await visitor.request('GET', `/api/file/data/${file.id}?linkId=${linkId}`);
        await response.arrayBuffer();
        return response.status;
      };
      expect(await readsByLink()).toBe(200);
      const change = (password: string) => () => owner.browser.put('/api/share', { type: 'link', linkId, password });
      await killAt('before-commit:link.password', change('new pass'));
      expect(await readsByLink()).toBe(200);
      expect((await new Browser(server.remote).post(`/api/shared/${linkId}`, { password: 'new pass' })).status).toBe(401);
      await killAt('after-commit:link.password', change('new pass'));
      expect(await readsByLink()).toBe(404);
      expect((await new Browser(server.remote).post(`/api/shared/${linkId}`, { password: 'old pass' })).status).toBe(401);
      expect((await new Browser(server.remote).post(`/api/shared/${linkId}`, { password: 'new pass' })).status).toBe(200);
      await backend.consistent(owner.id);
    }, 60_000);
  });
}

killPoints(
  'kill -9 at a known step (SQLite + disk)',
  async () => ({
    env: {},
    consistent: (userId) => expectConsistent(server.dataDir, userId),
    async cleanup() {},
  }),
  { tree: true },
);

const pg = await postgresAvailability();
if (pg.available) {
  // The cheap ones again on PostgreSQL + S3 (the tree delete's orphans would wait out the
  // one-hour grace there; files.crash.postgres-s3.test.ts covers deletes on it).
  killPoints(
    'kill -9 at a known step (PostgreSQL + S3)',
    async () => {
      const database = await throwawayDatabase('sealbox_killpoints');
      const sql = postgres(database.url, { max: 2, onnotice: () => {} });
      const s3 = await startLocalS3('sealbox-killpoints');
      const client = localS3Client(s3);
      return {
        env: { DATABASE_URL: database.url, ...s3Env(s3) },
        async consistent(userId) {
          const truth = await postgresTruth(sql, userId);
          expect(truth.used).toBe(truth.stored);
          expect(truth.reserved).toBe(truth.reservedByUploads);
          const { keys } = await s3Blobs(client);
          for (const key of truth.named) expect(keys).toContain(key);
          return { used: truth.used, items: truth.items };
        },
        async cleanup() {
          await sql.end({ timeout: 5 });
          await database.drop();
          await s3.stop();
        },
      };
    },
    { tree: false },
  );
} else {
  reportUnavailable('kill -9 at a known step (PostgreSQL + S3)', pg.reason);
}
