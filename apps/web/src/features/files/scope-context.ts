/**
 * The browse scope of the screen (model/browse-scope.ts), for the parts deep inside a browser
 * that list, open, change or fetch on their own (dialogs, thumbnails, the previewer). Each
 * browser route provides it; a part used outside one fails loudly rather than acting as the
 * signed-in user by default.
 */
import { createContext, useContext } from 'react';
import type { BrowseScope } from '../../model/browse-scope.ts';

export const BrowseScopeContext = createContext<BrowseScope | undefined>(undefined);

export function useBrowseScope(): BrowseScope {
  const scope = useContext(BrowseScopeContext);
  if (!scope) throw new Error('useBrowseScope: no BrowseScopeContext above this component');
  return scope;
}
