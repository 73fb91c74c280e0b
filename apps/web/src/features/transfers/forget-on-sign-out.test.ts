import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

const store = await import('./transfer-store.ts');
const { uploadInto } = await import('./upload-names.ts');
const { askDuplicate } = await import('./DuplicateNameDialog.tsx');
const { forgetTransfers } = await import('./forget-on-sign-out.ts');

afterEach(() => {
  store.resetTransfers();
  call.mockReset();
});

describe('signing out forgets the transfers', () => {
  it('running and failed rows go (no Retry of the last user file), and the running one is cancelled', async () => {
    call.mockImplementation(async (method: string, request: { file: File }) => {
      if (method !== 'uploadFile') return undefined;
      if (request.file.name === 'failed.txt') throw new Error('Network error while uploading. Please try again.');
      return new Promise(() => {});
    });
    store.startUploads([{ file: new File(['a'], 'failed.txt') }, { file: new File(['b'], 'running.txt') }], null, OWN_SCOPE);
    await vi.waitFor(() =>
      expect(
        store
          .getState()
          .rows.map((r) => r.status)
          .sort(),
      ).toEqual(['encrypting', 'error']),
    );

    forgetTransfers();
    expect(store.getState().rows).toEqual([]);
  });

  it('a pick still waiting on a duplicate question is dropped, and so are the questions behind it', async () => {
    call.mockImplementation(() => new Promise(() => {}));
    const existing = [{ id: 'old', name: 'dup.txt', isDirectory: false, editPermission: true }];
    const first = uploadInto(
      [new File(['1'], 'dup.txt'), new File(['2'], 'fresh.txt')],
      { parentId: null, scope: OWN_SCOPE },
      () => existing,
      askDuplicate,
    );
    const queued = askDuplicate({ name: 'other.txt', canReplace: true, isDirectory: false, remaining: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));

    forgetTransfers();
    await first;
    expect(await queued).toEqual({ choice: 'skip', all: true });
    expect(store.getState().rows).toEqual([]);
    expect(call).not.toHaveBeenCalled();
  });
});
