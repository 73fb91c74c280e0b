import { describe, expect, it } from 'vitest';
import type { ItemView } from '../../model/items.ts';
import { displayName, formatBytes, kindOf, reservedPercent, storagePercent } from './format.ts';
import { canBrowseInto, moveProblem, selectionMoveProblem } from '@sealbox/rules';
import {
  NO_EDIT_TEXT,
  NO_KEY_TEXT,
  NOT_OWNER_SHARE_TEXT,
  TRASHED_TEXT,
  itemBlocks,
  opensAt,
  selectionBlocked,
} from './item-rules.ts';
import { effectiveSort, gridColumns, nextSort, paginate, searchItems, sortItems, visibleColumns } from './sorting.ts';

const ME = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OTHER = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
let n = 0;
function item(partial: Partial<ItemView> = {}): ItemView {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `item ${n}`,
    mimeType: null,
    extension: '',
    isDirectory: false,
    parentId: null,
    size: 0,
    cipherSize: 16,
    createdAt: n,
    modifiedAt: n,
    ownerId: ME,
    uploaderId: ME,
    editPermission: true,
    decrypted: true,
    ...partial,
  };
}

describe('sortItems', () => {
  const a = item({ name: 'b.txt', extension: 'txt', size: 300, createdAt: 3, modifiedAt: 1 });
  const b = item({ name: 'A.pdf', extension: 'pdf', size: 100, createdAt: 1, modifiedAt: 3 });
  const c = item({ name: 'file10', size: 200, createdAt: 2, modifiedAt: 2 });
  const d = item({ name: 'file9', size: 200, createdAt: 4, modifiedAt: 4 });
  const folder = item({ name: 'zz folder', isDirectory: true, createdAt: 9 });
  const all = [a, b, c, d, folder];
  const names = (items: ItemView[]) => items.map((i) => i.name);

  it('sorts an item an anonymous link holder made by "Anonymous (via link)", among the people', () => {
    const users = new Map([
      [ME, 'alice'],
      [OTHER, 'zed'],
    ]);
    const byLink = item({ name: 'dropped', uploaderId: null });
    const byZed = item({ name: 'zeds', uploaderId: OTHER });
    const mine = item({ name: 'mine' });
    expect(names(sortItems([byZed, byLink, mine], { sortBy: 'uploader', sortOrder: 'asc' }, users))).toEqual([
      'mine',
      'dropped',
      'zeds',
    ]);
  });
  it('puts folders first and keeps the server order without a sort', () => {
    expect(names(sortItems(all, undefined))).toEqual(['zz folder', 'b.txt', 'A.pdf', 'file10', 'file9']);
  });
  it('sorts names case-insensitively and numerically, both ways', () => {
    expect(names(sortItems(all, { sortBy: 'name', sortOrder: 'asc' }))).toEqual([
      'zz folder',
      'A.pdf',
      'b.txt',
      'file9',
      'file10',
    ]);
    expect(names(sortItems(all, { sortBy: 'name', sortOrder: 'desc' }))).toEqual([
      'zz folder',
      'file10',
      'file9',
      'b.txt',
      'A.pdf',
    ]);
  });
  it('sorts by size with ties by name, by dates and by extension', () => {
    expect(names(sortItems(all, { sortBy: 'size', sortOrder: 'asc' }))).toEqual([
      'zz folder',
      'A.pdf',
      'file9',
      'file10',
      'b.txt',
    ]);
    expect(names(sortItems(all, { sortBy: 'created', sortOrder: 'desc' }))).toEqual([
      'zz folder',
      'file9',
      'b.txt',
      'file10',
      'A.pdf',
    ]);
    expect(names(sortItems(all, { sortBy: 'modified', sortOrder: 'asc' }))).toEqual([
      'zz folder',
      'b.txt',
      'file10',
      'A.pdf',
      'file9',
    ]);
    expect(names(sortItems(all, { sortBy: 'extension', sortOrder: 'asc' }))).toEqual([
      'zz folder',
      'file9',
      'file10',
      'A.pdf',
      'b.txt',
    ]);
  });
  it('sorts by owner and uploader names', () => {
    const x = item({ name: 'x', ownerId: OTHER, uploaderId: ME });
    const y = item({ name: 'y', ownerId: ME, uploaderId: OTHER });
    const users = new Map([
      [ME, 'zed'],
      [OTHER, 'amy'],
    ]);
    expect(names(sortItems([y, x], { sortBy: 'owner', sortOrder: 'asc' }, users))).toEqual(['x', 'y']);
    expect(names(sortItems([x, y], { sortBy: 'uploader', sortOrder: 'asc' }, users))).toEqual(['y', 'x']);
  });
  it('does not change its input', () => {
    const input = [a, b];
    sortItems(input, { sortBy: 'name', sortOrder: 'asc' });
    expect(input).toEqual([a, b]);
  });
});

