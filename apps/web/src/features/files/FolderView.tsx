import { Button } from '@sealbox/ui';
import { isNoAccess } from '../../lib/http-status-error.ts';
import type { ItemView } from '../../model/items.ts';
import { type FolderListing, SORT_LABELS } from '../items/index.ts';
import { BrowserBody } from './BrowserFrame.tsx';
import type { BrowserSearch, ViewMode } from './browser-search.ts';
import type { usePages, useTreeSearch } from './browser-state.ts';
import { FolderContents, type FolderContentsProps } from './FolderContents.tsx';
import { Pagination } from './Pagination.tsx';
import { SearchResults } from './SearchResults.tsx';
import { nextSort, type Sort } from './sorting.ts';
import './empty-states.css';

export interface FolderViewProps
  extends Pick<
    FolderContentsProps,
    'users' | 'myUserId' | 'onOpen' | 'onAction' | 'onSelection' | 'onHome' | 'homeLabel' | 'downloadBlocked' | 'emptyText'
  > {
  view: ViewMode;
  sort: Sort | undefined;
  /** Sorting by a column header goes into the URL's search params. */
  onSearchChange: (patch: Partial<BrowserSearch>) => void;
  listing: { isPending: boolean; isError: boolean; data?: unknown; error?: unknown };
  /** Every item of the folder, in the order shown; `pages` the page of it on screen. */
  sorted: readonly ItemView[];
  pages: ReturnType<typeof usePages<ItemView>>;
  finder: ReturnType<typeof useTreeSearch>;
  locationOf: (item: ItemView) => string;
  onJump: (folderId: string | null) => void;
  /** Opens a file found by search (the previewer, marked as from search). */
  onOpenResult?: ((item: ItemView) => void) | undefined;
}

/**
 * docs/web-files.md "Opening a large folder": said while only a large folder's first items are in
 * (every name shown is opened; the order is over those items until the whole folder is), or only
 * the first shares of /shared (every grant shown is checked).
 */
export function openingText(partial: NonNullable<FolderListing['partial']>, sort: Sort | undefined): string {
  const shares = partial.of === 'shares';
  if (partial.failed)
    return shares
      ? `Only the first ${partial.shown} shared items could be opened. Refresh to try again.`
      : `Only the first ${partial.shown} items of this folder could be opened. Refresh to try again.`;
  const order = sort ? `, sorted among themselves by ${SORT_LABELS[sort.sortBy].toLowerCase()}` : '';
  const at = partial.opening;
  const share =
    at && at.total > 0
      ? `: ${Math.floor((100 * at.opened) / at.total)} % of ${at.total.toLocaleString('en-US')} ${shares ? 'shares' : 'names'}`
      : '';
  return shares
    ? `Opening the rest of what is shared with you${share}… The first ${partial.shown} items are shown${order}.`
    : `Opening the rest of this folder${share}… Its first ${partial.shown} items are shown${order}.`;
}

function partialOf(data: unknown): FolderListing['partial'] {
  return typeof data === 'object' && data !== null && 'partial' in data ? (data as FolderListing).partial : undefined;
}

export const NO_ACCESS_TEXT = 'You do not have access to this folder.';

/** A folder refused with 403/404 (another user's id in the URL, a share revoked): say so, with a way back. */
function NoAccess({ onHome, homeLabel = 'Back to My Files' }: { onHome: () => void; homeLabel?: string | undefined }) {
  return (
    <div className="empty-state no-access" role="alert">
      <strong>{NO_ACCESS_TEXT}</strong>
      <span>It may have been deleted, or its owner no longer shares it with you.</span>
      <Button variant="secondary" onClick={onHome}>
        {homeLabel}
      </Button>
    </div>
  );
}

/** What a browser route shows below its toolbar: the search results, or the folder's page and the page controls. */
export function FolderView({
  view,
  sort,
  onSearchChange,
  listing,
  sorted,
  pages,
  finder,
  locationOf,
  onJump,
  onOpenResult,
  ...contents
}: FolderViewProps) {
  const failed = listing.isError && !listing.data;
  // Refused outright, or refused now after it was shown (a share revoked while open): the
  // listing kept from before is no longer the user's to see.
  if (listing.isError && !finder.searching && isNoAccess(listing.error)) {
    return (
      <BrowserBody view={view}>
        <NoAccess onHome={contents.onHome} homeLabel={contents.homeLabel} />
      </BrowserBody>
    );
  }
  const partial = partialOf(listing.data);
  return (
    <>
      {partial && !finder.searching && (
        <p className="browser__opening" role={partial.failed ? 'alert' : 'status'}>
          {openingText(partial, sort)}
        </p>
      )}
      <BrowserBody view={view}>
        {finder.searching ? (
          <SearchResults
            // Loading, not merely pending: a search held back (on /shared, until the shared list
            // loads) would otherwise spin for good when what it waits for failed. While only the
            // first shares are in, /shared's search waits for the whole list (docs/web-files.md
            // "The first shares of /shared"), unless the index answers.
            pending={finder.tree.isLoading || (partial !== undefined && !partial.failed && finder.tree.data === undefined)}
            results={finder.results}
            total={finder.total}
            locationOf={locationOf}
            onJump={onJump}
            // A partial answer's files have no mime type or size yet: they open once it is whole.
            onOpen={finder.partial ? undefined : onOpenResult}
          />
        ) : (
          <FolderContents
            {...contents}
            status={listing.isPending ? 'pending' : failed ? 'error' : 'ready'}
            total={sorted.length}
            items={pages.items}
            view={view}
            sort={sort}
            onSort={(column) => {
              const next = nextSort(sort ?? {}, column);
              onSearchChange({ sortBy: next.sortBy, sortOrder: next.sortOrder });
            }}
          />
        )}
      </BrowserBody>
      {!finder.searching && sorted.length > 0 && <Pagination {...pages} />}
    </>
  );
}
