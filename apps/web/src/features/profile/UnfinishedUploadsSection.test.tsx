import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryHistory, createRootRoute, createRouter } from '@tanstack/react-router';
import type { ItemView } from '../../model/items.ts';
import type { UnfinishedUpload, UnfinishedUploads } from './unfinished-api.ts';
import { UnfinishedUploadsSection, startedBy } from './UnfinishedUploadsSection.tsx';

const api = vi.hoisted(() => ({ fetchUnfinishedUploads: vi.fn(), abortUnfinishedUpload: vi.fn() }));
vi.mock('./unfinished-api.ts', () => api);

const ME = 'me';
const folder = (id: string, name: string, parentId: string | null) =>
  ({ id, name, parentId, isDirectory: true, decrypted: true }) as ItemView;
const file = (id: string, name: string | null, uploaderId: string | null, parentId = 'f1') =>
  ({
    id,
    name,
    parentId,
    isDirectory: false,
    size: 50 * 1024 * 1024,
    cipherSize: 52_431_600,
    uploaderId,
    decrypted: name !== null,
  }) as ItemView;
const upload = (uploadId: string, item: ItemView, linkId: string | null, received = 0): UnfinishedUpload => ({
  uploadId,
  item,
  path: [folder('f1', 'Drop', null)],
  received,
  linkId,
  startedAt: Date.UTC(2026, 10, 20, 9),
  lastActivityAt: Date.UTC(2026, 10, 20, 10),
  expiresAt: Date.UTC(2026, 10, 21, 10),
});
const LIST: UnfinishedUploads = {
  uploads: [
    upload('u1', file('i1', 'holiday.mov', null), 'L1', 0.25),
    upload('u2', file('i2', 'report.pdf', 'carol'), 'L1'),
    upload('u3', file('i3', 'notes.txt', 'bob'), null),
    upload('u4', file('i4', null, ME), null),
  ],
  users: { carol: 'carol', bob: 'bob', [ME]: 'alice' },
  total: 4,
};

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

function show() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <UnfinishedUploadsSection myUserId={ME} /> }),
    history: createMemoryHistory({ initialEntries: ['/profile'] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('who started an unfinished upload', () => {
  it('names an anonymous link holder as such, a user through a link with the link, and the owner as You', () => {
    const [anonymous, viaLink, editor, own] = LIST.uploads as [
      UnfinishedUpload,
      UnfinishedUpload,
      UnfinishedUpload,
      UnfinishedUpload,
    ];
    expect(startedBy(anonymous, LIST.users, ME)).toBe('Anonymous (via link)');
    expect(startedBy(viaLink, LIST.users, ME)).toBe('carol (via link)');
    expect(startedBy(editor, LIST.users, ME)).toBe('bob');
    expect(startedBy(own, LIST.users, ME)).toBe('You');
    expect(startedBy({ ...editor, item: { ...editor.item, uploaderId: 'gone' } }, LIST.users, ME)).toBe('Unknown user');
  });
});

describe('UnfinishedUploadsSection', () => {
  beforeEach(() => {
    api.fetchUnfinishedUploads.mockResolvedValue(LIST);
    api.abortUnfinishedUpload.mockResolvedValue(undefined);
  });

  it('lists each upload with its name, where it goes, who started it and how far it got', async () => {
    show();
    const rows = await screen.findAllByRole('listitem');
    expect(rows).toHaveLength(4);
    const first = within(rows[0]!);
    expect(first.getByText('holiday.mov')).toBeTruthy();
    expect(first.getByText('Anonymous (via link)')).toBeTruthy();
    expect(first.getByRole('link', { name: 'My Files / Drop' }).getAttribute('href')).toBe('/files?parentId=f1');
    expect(first.getByRole('meter', { name: 'Received of holiday.mov' }).getAttribute('aria-valuetext')).toBe(
      '25% of 50.0 MiB received',
    );
    // A name that did not open reads as the product's unknown name.
    expect(within(rows[3]!).getByText('Encrypted File')).toBeTruthy();
    expect(within(rows[3]!).getByText('You')).toBeTruthy();
  });

  it('aborts one, and all after a confirmation', async () => {
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Abort upload of report.pdf' }));
    await waitFor(() => expect(api.abortUnfinishedUpload).toHaveBeenCalledWith('u2', expect.anything()));
    fireEvent.click(screen.getByRole('button', { name: 'Abort all' }));
    expect(screen.getByText('Abort all unfinished uploads?')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Abort all' }));
    await waitFor(() => expect(api.abortUnfinishedUpload).toHaveBeenCalledTimes(5));
    expect(api.abortUnfinishedUpload.mock.calls.slice(1).map((call) => call[0])).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('says when there is nothing unfinished, and when the list could not load', async () => {
    api.fetchUnfinishedUploads.mockResolvedValueOnce({ uploads: [], users: {}, total: 0 });
    show();
    expect(await screen.findByText('No unfinished uploads.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Abort all' })).toBeNull();
    cleanup();
    api.fetchUnfinishedUploads.mockRejectedValueOnce(new Error('503'));
    show();
    expect(await screen.findByText('Could not load your unfinished uploads.')).toBeTruthy();
  });
});
