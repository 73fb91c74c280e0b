import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { RpcError } from '../lib/worker-rpc.ts';
import { renderApp } from '../test/render-app.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

afterEach(cleanup);

describe('/share', () => {
  it('shows the invalid-link message when the worker refuses the fragment', async () => {
    call.mockRejectedValueOnce(new RpcError('the link key must be 32 bytes, not 31', 'BAD_LINK_KEY', 'CryptoError'));
    renderApp('/share?linkId=x#short');
    expect(await screen.findByText('This link is invalid or incomplete.')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('openLinkKey', 'short');
  });

  it('shows the invalid-link message without asking the worker when there is no fragment', async () => {
    renderApp('/share?linkId=x');
    expect(await screen.findByText('This link is invalid or incomplete.')).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
  });

  it('opens the link when the key is accepted', async () => {
    call.mockResolvedValue({ handle: 'h1' });
    renderApp('/share?linkId=x#good');
    expect(await screen.findByRole('heading', { name: 'Shared files' })).toBeTruthy();
  });
});
