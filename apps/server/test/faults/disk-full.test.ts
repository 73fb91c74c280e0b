import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { PART_BYTES } from '@sealbox/crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORAGE_FULL_MESSAGE } from '../../src/domain/files/storage.ts';
import { createDiskBlobStore } from '../../src/infra/blobs/disk-blob-store.ts';
import { openSqliteDb } from '../../src/infra/db/sqlite/open-sqlite-db.ts';
import { silentLogger } from '../../src/infra/log/json-logger.ts';
import type { BlobBody, BlobStore } from '../../src/ports/blob-store.ts';
import {
  download,
  openFilesHarness,
  patternFile,
  postUpload,
  sendPart,
  signedInUser,
  snapshot,
  space,
  storedBytes,
  uploadFile,
  type FilesHarness,
  type User,
} from '../files/harness.ts';

/**
 * The disk under the blob store fills up during an upload. No unprivileged tmpfs here, so the
 * real disk store is wrapped: it has `free` bytes left, every write takes from them and every
 * delete gives back; a write past them fails as the kernel's would (ENOSPC, part-way through,
 * after some bytes reached the temp file). The upload must get a clear answer, 507 STORAGE_FULL,
 * nothing else may change, and quotas stay exact.
 */
interface FullDisk {
  free: number;
  blobs: BlobStore;
}

function diskThatFills(inner: BlobStore, free: number): FullDisk {
  const disk: FullDisk = {
    free,
    blobs: {
      ...inner,
      list: (prefix) => inner.list(prefix),
      async put(key, body: BlobBody) {
        const source = body instanceof Uint8Array ? new Blob([body as Uint8Array<ArrayBuffer>]).stream() : body;
        const filling = source.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              if (chunk.byteLength > disk.free) {
                // What fits is written first, as a real short write would.
                controller.enqueue(chunk.subarray(0, disk.free));
                disk.free = 0;
                controller.error(
                  Object.assign(new Error('ENOSPC: no space left on device, write'), {
                    code: 'ENOSPC',
                    errno: -28,
                    syscall: 'write',
                  }),
                );
                return;
              }
              disk.free -= chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        );
        return inner.put(key, filling);
      },
      async delete(key) {
        const size = await inner.size(key).catch(() => 0);
        await inner.delete(key);
        disk.free += size;
      },
    },
  };
  return disk;
}

let h: FilesHarness;
let disk: FullDisk;
let blobRoot: string;

beforeAll(async () => {
  h = await openFilesHarness(async (events) => {
    const dir = await mkdtemp(join(tmpdir(), 'sealbox-full-'));
    blobRoot = join(dir, 'blobs');
    const db = await openSqliteDb({ path: join(dir, 'sealbox.db'), events, logger: silentLogger });
    disk = diskThatFills(createDiskBlobStore(blobRoot), Number.MAX_SAFE_INTEGER);
    return {
      db,
      blobs: disk.blobs,
      async cleanup() {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  });
});

afterAll(async () => {
  await h?.cleanup();
});

async function expectExact(user: User) {
  const { used, reserved } = await space(h, user.id);
  expect(used).toBe(await storedBytes(h, user.id));
  const rows = await h.db.kysely
    .selectFrom('uploads')
    .innerJoin('items', 'items.id', 'uploads.item_id')
    .select('uploads.reserved_remaining')
    .where('items.owner_id', '=', user.id)
    .execute();
  expect(reserved).toBe(rows.reduce((sum, r) => sum + Number(r.reserved_remaining), 0));
}

describe('disk full during an upload (ENOSPC from the blob store)', () => {
  test('the upload is told 507 STORAGE_FULL, nothing else changes, quota exact, and it resumes once there is room', async () => {
    const bystander = await signedInUser(h);
    const kept = await patternFile(bystander.rootKey, null, 50_000, 1);
    await uploadFile(bystander, kept);

    const uploader = await signedInUser(h);
    const big = await patternFile(uploader.rootKey, null, 2 * PART_BYTES + 777, 2);
    const created = await postUpload(uploader.browser, big.meta);
    expect(created.status).toBe(201);
    const { uploadId } = created.body;
    expect((await sendPart(uploader.browser, uploadId, big, 0)).status).toBe(204);

    // Room for half a part: part 1 fails part-way through its write.
    disk.free = PART_BYTES / 2;
    const before = await snapshot(h);
    const refused = await sendPart(uploader.browser, uploadId, big, 1);
    expect(refused.status).toBe(507);
    expect(refused.body).toEqual({ error: 'STORAGE_FULL', message: STORAGE_FULL_MESSAGE });
    // A whole small file in one request is refused the same way, and never appears.
    const small = await patternFile(uploader.rootKey, null, 100_000, 3);
    const refusedWhole = await postUpload(uploader.browser, small.meta, small.cipher);
    expect(refusedWhole.status).toBe(507);
    expect(refusedWhole.body.error).toBe('STORAGE_FULL');

    // Nothing changed: rows, quotas and blobs as before; no unfinished write left behind.
    expect(await snapshot(h)).toEqual(before);
    expect(await readdir(join(blobRoot, '.tmp')).catch(() => [])).toEqual([]);
    await expectExact(uploader);
    await expectExact(bystander);
    expect((await uploader.browser.get(`/api/upload/${uploadId}`)).body.received).toEqual([0]);
    expect((await uploader.browser.get('/api/file')).body.files.map((f: { id: string }) => f.id)).toEqual([]);

    // Everyone else carries on: reads never needed space.
    const read = await download(bystander.browser, kept.id);
    expect(read.status).toBe(200);
    expect(read.bytes).toEqual(kept.cipher);
    const ranged = await download(bystander.browser, kept.id, 'bytes=100-199');
    expect(ranged.status).toBe(206);
    expect(ranged.bytes).toEqual(kept.cipher.subarray(100, 200));
    expect((await bystander.browser.get('/api/file')).body.files.map((f: { id: string }) => f.id)).toEqual([kept.id]);
    // Deleting frees room (and works on a full disk).
    expect((await bystander.browser.delete(`/api/file/${kept.id}`)).status).toBe(204);
    await expectExact(bystander);
    expect((await space(h, bystander.id)).used).toBe(0);

    // Room again: the client's retry of the same part finishes the upload.
    disk.free = Number.MAX_SAFE_INTEGER;
    expect((await sendPart(uploader.browser, uploadId, big, 1)).status).toBe(204);
    expect((await sendPart(uploader.browser, uploadId, big, 2)).status).toBe(204);
    expect((await uploader.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(200);
    const got = await download(uploader.browser, big.id);
    expect(got.bytes).toEqual(big.cipher);
    await expectExact(uploader);
    expect((await space(h, uploader.id)).used).toBe(big.cipher.byteLength);
  }, 30_000);
});
