/** Display helpers of the file browser (docs/product.md "Limits": sizes in binary units). */
import type { ItemView } from '../../model/items.ts';

export { formatBytes } from '../../lib/format-size.ts';
export { displayName } from '../../model/item-names.ts';
import { displayName } from '../../model/item-names.ts';

/** docs/product.md "Limits": storage percent is used/total, truncated. */
export function storagePercent(used: number, total: number): number {
  if (!(total > 0) || !(used > 0)) return 0;
  return Math.min(100, Math.trunc((used / total) * 100));
}

/** The width reserved space takes on a storage bar: at least 1 % while anything is reserved, so it shows. */
export function reservedPercent(reserved: number, total: number): number {
  if (!(total > 0) || !(reserved > 0)) return 0;
  return Math.min(100, Math.max(1, (reserved / total) * 100));
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(ms: number): string {
  return dateTime.format(new Date(ms));
}

const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** To the second: versions uploaded within one minute must still read apart. */
export function formatMoment(ms: number): string {
  return dateTimeSeconds.format(new Date(ms));
}

/**
 * The tooltip of a row that did not open (docs/product.md "Screens" shows 'Encrypted File'): why.
 * Its key did not unwrap under its parent's key, or its name did not decrypt under its own key, so
 * the server's data for it was altered, planted or moved; reloading will not change that.
 */
export const INTEGRITY_ROW_TEXT =
  "Decryption failed. Its key or name failed the integrity check: the server's data for this item was altered or does not belong here";

/** The title of a row: its name, or for an item that did not open, 'Encrypted File' and why. */
export function rowTitle(item: Pick<ItemView, 'name' | 'isDirectory' | 'decrypted'>): string {
  const name = displayName(item);
  return item.decrypted ? name : `${name}: ${INTEGRITY_ROW_TEXT}`;
}

/** The icon family of an item, by mime type first, then extension: the one file-type table (@sealbox/rules). */
export { iconKind as kindOf, type IconKind as ItemKind } from '@sealbox/rules';