describe('header sort cycle', () => {
  it('goes asc → desc → cleared, and restarts on another column', () => {
    expect(nextSort({}, 'name')).toEqual({ sortBy: 'name', sortOrder: 'asc' });
    expect(nextSort({ sortBy: 'name', sortOrder: 'asc' }, 'name')).toEqual({ sortBy: 'name', sortOrder: 'desc' });
    expect(nextSort({ sortBy: 'name', sortOrder: 'desc' }, 'name')).toEqual({});
    expect(nextSort({ sortBy: 'name', sortOrder: 'desc' }, 'size')).toEqual({ sortBy: 'size', sortOrder: 'asc' });
  });
  it('uses the URL first, then the profile preference', () => {
    expect(effectiveSort({ sortBy: 'size', sortOrder: 'desc' }, { sortBy: 'name', sortOrder: 'asc' })).toEqual({
      sortBy: 'size',
      sortOrder: 'desc',
    });
    expect(effectiveSort({ sortBy: 'size' }, undefined)).toEqual({ sortBy: 'size', sortOrder: 'asc' });
    expect(effectiveSort({}, { sortBy: 'modified', sortOrder: 'desc' })).toEqual({ sortBy: 'modified', sortOrder: 'desc' });
    expect(effectiveSort({}, undefined)).toBeUndefined();
  });
});

describe('paginate', () => {
  const items = Array.from({ length: 45 }, (_, i) => i);
  it('cuts pages of 20 and 100, All shows everything', () => {
    expect(paginate(items, 20, 0)).toMatchObject({ page: 0, pageCount: 3, from: 1, to: 20, total: 45 });
    expect(paginate(items, 20, 2).items).toEqual(items.slice(40));
    expect(paginate(items, 20, 2)).toMatchObject({ from: 41, to: 45 });
    expect(paginate(items, 100, 0)).toMatchObject({ pageCount: 1, from: 1, to: 45 });
    expect(paginate(items, 0, 5).items).toHaveLength(45);
  });
  it('clamps the page into range and handles an empty list', () => {
    expect(paginate(items, 20, 99).page).toBe(2);
    expect(paginate(items, 20, -3).page).toBe(0);
    expect(paginate([], 20, 0)).toMatchObject({ items: [], pageCount: 1, from: 0, to: 0, total: 0 });
  });
});

describe('responsive layout', () => {
  it('hides list columns progressively below 1400, 1200, 1000 and 800 px', () => {
    expect(visibleColumns(1500)).toEqual(['name', 'extension', 'size', 'created', 'modified', 'uploader', 'owner', 'actions']);
    expect(visibleColumns(1399)).toEqual(['name', 'extension', 'size', 'created', 'modified', 'owner', 'actions']);
    expect(visibleColumns(1199)).toEqual(['name', 'extension', 'size', 'modified', 'owner', 'actions']);
    expect(visibleColumns(999)).toEqual(['name', 'extension', 'size', 'modified', 'actions']);
    expect(visibleColumns(799)).toEqual(['name', 'size', 'actions']);
    expect(visibleColumns(320)).toEqual(['name', 'size', 'actions']);
    expect(visibleColumns(1280, true)).toEqual(['name', 'location', 'deleted', 'size', 'actions']);
    expect(visibleColumns(999, true)).toEqual(['name', 'deleted', 'size', 'actions']);
    expect(visibleColumns(375, true)).toEqual(['name', 'size', 'actions']);
  });
  it('uses 2, 3, 4 or 6 grid columns', () => {
    expect([375, 599, 600, 899, 900, 1099, 1100, 1920].map(gridColumns)).toEqual([2, 2, 3, 3, 4, 4, 6, 6]);
  });
});

