import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../features/auth/guard.ts';
import { FileBrowserShell } from '../features/files/FileBrowserShell.tsx';
import { validateBrowserSearch } from '../features/files/browser-search.ts';
import { rootRoute } from './root.tsx';

function SharedPage() {
  const search = sharedRoute.useSearch();
  const navigate = sharedRoute.useNavigate();
  return (
    <FileBrowserShell
      title="Files Shared with Me"
      search={search}
      onViewChange={(view) => void navigate({ search: (prev) => ({ ...prev, view }) })}
    >
      <p className="empty-state">
        <strong>No files found</strong>
        <span>No files have been shared with you yet</span>
      </p>
    </FileBrowserShell>
  );
}

export const sharedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/shared',
  validateSearch: validateBrowserSearch,
  beforeLoad: requireSignedIn,
  component: SharedPage,
});
