/**
 * Which items of the listing are selected, and where the keyboard is, as plain values (issue 14):
 * a click selects one item, Ctrl/Cmd+click toggles one, Shift+click (or Shift+arrow) selects the
 * range from the anchor, as file managers do. Ids, in the order shown, are all it needs.
 */

export interface Selection {
  /** The selected ids. */
  ids: ReadonlySet<string>;
  /** Where a Shift range starts: the last item clicked or toggled without Shift. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

/** The ids from `from` to `to` inclusive, in the order shown (either direction). */
export function rangeIds(order: readonly string[], from: string, to: string): string[] {
  const a = order.indexOf(from);
  const b = order.indexOf(to);
  if (b < 0) return [];
  if (a < 0) return [to];
  return order.slice(Math.min(a, b), Math.max(a, b) + 1);
}

export function selectOnly(id: string): Selection {
  return { ids: new Set([id]), anchor: id };
}

export function toggle(selection: Selection, id: string): Selection {
  const ids = new Set(selection.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: id };
}

/** Shift: the range from the anchor (kept) to `id` replaces the selection. */
export function extendTo(selection: Selection, order: readonly string[], id: string): Selection {
  const anchor = selection.anchor !== null && order.includes(selection.anchor) ? selection.anchor : id;
  return { ids: new Set(rangeIds(order, anchor, id)), anchor };
}

export function selectAll(order: readonly string[]): Selection {
  return { ids: new Set(order), anchor: order[0] ?? null };
}

/** What a click on an item does with the modifiers held. */
export function clickSelect(
  selection: Selection,
  order: readonly string[],
  id: string,
  modifiers: { shift: boolean; toggle: boolean },
): Selection {
  if (modifiers.shift) return extendTo(selection, order, id);
  if (modifiers.toggle) return toggle(selection, id);
  return selectOnly(id);
}

/** Drops ids no longer shown (moved, deleted, another page or folder); the same object when nothing went. */
export function prune(selection: Selection, order: readonly string[]): Selection {
  const shown = new Set(order);
  const ids = [...selection.ids].filter((id) => shown.has(id));
  const anchor = selection.anchor !== null && shown.has(selection.anchor) ? selection.anchor : null;
  if (ids.length === selection.ids.size && anchor === selection.anchor) return selection;
  return { ids: new Set(ids), anchor };
}

/** The ids of `order` that are selected, in the order shown. */
export function selectedIn(selection: Selection, order: readonly string[]): string[] {
  return order.filter((id) => selection.ids.has(id));
}

export type MoveKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';

export function isMoveKey(key: string): key is MoveKey {
  return ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key);
}

/**
 * Where focus goes from `index` among `count` items laid out in `columns` columns (1: the list).
 * Up and down move by a row; left and right by one item, in the grid only. A move past the ends
 * stays put, as a list box does, rather than wrapping.
 */
export function moveIndex(index: number, key: MoveKey, count: number, columns: number): number {
  if (count === 0) return -1;
  const last = count - 1;
  const at = Math.min(Math.max(index, 0), last);
  switch (key) {
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'ArrowUp':
      return at - columns >= 0 ? at - columns : at;
    case 'ArrowDown':
      return at + columns <= last ? at + columns : at;
    case 'ArrowLeft':
      return columns > 1 && at > 0 ? at - 1 : at;
    case 'ArrowRight':
      return columns > 1 && at < last ? at + 1 : at;
  }
}