describe('move rules (docs/product.md "Input rules")', () => {
  const root = item({ name: 'root folder', isDirectory: true });
  const child = item({ name: 'child', isDirectory: true, parentId: root.id });
  const grandchild = item({ name: 'grandchild', isDirectory: true, parentId: child.id });
  const sibling = item({ name: 'sibling', isDirectory: true });
  const file = item({ name: 'file.txt', parentId: root.id });
  const at = (folder: ItemView | null, path: string[]) => ({ folder, path });

  it('accepts a folder of the same owner elsewhere', () => {
    expect(moveProblem(file, at(sibling, [sibling.id]), ME)).toBeNull();
    expect(moveProblem(child, at(sibling, [sibling.id]), ME)).toBeNull();
  });
  it('refuses the item itself, its descendants and the current parent', () => {
    expect(moveProblem(root, at(root, [root.id]), ME)).toBe('itself');
    expect(moveProblem(root, at(child, [root.id, child.id]), ME)).toBe('descendant');
    expect(moveProblem(root, at(grandchild, [root.id, child.id, grandchild.id]), ME)).toBe('descendant');
    expect(moveProblem(file, at(root, [root.id]), ME)).toBe('current-parent');
  });
  it('refuses files as targets and folders of another owner', () => {
    expect(moveProblem(child, at(file, [root.id, file.id]), ME)).toBe('not-a-folder');
    const theirs = item({ isDirectory: true, ownerId: OTHER });
    expect(moveProblem(file, at(theirs, [theirs.id]), ME)).toBe('other-owner');
    const readOnly = item({ isDirectory: true, editPermission: false });
    expect(moveProblem(file, at(readOnly, [readOnly.id]), ME)).toBe('no-permission');
  });
  it('allows the root only for the owner, and not when already there', () => {
    expect(moveProblem(file, at(null, []), ME)).toBeNull();
    expect(moveProblem(sibling, at(null, []), ME)).toBe('current-parent');
    const shared = item({ ownerId: OTHER, parentId: root.id });
    expect(moveProblem(shared, at(null, []), ME)).toBe('root-needs-owner');
  });
  it('never browses into the item being moved', () => {
    expect(canBrowseInto(root, root)).toBe(false);
    expect(canBrowseInto(root, sibling)).toBe(true);
    expect(canBrowseInto(root, file)).toBe(false);
  });
});

describe('formatting', () => {
  it('shows sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MiB');
    expect(formatBytes(150 * 1024 * 1024)).toBe('150 MiB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10.0 GiB');
    expect(formatBytes(-1)).toBe('—');
  });
  it('truncates the storage percent', () => {
    expect(storagePercent(0, 100)).toBe(0);
    expect(storagePercent(999, 1000)).toBe(99);
    expect(storagePercent(5, 0)).toBe(0);
    expect(storagePercent(200, 100)).toBe(100);
  });
  it('shows any reserved space on the bar, at least 1 %', () => {
    expect(reservedPercent(0, 100)).toBe(0);
    expect(reservedPercent(1, 10_000)).toBe(1);
    expect(reservedPercent(25, 100)).toBe(25);
    expect(reservedPercent(5, 0)).toBe(0);
    expect(reservedPercent(300, 100)).toBe(100);
  });
  it('names undecryptable items', () => {
    expect(displayName({ name: null, isDirectory: true })).toBe('Encrypted directory');
    expect(displayName({ name: null, isDirectory: false })).toBe('Encrypted File');
    expect(displayName({ name: 'a', isDirectory: false })).toBe('a');
  });
  it('finds the icon by mime type, then extension', () => {
    expect(kindOf({ isDirectory: false, mimeType: 'image/png', extension: '' })).toBe('image');
    expect(kindOf({ isDirectory: false, mimeType: null, extension: 'mov' })).toBe('video');
    expect(kindOf({ isDirectory: true, mimeType: null, extension: '' })).toBe('folder');
    expect(kindOf({ isDirectory: false, mimeType: null, extension: 'xyz' })).toBe('file');
  });
});

describe('search', () => {
  it('matches decrypted names only, case-insensitively', () => {
    const hit = item({ name: 'Quarterly Report.pdf' });
    const miss = item({ name: 'notes' });
    const locked = item({ name: null, decrypted: false });
    expect(searchItems([hit, miss, locked], 'report')).toEqual([hit]);
    expect(searchItems([hit, miss], '  ')).toEqual([]);
  });
});

