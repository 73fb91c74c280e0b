import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../features/auth/guard.ts';
import { FileBrowserShell } from '../features/files/FileBrowserShell.tsx';
import { validateBrowserSearch } from '../features/files/browser-search.ts';
import { rootRoute } from './root.tsx';

function FilesPage() {
  const search = filesRoute.useSearch();
  const navigate = filesRoute.useNavigate();
  return (
    <FileBrowserShell
      title="My Files"
      search={search}
      onViewChange={(view) => void navigate({ search: (prev) => ({ ...prev, view }) })}
    >
      <p className="empty-state">
        <strong>No files found</strong>
        <span>Upload a file to get started</span>
      </p>
    </FileBrowserShell>
  );
}

export const filesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/files',
  validateSearch: validateBrowserSearch,
  beforeLoad: requireSignedIn,
  component: FilesPage,
});
