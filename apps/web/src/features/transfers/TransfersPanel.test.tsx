import { act, cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';

// Uploads never end by themselves: the test sets each row's state.
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call: () => new Promise(() => {}) },
}));
vi.mock('./download.ts', () => ({ registerDownloadWorker: () => Promise.resolve(), retryDownload: () => {} }));

const { FOLD_AFTER_MS, TransfersHost, idleTitle } = await import('./TransfersPanel.tsx');
const store = await import('./transfer-store.ts');

afterEach(() => {
  cleanup();
  store.resetTransfers();
  vi.useRealTimers();
});

describe("the panel's title once nothing runs (no upload summary)", () => {
  it('says cancelled when every row was cancelled, failed when one failed, else finished', () => {
    expect(idleTitle([{ status: 'cancelled' }])).toBe('Transfers cancelled');
    expect(idleTitle([{ status: 'cancelled' }, { status: 'cancelled' }])).toBe('Transfers cancelled');
    expect(idleTitle([{ status: 'done' }, { status: 'error' }])).toBe('Some transfers failed');
    expect(idleTitle([{ status: 'cancelled' }, { status: 'error' }])).toBe('Some transfers failed');
    expect(idleTitle([{ status: 'done' }, { status: 'cancelled' }])).toBe('Transfers finished');
    expect(idleTitle([{ status: 'done' }])).toBe('Transfers finished');
  });
});

/** The panel with one upload of `name`, and that row's key. */
function panelWithUpload(name: string) {
  vi.useFakeTimers();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <TransfersHost />
    </QueryClientProvider>,
  );
  act(() => store.startUploads([{ file: new File(['x'], name) }], null, OWN_SCOPE));
  const key = store.getState().rows[0]!.key;
  return { key, panel: screen.getByRole('region', { name: 'Transfers' }) };
}

const listShown = (panel: HTMLElement) => !within(panel).getByRole('list', { hidden: true }).hidden;

describe('the panel folds by itself only after success (docs/web-files.md "Feedback")', () => {
  it('folds FOLD_AFTER_MS after everything succeeded, and opens for the next transfer', () => {
    const { key, panel } = panelWithUpload('a.txt');
    act(() => store.updateRow(key, { status: 'done', fraction: 1 }));
    expect(within(panel).getByRole('status').textContent).toBe('1 file uploaded successfully!');
    act(() => vi.advanceTimersByTime(FOLD_AFTER_MS - 100));
    expect(listShown(panel)).toBe(true);
    act(() => vi.advanceTimersByTime(200));
    expect(listShown(panel)).toBe(false);
    act(() => store.startUploads([{ file: new File(['y'], 'b.txt') }], null, OWN_SCOPE));
    expect(listShown(panel)).toBe(true);
  });

  it('stays open after a failure, and an over-quota row offers no Retry', () => {
    const { key, panel } = panelWithUpload('big.bin');
    act(() => store.updateRow(key, { status: 'error', error: 'Not enough storage space: …', noRetry: true }));
    act(() => vi.advanceTimersByTime(FOLD_AFTER_MS * 2));
    expect(listShown(panel)).toBe(true);
    expect(within(panel).queryByRole('button', { name: 'Retry big.bin' })).toBeNull();
    act(() => store.updateRow(key, { noRetry: false }));
    expect(within(panel).getByRole('button', { name: 'Retry big.bin' })).toBeTruthy();
  });
});
