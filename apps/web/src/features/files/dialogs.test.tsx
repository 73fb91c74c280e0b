import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ItemView } from '../../model/items.ts';

const folderListing = vi.hoisted(() => ({ items: [] as unknown[] }));
vi.mock('./queries.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./queries.ts')>()),
  useFolder: () => ({ isPending: false, data: { folder: null, items: folderListing.items } }),
}));

const { MoveDialog, MOVE_CHOOSE_TEXT } = await import('./dialogs.tsx');
const { MOVE_PROBLEM_TEXT } = await import('./move-rules.ts');

const ME = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
function item(partial: Partial<ItemView>): ItemView {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'notes.txt',
    mimeType: 'text/plain',
    extension: 'txt',
    isDirectory: false,
    parentId: null,
    size: 1,
    cipherSize: 17,
    createdAt: 1,
    modifiedAt: 1,
    ownerId: ME,
    uploaderId: ME,
    editPermission: true,
    decrypted: true,
    ...partial,
  };
}

afterEach(cleanup);

describe('MoveDialog', () => {
  it('opens without the red "already in this folder" refusal; it shows once the user browses back', () => {
    const file = item({});
    const archive = item({ id: '00000000-0000-4000-8000-000000000002', name: 'Archive', isDirectory: true });
    folderListing.items = [file, archive];
    render(<MoveDialog open items={[file]} myUserId={ME} busy={false} onClose={() => {}} onMove={() => {}} />);

    expect(screen.queryByText(MOVE_PROBLEM_TEXT['current-parent'])).toBeNull();
    expect(screen.getByRole('status').textContent).toBe(MOVE_CHOOSE_TEXT);
    expect(screen.getByRole('status').className).not.toContain('move__status--problem');
    expect((screen.getByRole('button', { name: 'Move here' }) as HTMLButtonElement).disabled).toBe(true);

    // Into Archive (allowed), then back to My Files where the file already is: now it says why.
    folderListing.items = [];
    fireEvent.click(screen.getByRole('button', { name: /Archive/ }));
    expect((screen.getByRole('button', { name: 'Move here' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'My Files' }));
    expect(screen.getByRole('status').textContent).toBe(MOVE_PROBLEM_TEXT['current-parent']);
    expect((screen.getByRole('button', { name: 'Move here' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
