import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE, linkScope } from '../../model/browse-scope.ts';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

const { Previewer } = await import('./Previewer.tsx');
const { RpcError } = await import('../../crypto/client.ts');

afterEach(cleanup);

const local = (name: string, text = 'hello', type = 'text/plain') => ({
  kind: 'local' as const,
  file: new File([text], name, { type }),
});

function item(partial: Record<string, unknown> = {}) {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'notes.txt',
    mimeType: 'text/plain',
    extension: 'txt',
    size: 5,
    isDirectory: false,
    decrypted: true,
    ...partial,
  };
}

describe('Previewer', () => {
  it('titles the file, shows a local text, and a download link once it is read', async () => {
    render(<Previewer source={local('hello.txt')} onClose={() => undefined} />);
    expect(screen.getByRole('heading', { name: 'hello.txt' })).toBeTruthy();
    expect(await screen.findByText('hello')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Download' });
    expect(link.getAttribute('download')).toBe('hello.txt');
    expect(call).not.toHaveBeenCalled();
  });

  it('says docs/product.md "Screens" texts for an unsupported type, with or without an extension', () => {
    const { unmount } = render(<Previewer source={local('bundle.zip', 'x', 'application/zip')} onClose={() => undefined} />);
    expect(screen.getByText('Unsupported File Type')).toBeTruthy();
    expect(screen.getByText('Preview is not available for .zip files')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    unmount();
    render(<Previewer source={local('README', 'x', '')} onClose={() => undefined} />);
    expect(screen.getByText('Preview is not available for this file')).toBeTruthy();
  });

  it("titles an item whose name did not decrypt 'Encrypted File' and says its key is missing", () => {
    render(
      <Previewer
        source={{ kind: 'item', item: item({ name: null, decrypted: false }), scope: OWN_SCOPE }}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Encrypted File' })).toBeTruthy();
    expect(screen.getByText('File encryption key not found')).toBeTruthy();
  });

  it('maps the worker errors to docs/product.md "Messages" texts and passes the browse scope', async () => {
    call.mockRejectedValueOnce(new RpcError('Decryption failed', 'DECRYPT_FAILED'));
    const { unmount } = render(
      <Previewer source={{ kind: 'item', item: item(), scope: linkScope('L1') }} onClose={() => undefined} />,
    );
    expect(await screen.findByText('Error decrypting file.')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('decryptItemHead', linkScope('L1'), item().id, 1024 * 1024, 'text/plain');
    unmount();
    call.mockRejectedValueOnce(new RpcError('File nonce not found', 'NO_NONCE'));
    render(<Previewer source={{ kind: 'item', item: item(), scope: OWN_SCOPE }} onClose={() => undefined} />);
    expect(await screen.findByText('File nonce not found')).toBeTruthy();
  });

  it('cycles by buttons and arrows only with an index, more than one item, outside search and a handler', () => {
    const onCycle = vi.fn();
    const source = local('bundle.zip', 'x', 'application/zip');
    const { rerender } = render(<Previewer source={source} onClose={() => undefined} index={1} count={3} onCycle={onCycle} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next file' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous file' }));
    const dialog = document.querySelector('dialog')!;
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    expect(onCycle.mock.calls).toEqual([[1], [-1], [1], [-1]]);

    for (const props of [{ index: undefined }, { count: 1 }, { fromSearch: true }, { onCycle: undefined }]) {
      rerender(<Previewer source={source} onClose={() => undefined} index={1} count={3} onCycle={onCycle} {...props} />);
      expect(screen.queryByRole('button', { name: 'Next file' })).toBeNull();
    }
  });

  it('leaves the arrows to a video, to fields, and to a view that claimed them', () => {
    const onCycle = vi.fn();
    const video = render(
      <Previewer source={local('clip.mp4', 'x', 'video/mp4')} onClose={() => undefined} index={0} count={2} onCycle={onCycle} />,
    );
    fireEvent.keyDown(document.querySelector('dialog')!, { key: 'ArrowRight' });
    video.unmount();

    render(<Previewer source={local('a.zip', 'x', '')} onClose={() => undefined} index={0} count={2} onCycle={onCycle} />);
    const dialog = document.querySelector('dialog')!;
    const input = document.createElement('input');
    dialog.append(input);
    fireEvent.keyDown(input, { key: 'ArrowRight' });
    const claimed = new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true });
    claimed.preventDefault();
    act(() => {
      dialog.dispatchEvent(claimed);
    });
    expect(onCycle).not.toHaveBeenCalled();
  });

  it('closes on Escape (the dialog cancel) and revokes its URLs when it goes', async () => {
    const onClose = vi.fn();
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const { unmount } = render(<Previewer source={local('dot.png', 'x', 'image/png')} onClose={onClose} />);
    fireEvent(document.querySelector('dialog')!, new Event('cancel', { cancelable: true }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await screen.findByRole('img', { name: 'dot.png' });
    const url = screen.getByRole('img', { name: 'dot.png' }).getAttribute('src');
    unmount();
    expect(revoke).toHaveBeenCalledWith(url);
  });
});
