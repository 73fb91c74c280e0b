import { createRoute } from '@tanstack/react-router';
import { protectedPage } from '../features/auth/protected-page.tsx';
import { FileBrowser } from '../features/files/FileBrowser.tsx';
import { validateBrowserSearch, type BrowserSearch } from '../features/files/browser-search.ts';
import { rootRoute } from './root.tsx';

function FilesPage() {
  const search = filesRoute.useSearch();
  const navigate = filesRoute.useNavigate();
  return (
    <FileBrowser
      mode="files"
      title="My Files"
      search={search}
      onSearchChange={(patch: Partial<BrowserSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })}
    />
  );
}

export const filesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/files',
  validateSearch: validateBrowserSearch,
  ...protectedPage(FilesPage),
});
