import { useState } from 'react';
import { createRoute } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PROFILE_QUERY_KEY, protectedPage } from '../features/auth/index.ts';
import {
  BrowserBody,
  BrowserControls,
  BrowserFrame,
  BrowserHeader,
  BrowserMain,
  BrowserPath,
  BrowserToolbar,
  EmptyState,
  NEW_FOLDER_BLOCKED_TEXT,
  UPLOAD_BLOCKED_TEXT,
  UploadButton,
  useBrowserView,
  validateBrowserSearch,
  type BrowserSearch,
} from '../features/files/index.ts';
import { rootRoute } from './root.tsx';

const HOME = [{ id: null, label: 'Home' }];
const nothing = () => {};

/**
 * SPEC 2 'Files Shared with Me'. Until sharing lands nothing can have been shared: the frame
 * with its empty state; no uploads, folders or search here.
 */
function SharedPage() {
  const search = sharedRoute.useSearch();
  const navigate = sharedRoute.useNavigate();
  const onSearchChange = (patch: Partial<BrowserSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) });
  const queryClient = useQueryClient();
  const { view, sort } = useBrowserView(search);
  const [refreshing, setRefreshing] = useState(false);
  // Nothing is listed here yet: Refresh fetches the profile (its quota in the sidebar).
  const refresh = () => {
    setRefreshing(true);
    void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }).finally(() => setRefreshing(false));
  };

  return (
    <BrowserFrame active="shared" folderId={null} onNewFolder={nothing} newFolderBlocked={NEW_FOLDER_BLOCKED_TEXT}>
      <BrowserMain>
        <BrowserHeader title="Files Shared with Me">
          <UploadButton blocked={UPLOAD_BLOCKED_TEXT} onClick={nothing} />
        </BrowserHeader>
        <BrowserToolbar>
          <BrowserPath
            crumbs={HOME}
            onNavigate={(id) => onSearchChange({ parentId: id ?? undefined })}
            onRefresh={refresh}
            busy={refreshing}
          />
          <BrowserControls view={view} sort={sort} onSearchChange={onSearchChange} />
        </BrowserToolbar>
        <BrowserBody view={view}>
          <EmptyState text="No files have been shared with you yet" />
        </BrowserBody>
      </BrowserMain>
    </BrowserFrame>
  );
}

export const sharedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/shared',
  validateSearch: validateBrowserSearch,
  ...protectedPage(SharedPage),
});
