import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ME, itemView as item } from '../../test/item-view.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const folderListing = vi.hoisted(() => ({ items: [] as unknown[] }));
vi.mock(
  '../items/index.ts',
  overriding({ useFolder: () => ({ isPending: false, data: { folder: null, items: folderListing.items } }) }),
);

const { CreateFolderDialog, MoveDialog, MOVE_CHOOSE_TEXT, RenameDialog } = await import('./dialogs.tsx');
const { BrowseScopeContext } = await import('./scope-context.ts');
const { MOVE_PROBLEM_TEXT } = await import('@sealbox/rules');

afterEach(cleanup);

describe('MoveDialog', () => {
  it('opens without the red "already in this folder" refusal; it shows once the user browses back', () => {
    const file = item({});
    const archive = item({ id: '00000000-0000-4000-8000-000000000002', name: 'Archive', isDirectory: true });
    folderListing.items = [file, archive];
    render(
      <BrowseScopeContext.Provider value={OWN_SCOPE}>
        <MoveDialog open items={[file]} myUserId={ME} busy={false} onClose={() => {}} onMove={() => {}} />
      </BrowseScopeContext.Provider>,
    );

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

  it('speaks of the selection when it moves several items', () => {
    const a = item({});
    const b = item({ id: '00000000-0000-4000-8000-000000000003', name: 'b.txt' });
    folderListing.items = [a, b];
    render(
      <BrowseScopeContext.Provider value={OWN_SCOPE}>
        <MoveDialog open items={[a, b]} myUserId={ME} busy={false} onClose={() => {}} onMove={() => {}} />
      </BrowseScopeContext.Provider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Choose a folder to move these 2 items to.');
  });
});

describe('CreateFolderDialog and RenameDialog names', () => {
  const typeName = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it('refuses a name an item of the folder has (any case) and bad names, without submitting', () => {
    const onCreate = vi.fn();
    const siblings = [item({ name: 'Zulu', isDirectory: true }), item({ id: '00000000-0000-4000-8000-000000000003' })];
    render(<CreateFolderDialog open busy={false} siblings={siblings} onClose={() => {}} onCreate={onCreate} />);
    typeName('Folder name', 'ZULU');
    expect(screen.getByRole('alert').textContent).toBe('A folder named "ZULU" already exists here.');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    typeName('Folder name', 'Notes.TXT');
    expect(screen.getByRole('alert').textContent).toBe('A file named "Notes.TXT" already exists here.');
    typeName('Folder name', '..');
    expect(screen.getByRole('alert').textContent).toBe('A name cannot be only dots.');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(onCreate).not.toHaveBeenCalled();
    typeName('Folder name', ' Budget ');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(onCreate).toHaveBeenCalledWith('Budget');
  });

  it('lets an item keep its own name in another case, and checks only its own folder', () => {
    const onRename = vi.fn();
    const self = item({ name: 'Report.pdf' });
    const elsewhere = item({ id: '00000000-0000-4000-8000-000000000004', name: 'Other.pdf', parentId: 'x' });
    render(<RenameDialog open busy={false} item={self} siblings={[self, elsewhere]} onClose={() => {}} onRename={onRename} />);
    typeName('New name', 'REPORT.pdf');
    expect(screen.queryByRole('alert')).toBeNull();
    typeName('New name', 'other.pdf');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(onRename).toHaveBeenCalledWith('other.pdf');
  });
});
