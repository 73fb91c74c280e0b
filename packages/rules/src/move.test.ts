import { describe, expect, test } from 'bun:test';
import { MOVE_FORBIDDEN, moveProblem, moveProblemByIds, type MoveFolder, type MovingItem } from './move.ts';

const ME = 'me';
const folder = (id: string, over: Partial<MoveFolder> = {}): MoveFolder => ({
  id,
  isDirectory: true,
  ownerId: ME,
  editPermission: true,
  ...over,
});

describe('move rules, in the order the server checks them', () => {
  const item: MovingItem = { id: 'x', parentId: 'p', ownerId: ME };

  test('the ids alone: the current parent, the item itself, the top level for the owner only', () => {
    expect(moveProblemByIds(item, 'p', ME)).toBe('current-parent');
    expect(moveProblemByIds(item, 'x', ME)).toBe('itself');
    expect(moveProblemByIds(item, null, ME)).toBeNull();
    // A link holder (no user of their own) or another user is never the owner.
    expect(moveProblemByIds(item, null, undefined)).toBe('root-needs-owner');
    expect(moveProblemByIds(item, null, 'someone else')).toBe('root-needs-owner');
    // Already at the top: the current parent comes first, as the server answers (400).
    expect(moveProblemByIds({ ...item, parentId: null }, null, 'someone else')).toBe('current-parent');
  });

  test('then the folder: a folder at all, the right to edit it, its owner, not below the item', () => {
    const at = (target: MoveFolder, path: string[] = [target.id]) => moveProblem(item, { folder: target, path }, ME);
    expect(at(folder('f', { isDirectory: false, editPermission: false }))).toBe('not-a-folder');
    expect(at(folder('f', { editPermission: false, ownerId: 'other' }))).toBe('no-permission');
    expect(at(folder('f', { ownerId: 'other' }))).toBe('other-owner');
    expect(at(folder('f', { editPermission: false }), ['x', 'f'])).toBe('no-permission');
    expect(at(folder('f'), ['x', 'f'])).toBe('descendant');
    expect(at(folder('f'))).toBeNull();
  });

  test('a missing right is forbidden (403), an impossible move invalid (400)', () => {
    expect([...MOVE_FORBIDDEN].sort()).toEqual(['no-permission', 'other-owner', 'root-needs-owner']);
  });
});
