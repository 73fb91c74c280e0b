import { describe, expect, test } from 'bun:test';
import { PART_BYTES, signGrant, wrapKeyForUser } from '@sealbox/crypto';
import { registerAndLogin, uniqueName } from './accounts/harness.ts';
import { decrypt, download, folderMeta, patternFile, postFolder, postUpload, sendPart, type User } from './files/harness.ts';
import { sharingAccount } from './sharing/harness.ts';
import { LiveClient } from './support/live-client.ts';
import { browserOn, withCluster } from './support/cluster.ts';
import type { MainProcess } from './support/main-process.ts';
import { postgresAvailability, reportUnavailable, type ThrowawayDatabase } from './support/services.ts';

const availability = await postgresAvailability();

interface Cluster {
  a: MainProcess;
  b: MainProcess;
  /** The throw-away database's name (for the outage test). */
  database: string;
  admin: ThrowawayDatabase['admin'];
}

/** Two `bun src/main.ts` processes on one PostgreSQL database and one S3 bucket. */
const withTwo = (fn: (cluster: Cluster) => Promise<void>) =>
  withCluster('scaleout', 2, ({ servers, database }) =>
    fn({ a: servers[0]!, b: servers[1]!, database: database.name, admin: database.admin }),
  );

async function userOn(server: MainProcess): Promise<User> {
  const browser = browserOn(server);
  const { id } = await registerAndLogin(browser, uniqueName('x'));
  return { browser, id, rootKey: crypto.getRandomValues(new Uint8Array(32)) };
}

if (availability.available) {
  describe('two server processes on PostgreSQL and S3', () => {
    test('a change through A reaches a socket on B, B serves the bytes, and an upload started on A completes on B', async () => {
      await withTwo(async ({ a, b }) => {
        for (const server of [a, b]) {
          expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({
            status: 'ok',
            db: 'ok',
            blobs: 'ok',
            events: 'ok',
          });
        }
        const alice = await userOn(a);
        // The session made on A works on B: sessions live in the database, no stickiness needed.
        const onB = browserOn(b, alice.browser.cookie);
        const socketOnB = await LiveClient.open(b.url, alice.browser.cookie);
        try {
          const folder = await postFolder(alice, null);
          expect((await socketOnB.event('item.created', folder.id)).event).toEqual({
            kind: 'item.created',
            itemId: folder.id,
            parentId: null,
          });

          const file = await patternFile(folder.key, folder.id, 2 * PART_BYTES + 12_345);
          const created = await postUpload(alice.browser, file.meta);
          expect(created.status).toBe(201);
          const { uploadId, parts } = created.body as { uploadId: string; parts: number };
          expect(parts).toBe(3);
          expect((await sendPart(alice.browser, uploadId, file, 0)).status).toBe(204);
          // The rest goes to the other instance, as a load balancer may send it.
          const resume = await onB.get(`/api/upload/${uploadId}`);
          expect(resume.status).toBe(200);
          for (let n = 1; n < parts; n++) expect((await sendPart(onB, uploadId, file, n)).status).toBe(204);
          expect((await onB.post(`/api/upload/${uploadId}/complete`)).status).toBe(200);
          await socketOnB.event('upload.completed', file.id);

          const fetched = await download(onB, file.id);
          expect(fetched.status).toBe(200);
          expect(Bun.hash(await decrypt(file, fetched.bytes))).toBe(Bun.hash(file.plain));
          const range = await download(onB, file.id, 'bytes=8388000-8389000');
          expect(range.status).toBe(206);
          expect(range.bytes).toEqual(file.cipher.subarray(8_388_000, 8_389_001));

          // Sharing through A reaches the recipient's tab on B; a link deleted through A closes
          // its visitor's socket on B.
          const bob = await userOn(a);
          const bobOnB = await LiveClient.open(b.url, bob.browser.cookie);
          const { keys } = await sharingAccount();
          const encryptedKey = await wrapKeyForUser(keys.publicKey, folder.key);
          const signature = await signGrant(keys.signingPrivateKey, {
            sharerId: alice.id,
            itemId: folder.id,
            recipientId: bob.id,
            encryptedKey,
            edit: false,
          });
          const shared = await alice.browser.post('/api/share', {
            type: 'user',
            id: folder.id,
            userId: bob.id,
            encryptedKey,
            signature,
            edit: false,
          });
          expect(shared.status).toBe(201);
          expect((await bobOnB.event('share.created', folder.id)).event).toEqual({ kind: 'share.created', itemId: folder.id });
          const link = await alice.browser.post('/api/share', { type: 'link', id: folder.id, expires: 0, edit: false });
          const visitorOnB = await LiveClient.open(b.url, undefined, { path: `/api/ws?linkId=${link.body.linkId}` });
          expect(
            (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId: link.body.linkId } })).status,
          ).toBe(204);
          expect((await visitorOnB.closed).code).toBe(4404);
          bobOnB.close();

          // Deleted through B, gone from A.
          expect((await onB.delete(`/api/file/${folder.id}`)).status).toBe(204);
          expect((await download(alice.browser, file.id)).status).toBe(404);
        } finally {
          socketOnB.close();
        }
      });
    }, 60_000);

    test('a PostgreSQL outage is survived: instances resubscribe and clients are told to catch up', async () => {
      await withTwo(async ({ a, b, database, admin }) => {
        const alice = await userOn(a);
        const socketOnB = await LiveClient.open(b.url, alice.browser.cookie);
        try {
          // As a restart does: every connection dropped, and none accepted for a while.
          await admin.unsafe(`alter database ${database} allow_connections false`);
          // Client connections only: an autovacuum worker there is the superuser's, not ours to end.
          await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database} and backend_type = 'client backend' and pid <> pg_backend_pid()`;
          await Bun.sleep(2000);
          await admin.unsafe(`alter database ${database} allow_connections true`);

          await socketOnB.next((m) => m.type === 'resync', 60_000);
          expect(socketOnB.socket.readyState).toBe(WebSocket.OPEN);
          // Changes through A reach B again (the deadline only stops a hang).
          let delivered = false;
          const deadline = Date.now() + 60_000;
          while (!delivered && Date.now() < deadline) {
            const folder = await folderMeta(alice.rootKey, null);
            const answer = await postUpload(alice.browser, folder.meta);
            if (answer.status === 201)
              delivered = await socketOnB.event('item.created', folder.id, 1000).then(
                () => true,
                () => false,
              );
            else await Bun.sleep(200);
          }
          expect(delivered).toBe(true);
        } finally {
          socketOnB.close();
        }
      });
    }, 180_000);
  });
} else {
  reportUnavailable('two server processes on PostgreSQL and S3', availability.reason);
}
