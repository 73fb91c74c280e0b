/**
 * docs/product.md "Screens" Previewer cycling: previous/next over the list the file was opened
 * from, skipping folders, wrapping at either end.
 */

export interface CycleItem {
  id: string;
  isDirectory: boolean;
}

export interface CycleContext {
  /** Where the file shown sits in `items` (undefined when it is not in the list). */
  index: number | undefined;
  /** How many items the list holds. */
  count: number;
  /** Opened from search results: no cycling. */
  fromSearch: boolean;
  /** Whoever opened the previewer can move it to another file. */
  canCycle: boolean;
}

/**
 * docs/product.md "Screens": buttons (and arrow keys) when an index exists, the list has more than
 * one item, the view is not from search and a cycle handler exists.
 */
export function canCycle({ index, count, fromSearch, canCycle }: CycleContext): boolean {
  return index !== undefined && index >= 0 && count > 1 && !fromSearch && canCycle;
}

/**
 * The index of the next file (`step` 1) or the previous one (-1) after `index`, skipping folders
 * and wrapping around; undefined when no other file is in the list.
 */
export function cycleIndex(items: readonly CycleItem[], index: number, step: 1 | -1): number | undefined {
  const n = items.length;
  for (let k = 1; k < n; k += 1) {
    const at = (((index + step * k) % n) + n) % n;
    if (!items[at]!.isDirectory) return at;
  }
  return undefined;
}
