import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BlockedAccountsSection, NO_BLOCKS_TEXT } from './BlockedAccountsSection.tsx';

const api = vi.hoisted(() => ({ listBlocks: vi.fn(), unblockAccount: vi.fn() }));
vi.mock('../sharing/blocks-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../sharing/blocks-api.ts')>()),
  ...api,
}));
// The section takes unblockAccount through the feature's index, which bun binds before the mock above.
vi.mock('../sharing/index.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../sharing/index.ts')>()),
  unblockAccount: api.unblockAccount,
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <BlockedAccountsSection />
    </QueryClientProvider>,
  );
}

describe('Blocked accounts on /profile', () => {
  it('lists the blocked accounts; Unblock lifts one and the list is read again', async () => {
    api.listBlocks.mockResolvedValueOnce([
      { userId: 'u-mallory', username: 'mallory', createdAt: 1 },
      { userId: 'u-gone', username: null, createdAt: 2 },
    ]);
    api.listBlocks.mockResolvedValueOnce([{ userId: 'u-gone', username: null, createdAt: 2 }]);
    api.unblockAccount.mockResolvedValueOnce(undefined);
    show();
    expect(await screen.findByText('mallory')).toBeTruthy();
    expect(screen.getByText('Unknown account')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unblock mallory' }));
    await waitFor(() => expect(screen.queryByText('mallory')).toBeNull());
    expect(api.unblockAccount.mock.calls[0]?.[0]).toBe('u-mallory');
    expect(api.listBlocks).toHaveBeenCalledTimes(2);
  });

  it('says when nobody is blocked', async () => {
    api.listBlocks.mockResolvedValueOnce([]);
    show();
    expect(await screen.findByText(NO_BLOCKS_TEXT)).toBeTruthy();
  });
});
