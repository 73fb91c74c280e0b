import { describe, expect, test } from 'bun:test';
import { PART_BYTES } from '@sealbox/crypto';
import postgres from 'postgres';
import { registerAndLogin, uniqueName } from '../accounts/harness.ts';
import { folderMeta, patternFile, postUpload, sendPart, uploadFile, type User } from '../files/harness.ts';
import { LiveClient } from '../support/live-client.ts';
import { browserOn, withCluster } from '../support/cluster.ts';
import type { MainProcess } from '../support/main-process.ts';
import { postgresAvailability, reportUnavailable } from '../support/services.ts';

/**
 * PostgreSQL goes away while two instances (one database, one bucket, the live hub over
 * LISTEN/NOTIFY) serve an upload in parts, Range downloads and sockets. The cluster is shared
 * with other suites, so it is not restarted: the test's own throw-away database refuses new
 * connections and every backend on it is terminated (pg_terminate_backend), which is what a
 * restart looks like from the instances, for OUTAGE_MS. Clients behave as the web app does
 * (a 5xx or a dropped connection is retried after a pause; no reload, no new sign-in) and must
 * all finish: the upload completes with the right bytes, downloads answer again, every socket
 * stays open and is told to catch up (resync), and events flow both ways again.
 */
const SUITE = 'PostgreSQL outage under two instances';
const OUTAGE_MS = 3000;
const availability = await postgresAvailability();

/**
 * A client of one instance over real HTTP; every request bounded so a hang shows as a failure.
 * The bound only catches a hang, so it is generous: on a busy machine a Range read during the
 * outage once took longer than the 15 s this was (issue 21), which is slow, not hung.
 */
const HANG_MS = 60_000;
const clientOf = (server: MainProcess, cookie?: string) => browserOn(server, cookie, HANG_MS);

/** What the clients saw while the database was away. */
const seen = new Map<string, number>();
const note = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

/** As the web app's transfer plan does: retry network failures and 5xx, give up on a 4xx. */
async function retried<T extends { status: number }>(what: string, attempt: () => Promise<T>, deadline: number): Promise<T> {
  for (;;) {
    try {
      const answer = await attempt();
      note(`${what} ${answer.status}`);
      if (answer.status < 500 || Date.now() > deadline) return answer;
    } catch (error) {
      note(`${what} ${(error as Error).name}`);
      if (Date.now() > deadline) throw error;
    }
    await Bun.sleep(250);
  }
}

