import { createRoute } from '@tanstack/react-router';
import { protectedPage } from '../features/auth/index.ts';
import { FileBrowser, nextBrowserSearch, sharedMode, validateBrowserSearch } from '../features/files/index.ts';
import { rootRoute } from './root.tsx';

/** SPEC 2 'Files Shared with Me': the file browser in its shared-with-me mode. */
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
  ...protectedPage(SharedPage),
});
