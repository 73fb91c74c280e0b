import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  clickSelect,
  extendTo,
  moveIndex,
  prune,
  rangeIds,
  selectAll,
  selectOnly,
  selectedIn,
  toggle,
} from './selection.ts';

const order = ['a', 'b', 'c', 'd', 'e'];
const ids = (s: { ids: ReadonlySet<string> }) => [...s.ids].sort();

describe('selection', () => {
  it('takes a range in either direction, inclusive', () => {
    expect(rangeIds(order, 'b', 'd')).toEqual(['b', 'c', 'd']);
    expect(rangeIds(order, 'd', 'b')).toEqual(['b', 'c', 'd']);
    expect(rangeIds(order, 'c', 'c')).toEqual(['c']);
    expect(rangeIds(order, 'gone', 'c')).toEqual(['c']);
  });

  it('a click selects one, ctrl toggles, shift extends from the anchor', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'b', { shift: false, toggle: false });
    expect(ids(s)).toEqual(['b']);
    s = clickSelect(s, order, 'd', { shift: true, toggle: false });
    expect(ids(s)).toEqual(['b', 'c', 'd']);
    // The anchor stays: a second shift-click re-ranges from b.
    s = clickSelect(s, order, 'a', { shift: true, toggle: false });
    expect(ids(s)).toEqual(['a', 'b']);
    s = clickSelect(s, order, 'e', { shift: false, toggle: true });
    expect(ids(s)).toEqual(['a', 'b', 'e']);
    s = clickSelect(s, order, 'a', { shift: false, toggle: true });
    expect(ids(s)).toEqual(['b', 'e']);
    expect(s.anchor).toBe('a');
    s = clickSelect(s, order, 'c', { shift: false, toggle: false });
    expect(ids(s)).toEqual(['c']);
  });

  it('toggle removes a selected id and adds an unselected one', () => {
    expect(ids(toggle(selectOnly('a'), 'a'))).toEqual([]);
    expect(ids(toggle(selectOnly('a'), 'b'))).toEqual(['a', 'b']);
  });

  it('extends from the item itself when the anchor is gone', () => {
    expect(ids(extendTo({ ids: new Set(), anchor: 'zz' }, order, 'c'))).toEqual(['c']);
  });

  it('selects all and prunes what is no longer shown', () => {
    const all = selectAll(order);
    expect(selectedIn(all, order)).toEqual(order);
    const pruned = prune(all, ['b', 'e', 'f']);
    expect(ids(pruned)).toEqual(['b', 'e']);
    expect(pruned.anchor).toBeNull();
    expect(prune(pruned, ['b', 'e'])).toBe(pruned);
  });

  it('moves focus by rows in the list', () => {
    expect(moveIndex(0, 'ArrowDown', 5, 1)).toBe(1);
    expect(moveIndex(4, 'ArrowDown', 5, 1)).toBe(4);
    expect(moveIndex(0, 'ArrowUp', 5, 1)).toBe(0);
    expect(moveIndex(2, 'ArrowRight', 5, 1)).toBe(2);
    expect(moveIndex(2, 'Home', 5, 1)).toBe(0);
    expect(moveIndex(2, 'End', 5, 1)).toBe(4);
    expect(moveIndex(-1, 'ArrowDown', 5, 1)).toBe(1);
    expect(moveIndex(0, 'ArrowDown', 0, 1)).toBe(-1);
  });

  it('moves focus by columns in the grid', () => {
    // 3 columns, 8 items: rows [0 1 2] [3 4 5] [6 7]
    expect(moveIndex(1, 'ArrowDown', 8, 3)).toBe(4);
    expect(moveIndex(4, 'ArrowDown', 8, 3)).toBe(7);
    expect(moveIndex(5, 'ArrowDown', 8, 3)).toBe(5);
    expect(moveIndex(7, 'ArrowUp', 8, 3)).toBe(4);
    expect(moveIndex(1, 'ArrowUp', 8, 3)).toBe(1);
    expect(moveIndex(2, 'ArrowRight', 8, 3)).toBe(3);
    expect(moveIndex(3, 'ArrowLeft', 8, 3)).toBe(2);
    expect(moveIndex(7, 'ArrowRight', 8, 3)).toBe(7);
    expect(moveIndex(0, 'ArrowLeft', 8, 3)).toBe(0);
  });
});
