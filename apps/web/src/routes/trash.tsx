import { createRoute } from '@tanstack/react-router';
import { protectedPage } from '../features/auth/index.ts';
import { FileBrowser, nextBrowserSearch, trashMode, validateBrowserSearch } from '../features/files/index.ts';
import { trashQueryOptions } from '../features/trash/index.ts';
import { primeQuery } from '../lib/prime-query.ts';
import { rootRoute } from './root.tsx';

/** docs/web-files.md "Trash": the file browser in its trash mode. */
function TrashPage() {
  const search = trashRoute.useSearch();
  const navigate = trashRoute.useNavigate();
  return (
    <FileBrowser
      mode={trashMode}
      search={search}
      onSearchChange={(patch) => void navigate({ search: (prev) => nextBrowserSearch(prev, patch) })}
    />
  );
}

export const trashRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/trash',
  validateSearch: validateBrowserSearch,
  loader: ({ context }) => primeQuery(context.queryClient, trashQueryOptions()),
  ...protectedPage(TrashPage),
});
