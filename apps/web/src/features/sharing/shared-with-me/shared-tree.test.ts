import { describe, expect, it } from 'vitest';
import type { FolderListing } from '../../items/index.ts';
import { searchItems } from '../../files/sorting.ts';
import type { ItemView } from '../../../model/items.ts';
import { mergeSharedTree, sharedFolderIds, sharedJumpTarget, sharedLocationIn } from './shared-tree.ts';

const item = (id: string, parentId: string | null, name: string | null, extra: Partial<ItemView> = {}): ItemView => ({
  id,
  name,
  mimeType: null,
  extension: '',
  isDirectory: true,
  parentId,
  size: 0,
  cipherSize: 0,
  createdAt: 0,
  modifiedAt: 0,
  ownerId: 'alice',
  uploaderId: 'alice',
  editPermission: false,
  decrypted: name !== null,
  ...extra,
});

// Alice's 'Project' (its parent is her own 'home', which Bob never sees) holds Drafts/plan.txt;
// 'Drafts' is also shared with Bob on its own; 'memo.txt' is a shared file.
const project = item('p', 'home', 'Project');
const drafts = item('d', 'p', 'Drafts');
const plan = item('f', 'd', 'plan.txt', { isDirectory: false });
const memo = item('m', 'home', 'memo.txt', { isDirectory: false });
const shared = { items: [project, drafts, memo], users: { alice: 'alice' } };
const subtree = (folder: ItemView, items: ItemView[], users: Record<string, string> = {}): FolderListing => ({
  folder,
  items,
  ancestors: [],
  users,
});

describe('mergeSharedTree', () => {
  it('holds the shared items and every subtree, each id once, parent links as the server sent them', () => {
    const tree = mergeSharedTree(shared, [subtree(project, [drafts, plan], { carol: 'carol' }), subtree(drafts, [plan])]);
    expect(tree.items.map((i) => i.id)).toEqual(['p', 'd', 'm', 'f']);
    expect(Object.fromEntries(tree.items.map((i) => [i.id, i.parentId]))).toEqual({ p: 'home', d: 'p', m: 'home', f: 'd' });
    expect(tree.users).toEqual({ alice: 'alice', carol: 'carol' });
    expect(tree.folder).toBeNull();
  });

  it("keeps a shared item's own view over the one found inside another shared folder", () => {
    const ownGrant = item('d', 'p', 'Drafts', { editPermission: true });
    const tree = mergeSharedTree({ items: [ownGrant], users: {} }, [subtree(project, [drafts])]);
    expect(tree.items.find((i) => i.id === 'd')?.editPermission).toBe(true);
  });

  it('is empty before the shared list arrives', () => {
    expect(mergeSharedTree(undefined, []).items).toEqual([]);
  });

  it('lets the search skip what did not decrypt and keep the untrusted mark on what it finds', () => {
    const broken = item('x', 'p', null, { isDirectory: false });
    const unverified = item('u', 'p', 'plan B', { isDirectory: false, untrusted: true });
    const tree = mergeSharedTree(shared, [subtree(project, [drafts, plan, broken, unverified])]);
    const found = searchItems(tree.items, 'plan');
    expect(found.map((i) => i.id)).toEqual(['f', 'u']);
    expect(found[1]?.untrusted).toBe(true);
    expect(searchItems(tree.items, 'encrypted')).toEqual([]);
  });
});

describe('sharedFolderIds', () => {
  it('lists the shared folders, sorted, not the files', () => {
    expect(sharedFolderIds(shared)).toEqual(['d', 'p']);
    expect(sharedFolderIds(undefined)).toEqual([]);
  });
});

describe('where a result is and where Jump to Folder goes', () => {
  const tree = mergeSharedTree({ items: [project, memo], users: {} }, [subtree(project, [drafts, plan])]);
  const ids = new Set(['p', 'm']);
  const where = sharedLocationIn(tree, ids, 'Files Shared with Me');

  it('paths start at the shared item, never above it', () => {
    expect(where(plan)).toBe('Files Shared with Me / Project / Drafts');
    expect(where(drafts)).toBe('Files Shared with Me / Project');
    expect(where(project)).toBe('Files Shared with Me');
    expect(where(memo)).toBe('Files Shared with Me');
  });

  it('a folder of the shared tree is jumped into; a shared item itself jumps to the top list', () => {
    expect(sharedJumpTarget(tree, plan.parentId)).toBe('d');
    expect(sharedJumpTarget(tree, drafts.parentId)).toBe('p');
    expect(sharedJumpTarget(tree, project.parentId)).toBeNull();
    expect(sharedJumpTarget(tree, memo.parentId)).toBeNull();
    expect(sharedJumpTarget(tree, null)).toBeNull();
  });
});
