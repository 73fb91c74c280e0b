import { afterEach, describe, expect, it, vi } from 'vitest';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

const store = await import('./transfer-store.ts');

afterEach(() => {
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

    store.startUploads([{ file: new File(['x'], 'x.bin') }], null);
    await vi.waitFor(() => expect(only().status).toBe('error'));
    expect(only().error).toBe('Network error while uploading. Please try again.');
    store.retryTransfer(only().key, () => {});
    await vi.waitFor(() => expect(only().status).toBe('done'));
    expect(requests.map((r) => r.resumeUploadId)).toEqual([undefined, 'up-1']);

    // A cancelled one forgot its upload (the worker deleted it): Retry starts a new one.
    call.mockClear();
    call.mockImplementation(() => new Promise(() => {}));
    store.startUploads([{ file: new File(['y'], 'y.bin') }], null);
    const y = store.getState().rows[1]!;
    await vi.waitFor(() => expect(store.getState().rows[1]!.status).toBe('encrypting'));
    store.cancelTransfer(y.key);
    expect(store.getState().rows[1]!.status).toBe('cancelled');
    store.retryTransfer(y.key, () => {});
    await vi.waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    expect(call.mock.calls[1]![1]).not.toHaveProperty('resumeUploadId');
  });
});
