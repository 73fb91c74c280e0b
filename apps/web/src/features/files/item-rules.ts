/**
 * What a route adds to the per-item rules of SPEC 6 beyond the item's own edit flag (/shared:
 * a shared item stays where its owner keeps it, and a recipient may drop a share from their
 * list). Read by the item menu deep in the listing, so no route passes it through every part.
 */
import { createContext, useContext } from 'react';
import type { ItemView } from '../../model/items.ts';

export interface ItemRules {
  /** Why `item` cannot be moved here although its edit flag allows it (undefined: it can). */
  moveBlocked?: (item: ItemView) => string | undefined;
  /** Whether the menu offers 'Remove from my list' for `item` (a share made to the caller). */
  removable?: (item: ItemView) => boolean;
}

export const ItemRulesContext = createContext<ItemRules>({});

export function useItemRules(): ItemRules {
  return useContext(ItemRulesContext);
}