describe('item rules', () => {
  it('one item: edit, key, owner and route rules', () => {
    expect(itemBlocks(item(), {}, ME, undefined)).toEqual({
      rename: undefined,
      move: undefined,
      delete: undefined,
      download: undefined,
      share: undefined,
      preview: undefined,
      restore: 'Only items in the trash are restored',
    });
    const viewer = itemBlocks(item({ editPermission: false, ownerId: OTHER }), {}, ME, undefined);
    expect([viewer.rename, viewer.move, viewer.delete, viewer.share]).toEqual([
      NO_EDIT_TEXT,
      NO_EDIT_TEXT,
      NO_EDIT_TEXT,
      NOT_OWNER_SHARE_TEXT,
    ]);
    expect(viewer.download).toBeUndefined();
    // Upload new version: an edit right, as a rename; an editor link's own file too (it is edited in place).
    expect(viewer.newVersion).toBe(NO_EDIT_TEXT);
    expect(itemBlocks(item({ editPermission: true, ownerId: OTHER }), { linkedItem: () => true }, ME, undefined).newVersion).toBe(
      undefined,
    );
    expect(itemBlocks(item({ decrypted: false }), {}, ME, undefined).newVersion).toBe(NO_KEY_TEXT);
    expect(itemBlocks(item({ decrypted: false }), {}, ME, undefined).download).toBe(NO_KEY_TEXT);
    expect(itemBlocks(item(), { moveBlocked: () => 'stays put' }, ME, undefined).move).toBe('stays put');
    expect(itemBlocks(item(), {}, ME, 'no downloads').download).toBe('no downloads');
  });

  it('in the trash: only Restore and Delete forever, for a selection too', () => {
    const trashed = item({ trashed: { at: 1, by: ME, from: 'My Files', folderGone: false } });
    const blocks = itemBlocks(trashed, { trashed: true }, ME, undefined);
    expect(blocks).toEqual({
      rename: TRASHED_TEXT,
      move: TRASHED_TEXT,
      delete: undefined,
      download: TRASHED_TEXT,
      share: TRASHED_TEXT,
      preview: TRASHED_TEXT,
      restore: undefined,
      newVersion: TRASHED_TEXT,
    });
    expect(selectionBlocked([trashed, trashed], 'restore', { trashed: true }, ME, undefined)).toBeUndefined();
    expect(selectionBlocked([trashed], 'download', { trashed: true }, ME, undefined)).toBe(TRASHED_TEXT);
    expect(selectionBlocked([item()], 'restore', {}, ME, undefined)).toBe('Only items in the trash are restored');
    // Nothing in the trash opens; elsewhere folders and decrypted files do.
    expect([opensAt(trashed), opensAt(item()), opensAt(item({ decrypted: false }))]).toEqual([false, true, false]);
  });

  it('a selection is refused what any of its items is refused, naming the first such item', () => {
    const mine = item({ name: 'mine.txt' });
    const theirs = item({ name: 'theirs.txt', editPermission: false });
    expect(selectionBlocked([mine], 'delete', {}, ME, undefined)).toBeUndefined();
    expect(selectionBlocked([theirs], 'delete', {}, ME, undefined)).toBe(NO_EDIT_TEXT);
    expect(selectionBlocked([mine, theirs], 'move', {}, ME, undefined)).toBe(`${NO_EDIT_TEXT}: theirs.txt`);
    expect(selectionBlocked([mine, theirs], 'download', {}, ME, undefined)).toBeUndefined();
  });
});

describe('moving a selection', () => {
  it('refuses a target under any selected folder, and allows one all may go to', () => {
    const parent = item({ isDirectory: true });
    const folder = item({ isDirectory: true, parentId: parent.id });
    const file = item({ parentId: parent.id });
    const inside = item({ isDirectory: true, parentId: folder.id });
    const elsewhere = item({ isDirectory: true });
    const selection = [file, folder];
    expect(selectionMoveProblem(selection, { folder: inside, path: [parent.id, folder.id, inside.id] }, ME)).toBe('descendant');
    expect(selectionMoveProblem(selection, { folder, path: [parent.id, folder.id] }, ME)).toBe('itself');
    expect(selectionMoveProblem(selection, { folder: parent, path: [parent.id] }, ME)).toBe('current-parent');
    expect(selectionMoveProblem(selection, { folder: elsewhere, path: [elsewhere.id] }, ME)).toBeNull();
  });
});
