import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { PART_BYTES } from '@sealbox/crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partKeyTime } from '../../src/domain/files/blob-keys.ts';
import { Browser, registrationFor, uniqueName } from '../accounts/harness.ts';
import { isolatedEnv, remoteTo, spawnMain, type MainProcess } from '../support/main-process.ts';
import { waitFor } from '../support/services.ts';
import type { DbTruth } from '../support/storage-truth.ts';
import {
  decrypt,
  partBytes,
  patternBytes,
  patternFile,
  postFolder,
  postUpload,
  putPart,
  sendPart,
  uploadFile,
  type User,
} from './harness.ts';

/**
 * docs/protocol.md "Crash safety", against the real server: `bun src/main.ts` killed with
 * SIGKILL in the middle of uploads and deletes, then started again. After the start-up sweep
 * there must be no visible half-file, no orphan blob and usedSpace must equal the bytes
 * actually stored. The scenarios are written once and run on every storage backend.
 */

/** How one storage backend is started, inspected and torn down. */
export interface CrashBackend {
  /** Environment for `bun src/main.ts` that selects this backend (DATA_DIR, DATABASE_URL, ...). */
  env: Record<string, string>;
  /**
   * Orphan part blobs younger than this survive the start-up sweep by design (0 alone on
   * SQLite; SHARED_SWEEP_GRACE_MS on PostgreSQL, where other instances may be mid-request).
   */
  sweepGraceMs: number;
  inspect(userId: string): Promise<DbTruth>;
  /** Part blobs under their real names (sorted) and unfinished writes left behind. */
  blobs(): Promise<{ keys: string[]; temp: string[] }>;
  /** Stores a blob directly, bypassing the server (a crash between blob write and row commit). */
  putBlob(key: string, bytes: Uint8Array): Promise<void>;
  /** Bytes of unfinished blob writes visible from outside, or null when the store hides them. */
  inFlightBytes(): Promise<number | null>;
  /**
   * With a grace period: runs the server's orphan sweep as the periodic one will once the
   * grace period has passed (clock moved forward), returning how many blobs it removed.
   */
  sweepAfterGrace?(): Promise<number>;
  cleanup(): Promise<void>;
}

const ORIGIN = 'http://localhost';

