import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

const store = await import('./transfer-store.ts');
const { uploadInto } = await import('./upload-names.ts');

/** An upload that runs until it is cancelled (so no test leaves the queue busy for the next). */
const hang = (_method: string, _request: unknown, port: MessagePort) =>
  new Promise((_resolve, reject) => {
    port.onmessage = (event) => {
      if ((event.data as { type?: string }).type === 'cancel') reject(new Error('cancelled'));
    };
  });

afterEach(async () => {
  for (const row of store.getState().rows) store.cancelTransfer(row.key);
  await settled();
  store.resetTransfers();
  call.mockReset();
});

// Long enough for a MessagePort message to arrive.
const settled = () => new Promise((resolve) => setTimeout(resolve, 30));
const only = () => store.getState().rows[0]!;

describe('transfer store', () => {
  it('a retry after a failure part-way continues that upload; after a cancel it starts afresh', async () => {
    const requests: Array<{ resumeUploadId?: string }> = [];
    let attempt = 0;
    call.mockImplementation(async (method: string, request: { resumeUploadId?: string }, port: MessagePort) => {
      if (method !== 'uploadFile') return undefined;
      requests.push(request);
      attempt++;
      if (attempt === 1) {
        // The server has the upload (its id is known), then the network fails.
        port.postMessage({ type: 'started', uploadId: 'up-1', id: 'item-1' });
        await settled();
        throw new Error('Network error while uploading. Please try again.');
      }
      return { id: 'item-1', size: 20, resumed: true, partsSent: 1 };
    });

    store.startUploads([{ file: new File(['x'], 'x.bin') }], null, OWN_SCOPE);
    await vi.waitFor(() => expect(only().status).toBe('error'));
    expect(only().error).toBe('Network error while uploading. Please try again.');
    store.retryTransfer(only().key, () => {});
    await vi.waitFor(() => expect(only().status).toBe('done'));
    expect(requests.map((r) => r.resumeUploadId)).toEqual([undefined, 'up-1']);

    // A cancelled one forgot its upload (the worker deleted it): Retry starts a new one.
    call.mockClear();
    call.mockImplementation(hang);
    store.startUploads([{ file: new File(['y'], 'y.bin') }], null, OWN_SCOPE);
    const y = store.getState().rows[1]!;
    await vi.waitFor(() => expect(store.getState().rows[1]!.status).toBe('encrypting'));
    store.cancelTransfer(y.key);
    expect(store.getState().rows[1]!.status).toBe('cancelled');
    store.retryTransfer(y.key, () => {});
    await vi.waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    expect(call.mock.calls[1]![1]).not.toHaveProperty('resumeUploadId');
  });

  it('a second drop while the first one asks about a name sees the names the first one takes', async () => {
    call.mockImplementation(hang);
    const asked: string[] = [];
    let answerFirst: (() => void) | undefined;
    const ask = async (q: { name: string }) => {
      asked.push(q.name);
      if (q.name === 'x.txt') await new Promise<void>((resolve) => (answerFirst = resolve));
      return { choice: 'keep' as const, all: false };
    };
    const existing = () => [{ id: 'old-x', name: 'x.txt', isDirectory: false, editPermission: true }];
    const target = { parentId: 'folder', scope: OWN_SCOPE };
    // Drop 1: x.txt clashes (its question stays open), y.txt is free.
    const first = uploadInto([new File(['1'], 'x.txt'), new File(['2'], 'y.txt')], target, existing, ask);
    await vi.waitFor(() => expect(asked).toEqual(['x.txt']));
    // Drop 2 comes meanwhile with y.txt.
    const second = uploadInto([new File(['3'], 'y.txt')], target, existing, ask);
    await settled();
    answerFirst?.();
    await Promise.all([first, second]);
    expect(asked).toEqual(['x.txt', 'y.txt']);
    expect(store.getState().rows.map((r) => r.name)).toEqual(['x (1).txt', 'y.txt', 'y (1).txt']);
  });

  it('Retry of a cancelled upload takes a free name when another upload took its name meanwhile', async () => {
    call.mockImplementation(hang);
    store.startUploads([{ file: new File(['a'], 'a.txt') }], 'folder', OWN_SCOPE);
    store.cancelTransfer(only().key);
    store.startUploads([{ file: new File(['b'], 'A.txt') }], 'folder', OWN_SCOPE);
    store.retryTransfer(only().key, () => {});
    expect(only()).toMatchObject({ name: 'a (1).txt', status: 'queued' });
  });

  it('Replace asks the worker for a new version of the old file, and a retry still does', async () => {
    const requests: Array<{ versionOf?: string; name?: string }> = [];
    call.mockImplementation(async (method: string, request: { versionOf?: string; name?: string }) => {
      if (method !== 'uploadFile') return undefined;
      requests.push(request);
      if (requests.length === 1) throw new Error('Network error while uploading. Please try again.');
      return { id: 'old-a', size: 19, resumed: false, partsSent: 1 };
    });
    store.startUploads([{ file: new File(['new'], 'picked.txt'), name: 'a.txt', versionOf: 'old-a' }], 'folder', OWN_SCOPE);
    await vi.waitFor(() => expect(only().status).toBe('error'));
    store.retryTransfer(only().key, () => {});
    await vi.waitFor(() => expect(only().status).toBe('done'));
    expect(requests.map((r) => [r.versionOf, r.name])).toEqual([
      ['old-a', 'a.txt'],
      ['old-a', 'a.txt'],
    ]);
    // Nothing is deleted: the old content stays as an earlier version on the server.
    expect(call.mock.calls.map((c) => c[0])).toEqual(['uploadFile', 'uploadFile']);
  });

  it('a cancelled new version, retried, stays a version of its file under its name', async () => {
    call.mockImplementation(hang);
    store.uploadNewVersion(new File(['v2'], 'other.txt'), { id: 'old-a', name: 'a.txt', parentId: 'folder' }, OWN_SCOPE);
    store.cancelTransfer(only().key);
    store.startUploads([{ file: new File(['b'], 'a.txt') }], 'folder', OWN_SCOPE);
    store.retryTransfer(store.getState().rows[0]!.key, () => {});
    expect(only()).toMatchObject({ name: 'a.txt', versionOf: 'old-a', status: 'queued' });
  });
});
