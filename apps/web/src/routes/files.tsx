import { createRoute } from '@tanstack/react-router';
import { protectedPage } from '../features/auth/index.ts';
import { FileBrowser, nextBrowserSearch, ownMode, validateBrowserSearch } from '../features/files/index.ts';
import { folderQueryOptions } from '../features/items/index.ts';
import { warmSearchIndex } from '../features/search/index.ts';
import { primeQuery } from '../lib/prime-query.ts';
import { OWN_SCOPE } from '../model/browse-scope.ts';
import { rootRoute } from './root.tsx';

/** docs/product.md "Screens" 'My Files': the file browser in its own-tree mode. */
function FilesPage() {
  const search = filesRoute.useSearch();
  const navigate = filesRoute.useNavigate();
  return (
    <FileBrowser
      mode={ownMode}
      search={search}
      onSearchChange={(patch) => void navigate({ search: (prev) => nextBrowserSearch(prev, patch) })}
    />
  );
}

export const filesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/files',
  validateSearch: validateBrowserSearch,
  loaderDeps: ({ search }) => ({ parentId: search.parentId ?? null }),
  // The folder's listing before the first paint (a link's preload on intent too); the page reads
  // the same query and shows a refusal or an error in place.
  // The stored search index starts opening beside it (warmSearchIndex says why).
  loader: ({ context, deps }) => {
    warmSearchIndex();
    return primeQuery(context.queryClient, folderQueryOptions(OWN_SCOPE, deps.parentId, { firstItems: true }));
  },
  ...protectedPage(FilesPage),
});
