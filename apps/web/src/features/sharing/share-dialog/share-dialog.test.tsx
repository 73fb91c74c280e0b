import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { HttpStatusError } from '../../../lib/http-status-error.ts';
import type { ItemView } from '../../../model/items.ts';
import { ME, itemView } from '../../../test/item-view.ts';
import { EXPIRED_LINKS_NOTE, expirySeconds, expiryText, linkUrl, searchResults, searchTerm } from './share-logic.ts';

const { overriding } = await vi.hoisted(() => import('../../../test/mock-module.ts'));
const call = vi.hoisted(() => vi.fn());
vi.mock('../../../crypto/client.ts', overriding({ cryptoWorker: { call } }));

const apiMock = vi.hoisted(() => ({
  searchUsers: vi.fn(),
  fetchAccess: vi.fn(),
  fetchLinks: vi.fn(),
  changeLink: vi.fn(),
  revokeLink: vi.fn(),
}));
vi.mock('./share-api.ts', overriding(apiMock));

const toast = vi.hoisted(() => vi.fn());
vi.mock('@sealbox/ui', overriding({ toast }));

const { ShareDialog } = await import('./ShareDialog.tsx');
const { copyLink } = await import('./copy-link.ts');
const { RpcError } = await import('../../../crypto/client.ts');

const BOB = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  username: 'bobby',
  publicKey: 'pk',
  signingPublicKey: 'spk',
  avatarExtension: null,
};
const ITEM = itemView({ name: 'Holiday', mimeType: null, extension: '', isDirectory: true, size: 0, cipherSize: 0 });

function renderDialog(item: ItemView = ITEM) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ShareDialog open item={item} myUserId={ME} onClose={() => undefined} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  call.mockReset();
  toast.mockReset();
  apiMock.searchUsers.mockReset();
  apiMock.fetchAccess.mockReset();
  apiMock.fetchLinks.mockReset();
  apiMock.changeLink.mockReset();
  apiMock.revokeLink.mockReset();
});

describe('share rules', () => {
  it('searches only from 3 characters, trimmed', () => {
    expect(searchTerm('bo')).toBeUndefined();
    expect(searchTerm('  bo  ')).toBeUndefined();
    expect(searchTerm('bob')).toBe('bob');
    expect(searchTerm(' bob ')).toBe('bob');
  });
  it('drops the signed-in user and keeps at most 10 results', () => {
    const users = Array.from({ length: 12 }, (_, i) => ({ id: i === 0 ? ME : `u${i}` }));
    const shown = searchResults(users, ME);
    expect(shown).toHaveLength(10);
    expect(shown.some((u) => u.id === ME)).toBe(false);
  });
  it('turns the expiry into seconds: never = 0, hours, days, weeks; amounts below 1 are refused', () => {
    expect(expirySeconds(5, 'never')).toBe(0);
    expect(expirySeconds(0, 'never')).toBe(0);
    expect(expirySeconds(1, 'hours')).toBe(3600);
    expect(expirySeconds(2, 'days')).toBe(172_800);
    expect(expirySeconds(3, 'weeks')).toBe(1_814_400);
    expect(expirySeconds(0, 'days')).toBeUndefined();
    expect(expirySeconds(1.5, 'days')).toBeUndefined();
    expect(expirySeconds(Number.NaN, 'hours')).toBeUndefined();
    expect(expirySeconds(6000, 'weeks')).toBeUndefined();
  });
  it('builds the link URL with the key only in the fragment', () => {
    expect(linkUrl('https://sealbox.example', 'AbC-_123', 'KEY_frag')).toBe(
      'https://sealbox.example/share?linkId=AbC-_123#KEY_frag',
    );
  });
  it("shows 'Never expires' for a link without expiry", () => {
    expect(expiryText(null)).toBe('Never expires');
    expect(expiryText(Date.UTC(2030, 0, 2, 3, 4), 'en-GB')).toMatch(/^Expires .*2030/);
  });
});

