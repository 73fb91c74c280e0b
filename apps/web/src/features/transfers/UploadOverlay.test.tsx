import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));
vi.mock('./download.ts', () => ({ registerDownloadWorker: () => Promise.resolve(), retryDownload: () => {} }));
vi.mock('../auth/index.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../auth/index.ts')>()),
  useProfile: () => ({ id: 'me' }),
}));

const { UploadOverlay } = await import('./UploadOverlay.tsx');
const { TransfersHost } = await import('./TransfersPanel.tsx');
const store = await import('./transfer-store.ts');

afterEach(() => {
  cleanup();
  store.resetTransfers();
});

function choose(files: File[]) {
  const input = screen.getByLabelText('Choose files to upload') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
}

describe('UploadOverlay and the transfers panel', () => {
  it('picked files start at once, the dialog closes, and the panel sums up; a new pick puts the summary away', async () => {
    let n = 0;
    // Uploads finish only when told to, so the summary can be seen to wait for the last one.
    const finish: Array<() => void> = [];
    call.mockImplementation((method: string, args: { file?: File }) => {
      if (method === 'pendingUploads') return Promise.resolve([]);
      if (method === 'uploadFile')
        return new Promise((resolve) => finish.push(() => resolve({ id: `id-${++n}`, size: (args.file?.size ?? 0) + 16 })));
      return Promise.resolve(undefined);
    });
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <UploadOverlay parentId={null} scope={OWN_SCOPE} open onClose={onClose} />
        <TransfersHost />
      </QueryClientProvider>,
    );
    // docs/product.md "Input rules": nothing picked yet, and it says so.
    expect(screen.getByText('No file selected.')).toBeTruthy();

    await act(async () => choose([new File(['a'], 'a.txt'), new File(['b'], 'b.txt'), new File(['c'], 'c.txt')]));
    expect(onClose).toHaveBeenCalled();
    const panel = screen.getByRole('region', { name: 'Transfers' });
    await waitFor(() => expect(within(panel).getAllByRole('listitem')).toHaveLength(3));
    expect(within(panel).getByRole('status').textContent).toBe('Uploading 3 files');
    for (let done = 0; done < 3; done++) {
      // No summary while one is still going (issue 14 bug 3).
      expect(within(panel).queryByText(/uploaded successfully/)).toBeNull();
      await waitFor(() => expect(finish.length).toBeGreaterThan(0));
      await act(async () => finish.shift()?.());
    }
    await within(panel).findByText('All 3 files uploaded successfully!');

    // A new file: the old summary goes while it runs.
    await act(async () => choose([new File(['d'], 'd.txt')]));
    await waitFor(() => expect(within(panel).getByRole('status').textContent).toBe('Uploading 1 file'));
    expect(within(panel).queryByText('All 3 files uploaded successfully!')).toBeNull();
    await waitFor(() => expect(finish.length).toBe(1));
    await act(async () => finish.shift()?.());
    await within(panel).findByText('All 4 files uploaded successfully!');
  });
});
