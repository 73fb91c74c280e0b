/**
 * What a route adds to the per-item rules of docs/product.md "Roles" beyond the item's own edit
 * flag (/shared: a shared item stays where its owner keeps it, and a recipient may drop a share
 * from their list; a link: the item it shares is never moved or deleted through it). Read by the
 * item menu deep in the listing, so no route passes it through every part.
 *
 * Also why an action is unavailable, for one item (its menu) and for a selection (the selection
 * bar, the keyboard): one set of rules, so a selection is never allowed what its items are not.
 */
import { createContext, useContext } from 'react';
import { CHANGE_REFUSAL_TEXT, NOT_OWNER_SHARE_TEXT, changeRefusal, type ItemChange } from '@sealbox/rules';
import type { ItemView } from '../../model/items.ts';
import { displayName } from './format.ts';

export interface ItemRules {
  /** Why `item` cannot be moved here although its edit flag allows it (undefined: it can). */
  moveBlocked?: (item: ItemView) => string | undefined;
  /**
   * Whether `item` is the item a link shares, reached through that link: renamed if the link
   * edits, never moved or deleted through it (@sealbox/rules `changeRefusal`).
   */
  linkedItem?: (item: ItemView) => boolean;
  /** Whether the menu offers 'Remove from my list' for `item` (a share made to the caller). */
  removable?: (item: ItemView) => boolean;
  /** Whether the menu offers 'Block sharer' for `item`: hides every share of its owner (docs/protocol.md "Blocked accounts"). */
  blockable?: (item: ItemView) => boolean;
  /**
   * /trash: an item there is restored or deleted for good, nothing else (it opens nowhere, since
   * it is hidden from every listing, share and link until restored).
   */
  trashed?: boolean;
  /**
   * A link's page: actions its rights refuse are left out of the menu rather than greyed (a
   * visitor cannot gain them, and a phone's menu has no room for them).
   */
  hideRefused?: boolean;
}

export const ItemRulesContext = createContext<ItemRules>({});

export function useItemRules(): ItemRules {
  return useContext(ItemRulesContext);
}

/** docs/product.md "Roles" tooltips, in the server's words (@sealbox/rules). */
export { NO_EDIT_TEXT, NOT_OWNER_SHARE_TEXT } from '@sealbox/rules';
export const NO_KEY_TEXT = 'This item could not be decrypted';
/** Why nothing but Restore and Delete forever works on an item in the trash. */
export const TRASHED_TEXT = 'Restore it from the trash first';

/** Why each action is unavailable for one item (undefined: it is available). */
export interface ItemBlocks {
  rename: string | undefined;
  move: string | undefined;
  delete: string | undefined;
  download: string | undefined;
  share: string | undefined;
  preview: string | undefined;
  restore: string | undefined;
  /** "Upload new version" (files only): an edit right on the file, as the server's check. */
  newVersion: string | undefined;
}

export function itemBlocks(
  item: ItemView,
  rules: ItemRules,
  myUserId: string | undefined,
  downloadBlocked: string | undefined,
): ItemBlocks {
  const context = { canEdit: item.editPermission, linkedItem: rules.linkedItem?.(item) ?? false };
  const refused = (change: ItemChange) => {
    const refusal = changeRefusal(change, context);
    return refusal && CHANGE_REFUSAL_TEXT[refusal];
  };
  const noKey = item.decrypted ? undefined : NO_KEY_TEXT;
  if (rules.trashed) {
    return {
      rename: TRASHED_TEXT,
      move: TRASHED_TEXT,
      delete: undefined,
      download: TRASHED_TEXT,
      share: TRASHED_TEXT,
      preview: TRASHED_TEXT,
      restore: undefined,
      newVersion: TRASHED_TEXT,
    };
  }
  return {
    rename: refused('rename') ?? noKey,
    move: refused('move') ?? noKey ?? rules.moveBlocked?.(item),
    delete: refused('delete'),
    download: downloadBlocked ?? noKey,
    // docs/product.md "Roles": only the owner shares, and only an item whose key this browser holds.
    share: myUserId === undefined || item.ownerId !== myUserId ? NOT_OWNER_SHARE_TEXT : noKey,
    preview: noKey,
    // Only in the trash (above).
    restore: 'Only items in the trash are restored',
    // New content edits the file in place, as a rename does: an editor link may, on its linked file too.
    newVersion: refused('rename') ?? noKey,
  };
}

/** Whether `item` opens (a folder, or a file whose key opened) where it is listed: never from the trash. */
export function opensAt(item: ItemView): boolean {
  return !item.trashed && (item.isDirectory || item.decrypted);
}

/** Whether the menu leaves out an action refused for `reason` (an undecryptable item still says why). */
export function leftOut(rules: ItemRules, reason: string | undefined): boolean {
  return rules.hideRefused === true && reason !== undefined && reason !== NO_KEY_TEXT;
}

/** What a selection can do; in the trash, 'delete' deletes for good and 'restore' puts back. */
export type BulkAction = 'move' | 'delete' | 'download' | 'restore';

/**
 * Why `action` is unavailable for the selection `items`: the first refusal among them, naming
 * the item when there are several (undefined: every item allows it).
 */
export function selectionBlocked(
  items: readonly ItemView[],
  action: BulkAction,
  rules: ItemRules,
  myUserId: string | undefined,
  downloadBlocked: string | undefined,
): string | undefined {
  for (const item of items) {
    const reason = itemBlocks(item, rules, myUserId, downloadBlocked)[action];
    if (reason !== undefined) return items.length === 1 ? reason : `${reason}: ${displayName(item)}`;
  }
  return undefined;
}
