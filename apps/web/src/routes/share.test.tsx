import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { RpcError } from '../lib/worker-rpc.ts';
import { renderApp } from '../test/render-app.tsx';

const call = vi.hoisted(() => vi.fn());
const start = vi.hoisted(() => vi.fn());
vi.mock('../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../crypto/client.ts')>()),
  cryptoWorker: { call, start },
}));

const link = vi.hoisted(() => ({ fetchLink: vi.fn(), unlockLink: vi.fn() }));
vi.mock('../features/sharing/link-access/link-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/sharing/link-access/link-api.ts')>()),
  ...link,
}));

const INFO = { linkId: 'x', itemId: 'i1', isDirectory: true, editPermission: false, expiresAt: null, sharedBy: 'alice' };

afterEach(() => {
  cleanup();
  call.mockReset();
  start.mockReset();
  link.fetchLink.mockReset();
  link.unlockLink.mockReset();
});

describe('/share', () => {
  it('shows the invalid-link message when the worker refuses the fragment', async () => {
    call.mockRejectedValueOnce(new RpcError('the link key must be 32 bytes, not 31', 'BAD_LINK_KEY', 'CryptoError'));
    renderApp('/share?linkId=x#short');
    expect(await screen.findByText('This link is invalid or incomplete.')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('openLinkKey', 'short');
    // Not shaped like a key: nothing was asked of the server, and the worker was not started early.
    expect(link.fetchLink).not.toHaveBeenCalled();
    expect(start).not.toHaveBeenCalled();
  });

  it('shows the invalid-link message without asking the worker when there is no fragment', async () => {
    renderApp('/share?linkId=x');
    expect(await screen.findByText('This link is invalid or incomplete.')).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
  });

  it('says so without a link id', async () => {
    renderApp('/share');
    expect(await screen.findByText('Error retrieving files. No link id provided.')).toBeTruthy();
  });

  it('opens the link when the key is accepted, handing the key to the worker as the linked item', async () => {
    call.mockResolvedValue({ handle: 'h1' });
    link.fetchLink.mockResolvedValue({ status: 'open', info: INFO });
    renderApp('/share?linkId=x#good');
    expect(await screen.findByRole('heading', { name: /^alice shared “/ })).toBeTruthy();
    expect(call).toHaveBeenCalledWith('useLinkKey', 'h1', 'x', 'i1');
    // Its terms, and one way to sign in (the navbar's): an anonymous visitor gets no sidebar.
    expect(screen.getByRole('list', { name: 'About this link' }).textContent).toBe('View onlyNever expires');
    expect(screen.getAllByRole('link', { name: /^sign in$/i }).map((a) => a.textContent)).toEqual(['Sign in']);
    expect(screen.queryByRole('button', { name: /New Folder/ })).toBeNull();
  });

  it("asks for the link's info and starts the worker while the key is still being opened", async () => {
    call.mockReturnValue(new Promise(() => {}));
    link.fetchLink.mockResolvedValue({ status: 'open', info: INFO });
    renderApp(`/share?linkId=x#${'k'.repeat(43)}`);
    await waitFor(() => expect(link.fetchLink).toHaveBeenCalledWith('x'));
    expect(start).toHaveBeenCalled();
    // The key is not in yet, so nothing of the link is open.
    expect(screen.queryByRole('heading', { name: /^alice shared “/ })).toBeNull();
  });

  it('asks for the password of a password link: submit disabled while blank, Invalid password! on a wrong one', async () => {
    call.mockResolvedValue({ handle: 'h1' });
    link.fetchLink.mockResolvedValue({ status: 'password' });
    link.unlockLink.mockResolvedValueOnce(undefined).mockResolvedValueOnce(INFO);
    renderApp('/share?linkId=x#good');
    const field = await screen.findByLabelText('This link requires a password to access:');
    const submit = screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(field, { target: { value: '   ' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'wrong' } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    expect(await screen.findByText('Invalid password!')).toBeTruthy();
    expect(link.unlockLink).toHaveBeenCalledWith('x', 'wrong');
    fireEvent.change(field, { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: /^alice shared “/ })).toBeTruthy();
  });
});
