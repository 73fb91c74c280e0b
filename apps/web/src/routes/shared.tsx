import { createRoute } from '@tanstack/react-router';
import { protectedPage } from '../features/auth/index.ts';
import { FileBrowser, nextBrowserSearch, sharedMode, validateBrowserSearch } from '../features/files/index.ts';
import { folderQueryOptions } from '../features/items/index.ts';
import { sharedQueryOptions } from '../features/sharing/index.ts';
import { primeQuery } from '../lib/prime-query.ts';
import { SHARED_SCOPE } from '../model/browse-scope.ts';
import { rootRoute } from './root.tsx';

/** docs/product.md "Screens" 'Files Shared with Me': the file browser in its shared-with-me mode. */
function SharedPage() {
  const search = sharedRoute.useSearch();
  const navigate = sharedRoute.useNavigate();
  return (
    <FileBrowser
      mode={sharedMode}
      search={search}
      onSearchChange={(patch) => void navigate({ search: (prev) => nextBrowserSearch(prev, patch) })}
    />
  );
}

export const sharedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/shared',
  validateSearch: validateBrowserSearch,
  loaderDeps: ({ search }) => ({ parentId: search.parentId ?? null }),
  // The shares first (their grants hold the keys a shared folder opens with), then the folder.
  // At the top, the first shares are enough to show (docs/web-files.md "Opening a large folder").
  loader: async ({ context, deps }) => {
    await primeQuery(context.queryClient, sharedQueryOptions({ firstItems: deps.parentId === null }));
    if (deps.parentId !== null)
      await primeQuery(context.queryClient, folderQueryOptions(SHARED_SCOPE, deps.parentId, { firstItems: true }));
  },
  ...protectedPage(SharedPage),
});