export function crashScenarios(name: string, openBackend: (dataDir: string) => Promise<CrashBackend>): void {
  let dataDir: string;
  let webDir: string;
  let backend: CrashBackend | undefined;
  let server: MainProcess | undefined;

  async function start(): Promise<void> {
    server = await spawnMain(
      isolatedEnv(dataDir, { DATA_DIR: dataDir, WEB_DIST: webDir, PUBLIC_ORIGIN: ORIGIN, LOG_LEVEL: 'info', ...backend!.env }),
    );
  }

  async function kill(): Promise<void> {
    if (!server) return;
    server.child.kill('SIGKILL');
    await server.child.exited;
    server = undefined;
  }

  async function restart(): Promise<void> {
    await kill();
    await start();
  }

  /** Talks to whichever server process is running now; the session survives restarts. */
  const remote = remoteTo(() => {
    if (!server) throw new Error('no server');
    return server.url;
  });

  async function signUp(): Promise<User> {
    const username = uniqueName('c');
    const browser = new Browser(remote);
    const registration = await registrationFor(username);
    const created = await browser.post('/api/register', registration);
    expect(created.status).toBe(201);
    expect((await browser.post('/api/login', { username, password: registration.password })).status).toBe(200);
    return { browser, id: created.body.id, rootKey: crypto.getRandomValues(new Uint8Array(32)) };
  }

  async function checkInvariants(userId: string): Promise<DbTruth> {
    const truth = await backend!.inspect(userId);
    const { keys, temp } = await backend!.blobs();
    expect(temp).toEqual([]);
    if (backend!.sweepGraceMs === 0) {
      expect(keys).toEqual(truth.named);
    } else {
      // Every row's blob exists; an unnamed blob may only be one the sweep spares on purpose
      // (younger than the grace period: e.g. a delete killed after commit, before its blob deletes).
      for (const key of truth.named) expect(keys).toContain(key);
      const cutoff = Date.now() - backend!.sweepGraceMs;
      const sweepable = keys.filter((key) => !truth.named.includes(key) && (partKeyTime(key) ?? Infinity) <= cutoff);
      expect(sweepable).toEqual([]);
    }
    expect(truth.used).toBe(truth.stored);
    expect(truth.reserved).toBe(truth.reservedByUploads);
    return truth;
  }

  describe(name, () => {
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'sealbox-crash-'));
      webDir = join(dataDir, 'web');
      await mkdir(webDir, { recursive: true });
      await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Sealbox</title>');
      backend = await openBackend(dataDir);
      await start();
    });

    afterAll(async () => {
      await kill();
      await backend?.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    });

    describe('kill -9 during transfers', () => {
      test('mid-part, between parts and before complete: no half-file, no orphan, exact usedSpace', async () => {
        const user = await signUp();
        const file = await patternFile(user.rootKey, null, 2 * PART_BYTES + 4321, 17);
        const created = await postUpload(user.browser, file.meta);
        expect(created.status).toBe(201);
        const { uploadId } = created.body;
        expect((await sendPart(user.browser, uploadId, file, 0)).status).toBe(204);

        // Mid-part: half of part 1 is on the wire (and in a temp file) when the server dies.
        const part1 = partBytes(file.cipher, 1);
        let release!: () => void;
        const stalled = new Promise<void>((resolve) => (release = resolve));
        let handedOver!: () => void;
        const halfSent = new Promise<void>((resolve) => (handedOver = resolve));
        let pulls = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            pulls += 1;
            if (pulls === 1) {
              controller.enqueue(part1.subarray(0, part1.byteLength / 2));
              return;
            }
            // Asked for more: the first half has been taken by the connection.
            handedOver();
            await stalled;
            controller.close();
          },
        });
        const pending = fetch(`${server!.url}/api/upload/${uploadId}/part/1`, {
          method: 'PUT',
          headers: {
            cookie: `sealbox_session=${user.browser.cookie}`,
            origin: ORIGIN,
            'content-type': 'application/octet-stream',
          },
          body,
          // @ts-expect-error Bun supports streaming request bodies
          duplex: 'half',
        }).catch((error: unknown) => error);
        if ((await backend!.inFlightBytes()) === null) {
          // The store buffers an unfinished write out of sight (S3 multipart below its part
          // size): wait until the client has handed over the half, then give the server time.
          await halfSent;
          await Bun.sleep(1000);
        } else {
          await waitFor(
            async () => ((await backend!.inFlightBytes()) ?? 0) > 1024 * 1024,
            30_000,
            'half a part to reach a temp file',
          );
        }
        // And a blob stored under its real name whose row never committed (a crash between the
        // two), old enough for the start-up sweep to take.
        const orphanTime = Date.now() - backend!.sweepGraceMs - 5000;
        const orphan = `part-${orphanTime.toString(36)}-${'ef'.repeat(16)}`;
        await backend!.putBlob(orphan, patternBytes(64));
        expect((await backend!.blobs()).keys).toContain(orphan);
        await restart();
        release();
        await pending;

        let truth = await checkInvariants(user.id);
        expect((await backend!.blobs()).keys).not.toContain(orphan);
        expect(truth.used).toBe(PART_BYTES);
        expect(truth.items).toContainEqual({ id: file.id, state: 'uploading' });
        expect((await user.browser.get('/api/file')).body.files).toEqual([]);
        expect((await user.browser.get(`/api/upload/${uploadId}`)).body.received).toEqual([0]);
        expect((await user.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(409);

        // Between parts: part 1 committed, then the server dies.
        expect((await putPart(user.browser, uploadId, 1, part1)).status).toBe(204);
        await restart();
        truth = await checkInvariants(user.id);
        expect(truth.used).toBe(2 * PART_BYTES);
        expect((await user.browser.get(`/api/upload/${uploadId}`)).body.received).toEqual([0, 1]);

        // Before complete: every part is in, the item is still invisible after the crash.
        expect((await sendPart(user.browser, uploadId, file, 2)).status).toBe(204);
        await restart();
        truth = await checkInvariants(user.id);
        expect(truth.used).toBe(file.cipher.byteLength);
        expect((await user.browser.get('/api/file')).body.files).toEqual([]);
        expect((await user.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(200);
        const response = await user.browser.request('GET', `/api/file/data/${file.id}`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        expect(bytes).toEqual(file.cipher);
        expect(await decrypt(file, bytes)).toEqual(file.plain);
        await checkInvariants(user.id);
      }, 90_000);

      test('kill -9 while deleting a folder for good from the trash: all of it or none of it, and no orphans', async () => {
        const user = await signUp();
        for (const delayMs of [0, 1, 3, 8, 20]) {
          const folder = await postFolder(user, null);
          const files = [
            await patternFile(folder.key, folder.id, PART_BYTES + 1000, delayMs + 1),
            await patternFile(folder.key, folder.id, 70_000, delayMs + 2),
          ];
          for (const f of files) await uploadFile(user, f);
          // To the trash first (hidden, still counted), then deleted for good, cut by the kill.
          expect((await user.browser.delete(`/api/file/${folder.id}`)).status).toBe(204);
          const request = user.browser.request('DELETE', `/api/trash/${folder.id}`).catch((error: unknown) => error);
          await Bun.sleep(delayMs);
          await restart();
          await request;
          const truth = await checkInvariants(user.id);
          const trash = await user.browser.get('/api/trash');
          const trashed = trash.body.files.map((f: { id: string }) => f.id);
          const kept = [folder.id, ...files.map((f) => f.id)];
          if (trashed.includes(folder.id)) {
            // The delete never committed: all of it is still in the trash, counted.
            for (const id of kept) expect(truth.items.some((i) => i.id === id)).toBe(true);
            expect(trash.body.bytes).toBe(truth.used);
            expect((await user.browser.delete(`/api/trash/${folder.id}`)).status).toBe(204);
          } else {
            expect(truth.items.some((i) => kept.includes(i.id))).toBe(false);
          }
          expect((await user.browser.get('/api/file?depth=2')).body.files).toEqual([]);
          const after = await checkInvariants(user.id);
          expect(after.used).toBe(0);
        }
        if (backend!.sweepGraceMs > 0) {
          // Blobs spared above (a delete killed after its commit) are reclaimed by a later sweep.
          await backend!.sweepAfterGrace!();
          const truth = await backend!.inspect(user.id);
          expect((await backend!.blobs()).keys).toEqual(truth.named);
        }
      }, 120_000);
    });
  });
}
