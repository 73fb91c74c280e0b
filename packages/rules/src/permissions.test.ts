import { describe, expect, test } from 'bun:test';
import { LINKED_ITEM_TEXT, NO_EDIT_TEXT } from './messages.ts';
import { CHANGE_REFUSAL_TEXT, canEdit, changeRefusal, type ItemChange } from './permissions.ts';

const CHANGES: ItemChange[] = ['rename', 'move', 'delete'];

describe('who may change an item', () => {
  test('owners and editors edit; viewers and strangers do not', () => {
    expect([canEdit('owner'), canEdit('editor'), canEdit('viewer'), canEdit(null), canEdit(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  test('without an edit right nothing changes, through a link or not', () => {
    for (const change of CHANGES)
      for (const linkedItem of [false, true]) expect(changeRefusal(change, { canEdit: false, linkedItem })).toBe('no-edit');
  });

  test('an editor changes anything, except that a link never moves or deletes the item it shares', () => {
    for (const change of CHANGES) expect(changeRefusal(change, { canEdit: true, linkedItem: false })).toBeUndefined();
    expect(changeRefusal('rename', { canEdit: true, linkedItem: true })).toBeUndefined();
    expect(changeRefusal('move', { canEdit: true, linkedItem: true })).toBe('linked-item');
    expect(changeRefusal('delete', { canEdit: true, linkedItem: true })).toBe('linked-item');
  });

  test('each refusal has its text', () => {
    expect(CHANGE_REFUSAL_TEXT).toEqual({ 'no-edit': NO_EDIT_TEXT, 'linked-item': LINKED_ITEM_TEXT });
  });
});
