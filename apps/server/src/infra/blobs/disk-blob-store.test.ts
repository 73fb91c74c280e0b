import { describe, expect, test } from 'bun:test';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobStoreContract, failingStream, patternBytes } from '../../../test/contracts/blob-store.contract.ts';
import { waitFor } from '../../../test/support/services.ts';
import { createDiskBlobStore } from './disk-blob-store.ts';

async function tempRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'sealbox-blobs-'));
}

blobStoreContract('disk', async () => {
  const root = await tempRoot();
  return { store: createDiskBlobStore(root), cleanup: () => rm(root, { recursive: true, force: true }) };
});

describe('disk blob store crash safety', () => {
  test('a put whose stream errors leaves nothing under the real name and no temp file', async () => {
    const root = await tempRoot();
    try {
      const store = createDiskBlobStore(root);
      const key = 'crashing-put-1';
      await expect(store.put(key, failingStream(patternBytes(200_000)))).rejects.toThrow();
      expect(await store.exists(key)).toBe(false);
      expect(await readdir(join(root, '.tmp'))).toEqual([]);
      expect(await store.sweepTemp()).toBe(0);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test('kill -9 mid-write leaves no blob under the real name; sweepTemp removes the temp', async () => {
    const root = await tempRoot();
    const key = 'killed-mid-write';
    const script = join(import.meta.dir, '../../../test/fixtures/slow-disk-put.ts');
    const child = Bun.spawn([process.execPath, script, root, key], { stdout: 'ignore', stderr: 'inherit' });
    try {
      const tempDir = join(root, '.tmp');
      const tempBytes = async () => {
        const first = (await readdir(tempDir).catch(() => [] as string[]))[0];
        return first ? (await stat(join(tempDir, first))).size : 0;
      };
      await waitFor(async () => (await tempBytes()) > 256 * 1024, 10_000, 'the child to write part of the blob');
      child.kill('SIGKILL');
      expect(await child.exited).not.toBe(0);
      expect(child.signalCode).toBe('SIGKILL');

      const store = createDiskBlobStore(root);
      expect(await store.exists(key)).toBe(false);
      expect((await readdir(tempDir)).length).toBe(1);
      expect(await store.sweepTemp()).toBe(1);
      expect(await readdir(tempDir)).toEqual([]);
      expect(await store.exists(key)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    }
  }, 20_000);
});