if (availability.available) {
  describe(SUITE, () => {
    test('uploads, Range downloads and sockets on both instances all recover without a reload', async () => {
      await withCluster('outage', 2, async ({ servers, database }) => {
        const sockets: LiveClient[] = [];
        try {
          const [a, b] = servers as [MainProcess, MainProcess];

          const signedUp = async (): Promise<User> => {
            const browser = clientOf(a);
            const { id } = await registerAndLogin(browser, uniqueName('o'));
            return { browser, id, rootKey: crypto.getRandomValues(new Uint8Array(32)) };
          };
          const alice = await signedUp();
          const bob = await signedUp();
          const aliceOnB = clientOf(b, alice.browser.cookie);
          const bobOnB = clientOf(b, bob.browser.cookie);

          // A file to read by Range, and an upload in parts, part 0 in before the outage.
          const stored = await patternFile(alice.rootKey, null, PART_BYTES + 50_000, 4);
          await uploadFile(alice, stored);
          const big = await patternFile(alice.rootKey, null, 2 * PART_BYTES + 999, 5);
          const created = await postUpload(alice.browser, big.meta);
          expect(created.status).toBe(201);
          const { uploadId } = created.body;
          expect((await sendPart(alice.browser, uploadId, big, 0)).status).toBe(204);
          const bobsFile = await patternFile(bob.rootKey, null, 10_000, 6);
          await uploadFile(bob, bobsFile);

          sockets.push(await LiveClient.open(a.url, alice.browser.cookie));
          sockets.push(await LiveClient.open(b.url, alice.browser.cookie));
          sockets.push(await LiveClient.open(b.url, bob.browser.cookie));
          const [aliceSocketA, aliceSocketB, bobSocketB] = sockets as [LiveClient, LiveClient, LiveClient];

          // The outage, and traffic that runs straight through it.
          const deadline = Date.now() + OUTAGE_MS + 2 * HANG_MS;
          let outageOver = false;
          const outage = (async () => {
            await Bun.sleep(300);
            await database.admin.unsafe(`alter database ${database.name} allow_connections false`);
            // Client connections only: an autovacuum worker there is the superuser's, not ours to end.
            await database.admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database.name} and backend_type = 'client backend' and pid <> pg_backend_pid()`;
            await Bun.sleep(OUTAGE_MS);
            await database.admin.unsafe(`alter database ${database.name} allow_connections true`);
            outageOver = true;
          })();
          const upload = (async () => {
            // The rest of the upload, one part per instance, then complete.
            const via = [alice.browser, aliceOnB];
            for (const n of [1, 2]) {
              await Bun.sleep(OUTAGE_MS / 3);
              const sent = await retried('part', () => sendPart(via[n % 2]!, uploadId, big, n), deadline);
              expect(sent.status).toBe(204);
            }
            const done = await retried('complete', () => aliceOnB.call('POST', `/api/upload/${uploadId}/complete`), deadline);
            expect(done.status).toBe(200);
          })();
          const reads = (async () => {
            let round = 0;
            // Range reads alternate between instances until the outage is over and one has succeeded.
            for (let ok = false; !(ok && outageOver); round++) {
              const browser = round % 2 === 0 ? alice.browser : aliceOnB;
              const start = (round * 65_537) % (stored.cipher.byteLength - 1000);
              const answer = await retried(
                'range',
                async () => {
                  const response = await browser.request('GET', `/api/file/data/${stored.id}`, {
                    headers: { range: `bytes=${start}-${start + 999}` },
                  });
                  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
                },
                deadline,
              );
              expect(answer.status).toBe(206);
              expect(answer.bytes).toEqual(stored.cipher.subarray(start, start + 1000));
              ok = true;
              await Bun.sleep(100);
            }
            // Bob, who did nothing during it, reads on B without signing in again.
            const his = await retried('bob read', () => bobOnB.request('GET', `/api/file/data/${bobsFile.id}`), deadline);
            expect(new Uint8Array(await his.arrayBuffer())).toEqual(bobsFile.cipher);
          })();
          await Promise.all([outage, upload, reads]);

          // Every socket stayed open and was told to catch up (notifications sent meanwhile are lost).
          for (const socket of sockets) {
            await socket.next((m) => m.type === 'resync', HANG_MS);
            expect(socket.socket.readyState).toBe(WebSocket.OPEN);
          }
          // Events flow again both ways: through A to B, and through B to A.
          await aliceSocketB.event('upload.completed', big.id, 10_000).catch(() => undefined);
          const viaA = await folderMeta(alice.rootKey, null, 'after, via A');
          expect((await retried('folder', () => postUpload(alice.browser, viaA.meta), deadline)).status).toBe(201);
          await aliceSocketB.event('item.created', viaA.id, HANG_MS);
          const viaB = await folderMeta(alice.rootKey, null, 'after, via B');
          expect((await retried('folder', () => postUpload(aliceOnB, viaB.meta), deadline)).status).toBe(201);
          await aliceSocketA.event('item.created', viaB.id, HANG_MS);
          const bobsFolder = await folderMeta(bob.rootKey, null, 'bob after');
          expect((await postUpload(clientOf(a, bob.browser.cookie), bobsFolder.meta)).status).toBe(201);
          await bobSocketB.event('item.created', bobsFolder.id, HANG_MS);

          // The upload finished whole, and quotas are exact.
          const whole = await aliceOnB.request('GET', `/api/file/data/${big.id}`);
          expect(new Uint8Array(await whole.arrayBuffer())).toEqual(big.cipher);
          const sql = postgres(database.url, { max: 1, onnotice: () => {} });
          try {
            const [row] = await sql`
            select count(*)::int as off from users u where u.used_space != (
              select coalesce(sum(p.size), 0) from item_parts p join items i on i.id = p.item_id where i.owner_id = u.id)`;
            expect(row!.off).toBe(0);
          } finally {
            await sql.end({ timeout: 5 });
          }
          // While it was away the instances answered 503 (retry), never 500, and nothing hung.
          expect([...seen.keys()].filter((k) => / 5\d\d$/.test(k) && !k.endsWith(' 503'))).toEqual([]);
          expect([...seen.keys()].filter((k) => / \D+$/.test(k))).toEqual([]);
          console.log(`[outage] what the clients saw: ${[...seen].map(([k, n]) => `${k}×${n}`).join(', ')}`);
        } finally {
          for (const socket of sockets) socket.close();
        }
      });
    }, 600_000);
  });
} else {
  reportUnavailable(SUITE, availability.reason);
}