describe('ShareDialog', () => {
  it('sends no search below 3 characters, then searches and shows the user with their fingerprint', async () => {
    apiMock.fetchAccess.mockResolvedValue({ access: [], users: [] });
    apiMock.searchUsers.mockResolvedValue([BOB, { ...BOB, id: ME, username: 'me' }]);
    call.mockResolvedValue({ fingerprint: '0123 4567', pinned: null, status: 'first-use' });
    renderDialog();
    expect(await screen.findByRole('tab', { name: 'Users' })).toBeTruthy();
    const field = screen.getByLabelText('Add people');
    fireEvent.change(field, { target: { value: 'bo' } });
    expect(await screen.findByText('Type at least 3 characters to search.')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(apiMock.searchUsers).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: 'bob' } });
    expect(await screen.findByText('bobby')).toBeTruthy();
    expect(apiMock.searchUsers).toHaveBeenCalledWith('bob');
    expect(screen.queryByText('me')).toBeNull();
    // The hex waits for Verify, which says what to compare it with.
    await screen.findByText('New: pinned when you share');
    expect(document.querySelector('code.share-fp')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: "Verify bobby's keys" }));
    expect(
      screen.getByText('Compare it with the Key fingerprint bobby sees in their Profile, read out in person or on a call.'),
    ).toBeTruthy();
    // The grouped hex, laid out in columns, reads as one string.
    expect(await screen.findByText((_, node) => node?.tagName === 'CODE' && node.textContent === '0123 4567')).toBeTruthy();
    expect(screen.getByText('Viewers can open and download everything in it.')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('pinStatus', { id: BOB.id, publicKey: 'pk', signingPublicKey: 'spk' });
    expect(screen.getByRole('button', { name: 'Add bobby as viewer' })).toBeTruthy();
  });

  it('keeps the results, and a Verify left open, while a changed term is searched', async () => {
    apiMock.fetchAccess.mockResolvedValue({ access: [], users: [] });
    let answer: (users: unknown[]) => void = () => undefined;
    apiMock.searchUsers.mockResolvedValueOnce([BOB]).mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    call.mockResolvedValue({ fingerprint: '0123 4567', pinned: null, status: 'first-use' });
    renderDialog();
    const field = await screen.findByLabelText('Add people');
    fireEvent.change(field, { target: { value: 'bobb' } });
    await screen.findByText('New: pinned when you share');
    fireEvent.click(screen.getByRole('button', { name: "Verify bobby's keys" }));
    await screen.findByText((_, node) => node?.tagName === 'CODE' && node.textContent === '0123 4567');

    fireEvent.change(field, { target: { value: 'bob' } });
    await vi.waitFor(() => expect(apiMock.searchUsers).toHaveBeenCalledWith('bob'));
    // Still in flight: the row and its open fingerprint stay, no spinner in their place.
    expect(screen.queryByText('Searching')).toBeNull();
    expect(document.querySelector('code.share-fp')?.textContent).toBe('0123 4567');
    await act(async () => answer([BOB]));
    expect(screen.getByRole('button', { name: "Verify bobby's keys" }).getAttribute('aria-expanded')).toBe('true');
  });

  it('after the field was cleared, a new term shows Searching, not the old rows or an old "No users found"', async () => {
    apiMock.fetchAccess.mockResolvedValue({ access: [], users: [] });
    const pending: Array<(users: unknown[]) => void> = [];
    apiMock.searchUsers
      .mockResolvedValueOnce([BOB])
      .mockResolvedValueOnce([])
      .mockImplementation(() => new Promise((resolve) => pending.push(resolve)));
    call.mockResolvedValue({ fingerprint: '0123 4567', pinned: null, status: 'first-use' });
    renderDialog();
    const field = await screen.findByLabelText('Add people');
    fireEvent.change(field, { target: { value: 'bobb' } });
    await screen.findByText('bobby');
    fireEvent.change(field, { target: { value: '' } });
    await vi.waitFor(() => expect(screen.queryByText('bobby')).toBeNull());
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    fireEvent.change(field, { target: { value: 'bob' } });
    await vi.waitFor(() => expect(apiMock.searchUsers).toHaveBeenCalledWith('bob'));
    await screen.findByText('No users found');

    // An empty answer, then another term in flight: Searching, not the last term's answer.
    fireEvent.change(field, { target: { value: 'bobby' } });
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    expect(screen.getByText('Searching')).toBeTruthy();
    expect(screen.queryByText('No users found')).toBeNull();
    await act(async () => pending[0]!([BOB]));
    expect(await screen.findByText('bobby')).toBeTruthy();

    // Cleared again, then a term: the old row does not come back while it is searched.
    fireEvent.change(field, { target: { value: '' } });
    await vi.waitFor(() => expect(screen.queryByText('bobby')).toBeNull());
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    fireEvent.change(field, { target: { value: 'bobx' } });
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    expect(screen.queryByText('bobby')).toBeNull();
    expect(screen.getByText('Searching')).toBeTruthy();
  });

  it('lists the links, with Never expires, and disables the amount for never', async () => {
    apiMock.fetchAccess.mockResolvedValue({ access: [], users: [] });
    apiMock.fetchLinks.mockResolvedValue([
      {
        linkId: 'l1',
        itemId: ITEM.id,
        editPermission: false,
        expiresAt: null,
        passwordProtected: true,
        createdAt: 1,
        modifiedAt: 1,
        expired: false,
      },
    ]);
    renderDialog();
    fireEvent.click(await screen.findByRole('tab', { name: 'Links' }));
    expect(await screen.findByText('Never expires')).toBeTruthy();
    expect(screen.getByText('Password protected')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove password' })).toBeTruthy();
    const amount = screen.getByLabelText('Expires after') as HTMLInputElement;
    expect(amount.value).toBe('1');
    expect(amount.disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Unit'), { target: { value: 'never' } });
    expect(amount.disabled).toBe(true);
  });

  it('lists expired links apart, with when they go; Renew sends a new expiry, Delete removes one', async () => {
    const link = (linkId: string, expiresAt: number, expired: boolean) => ({
      linkId,
      itemId: ITEM.id,
      editPermission: false,
      expiresAt,
      passwordProtected: false,
      createdAt: 1,
      modifiedAt: 1,
      expired,
    });
    const expiredAt = Date.UTC(2026, 10, 20, 12);
    apiMock.fetchAccess.mockResolvedValue({ access: [], users: [] });
    apiMock.fetchLinks.mockResolvedValue([link('l1', expiredAt, true), link('l2', Date.UTC(2030, 0, 1), false)]);
    apiMock.changeLink.mockResolvedValue(undefined);
    apiMock.revokeLink.mockResolvedValue(undefined);
    renderDialog();
    fireEvent.click(await screen.findByRole('tab', { name: 'Links' }));
    const expired = await screen.findByRole('list', { name: 'Expired links' });
    const active = screen.getByRole('list', { name: 'Active links' });
    // Numbered among all links, oldest first: the expired one keeps 'Link 1'.
    expect(within(expired).getByRole('listitem', { name: 'Link 1' }).textContent).toContain(
      `Expired ${new Date(expiredAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}, removed ${new Date(
        expiredAt + 30 * 86_400_000,
      ).toLocaleDateString(undefined, { dateStyle: 'medium' })}`,
    );
    expect(within(active).getByRole('listitem', { name: 'Link 2' })).toBeTruthy();
    expect(within(expired).queryByRole('button', { name: 'Copy Link 1' })).toBeNull();
    expect(screen.getByText(EXPIRED_LINKS_NOTE)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Renew Link 1' }));
    const form = screen.getByRole('form', { name: 'New expiry for Link 1' });
    fireEvent.change(within(form).getByLabelText('Expires after (Link 1)'), { target: { value: '2' } });
    fireEvent.change(within(form).getByLabelText('Unit (Link 1)'), { target: { value: 'weeks' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Renew' }));
    await vi.waitFor(() => expect(apiMock.changeLink).toHaveBeenCalledWith({ linkId: 'l1', expires: 2 * 604_800 }));
    await vi.waitFor(() => expect(toast).toHaveBeenCalledWith('Link 1 renewed', 'success'));
    await vi.waitFor(() => expect(screen.queryByRole('form', { name: 'New expiry for Link 1' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Delete Link 1' }));
    await vi.waitFor(() => expect(apiMock.revokeLink).toHaveBeenCalledWith('l1'));
    await vi.waitFor(() => expect(toast).toHaveBeenCalledWith('Link deleted', 'success'));

    // An active link's expiry is changed the same way; an invalid amount sends nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Change expiry of Link 2' }));
    const change = screen.getByRole('form', { name: 'New expiry for Link 2' });
    fireEvent.change(within(change).getByLabelText('Expires after (Link 2)'), { target: { value: '0' } });
    expect((within(change).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(change).getByLabelText('Unit (Link 2)'), { target: { value: 'never' } });
    fireEvent.click(within(change).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(apiMock.changeLink).toHaveBeenCalledWith({ linkId: 'l2', expires: 0 }));
    await vi.waitFor(() => expect(toast).toHaveBeenCalledWith("Link 2's expiry changed", 'success'));
  });

  it('refuses anyone but the owner', async () => {
    renderDialog({ ...ITEM, ownerId: BOB.id });
    expect(await screen.findByText('You cannot share files you do not own')).toBeTruthy();
    expect(apiMock.fetchAccess).not.toHaveBeenCalled();
  });

  it("toasts 'Error fetching usernames.' when the search fails", async () => {
    apiMock.fetchAccess.mockResolvedValue({ access: [], users: [] });
    apiMock.searchUsers.mockRejectedValue(new Error('boom'));
    renderDialog();
    fireEvent.change(await screen.findByLabelText('Add people'), { target: { value: 'bobby' } });
    await vi.waitFor(() => expect(toast).toHaveBeenCalledWith('Error fetching usernames.', 'error'));
  });

  it("toasts 'Failed to fetch active users/links' when the access list fails", async () => {
    apiMock.fetchAccess.mockRejectedValue(new HttpStatusError(403, 'You cannot share files you do not own'));
    renderDialog();
    await vi.waitFor(() => expect(toast).toHaveBeenCalledWith('Failed to fetch active users/links', 'error'));
  });
});

describe('copyLink', () => {
  const writeText = vi.fn<(text: string) => Promise<void>>();
  const original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
  beforeAll(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });
  afterAll(() => {
    if (original) Object.defineProperty(navigator, 'clipboard', original);
    else Reflect.deleteProperty(navigator, 'clipboard');
  });
  afterEach(() => writeText.mockReset());

  it('copies the full URL with the fragment from the worker', async () => {
    call.mockResolvedValue('KEYfrag');
    writeText.mockResolvedValue(undefined);
    await copyLink(ITEM.id, 'link1');
    expect(call).toHaveBeenCalledWith('linkFragment', ITEM.id);
    expect(writeText).toHaveBeenCalledWith(`${location.origin}/share?linkId=link1#KEYfrag`);
    expect(toast).toHaveBeenCalledWith('Link copied', 'success');
  });

  it("toasts 'Failed to copy link. Please try again.' when the clipboard refuses", async () => {
    call.mockResolvedValue('KEYfrag');
    writeText.mockRejectedValue(new Error('denied'));
    await copyLink(ITEM.id, 'link1');
    expect(toast).toHaveBeenCalledWith('Failed to copy link. Please try again.', 'error');
  });

  it("toasts 'No decrypted file key' when the worker holds no key for the item", async () => {
    call.mockRejectedValue(new RpcError('No decrypted key for this item', 'NO_KEY'));
    await copyLink(ITEM.id, 'link1');
    expect(toast).toHaveBeenCalledWith('No decrypted file key', 'error');
    expect(writeText).not.toHaveBeenCalled();
  });
});
