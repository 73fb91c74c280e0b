import { createRoute } from '@tanstack/react-router';
import { protectedPage } from '../features/auth/protected-page.tsx';
import { FileBrowser } from '../features/files/FileBrowser.tsx';
import { validateBrowserSearch, type BrowserSearch } from '../features/files/browser-search.ts';
import { rootRoute } from './root.tsx';

/** Until sharing lands, nothing can have been shared: the browser shows its empty state. */
function SharedPage() {
  const search = sharedRoute.useSearch();
  const navigate = sharedRoute.useNavigate();
  return (
    <FileBrowser
      mode="shared"
      title="Files Shared with Me"
      search={search}
      onSearchChange={(patch: Partial<BrowserSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })}
    />
  );
}

export const sharedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/shared',
  validateSearch: validateBrowserSearch,
  ...protectedPage(SharedPage),
});
