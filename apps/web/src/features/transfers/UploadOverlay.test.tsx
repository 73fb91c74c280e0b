import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));
vi.mock('./download.ts', () => ({ registerDownloadWorker: () => Promise.resolve() }));
vi.mock('../auth/index.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../auth/index.ts')>()),
  useProfile: () => ({ id: 'me' }),
}));

const { UploadOverlay } = await import('./UploadOverlay.tsx');
const store = await import('./upload-store.ts');

afterEach(() => {
  cleanup();
  store.resetUploads();
});

function choose(files: File[]) {
  const input = screen.getByLabelText('Choose files to upload') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
}

const uploadButton = () => screen.getByRole('button', { name: /^Upload/ }) as HTMLButtonElement;

describe('UploadOverlay', () => {
  it('a new pick puts away the last summary, and Upload is disabled while nothing is queued', async () => {
    let n = 0;
    call.mockImplementation(async (method: string, args: { file?: File }) => {
      if (method === 'pendingUploads') return [];
      if (method === 'uploadFile') return { id: `id-${++n}`, size: (args.file?.size ?? 0) + 16 };
      return undefined;
    });
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <UploadOverlay parentId={null} open onClose={() => {}} />
      </QueryClientProvider>,
    );

    // Nothing queued: Upload is disabled and says why.
    expect(uploadButton().disabled).toBe(true);
    expect(screen.getByText('No file selected.')).toBeTruthy();

    choose([new File(['a'], 'a.txt'), new File(['b'], 'b.txt'), new File(['c'], 'c.txt')]);
    expect(uploadButton().disabled).toBe(false);
    await act(async () => fireEvent.click(uploadButton()));
    await screen.findByText('All 3 files uploaded successfully!');
    expect(uploadButton().disabled).toBe(true);

    // A new file: the old summary goes, the new row is ready, Upload counts it.
    choose([new File(['d'], 'd.txt')]);
    await waitFor(() => expect(screen.getByText('Ready to upload')).toBeTruthy());
    expect(screen.queryByText('All 3 files uploaded successfully!')).toBeNull();
    expect(uploadButton().disabled).toBe(false);
    expect(uploadButton().textContent).toBe('Upload 1');

    // Removed again: the queue is empty, Upload is disabled.
    fireEvent.click(screen.getByRole('button', { name: 'Remove d.txt' }));
    expect(uploadButton().disabled).toBe(true);
  });
});
