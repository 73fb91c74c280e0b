/**
 * What makes one file browser screen differ from another (docs/web-files.md "One browser, its
 * modes"): My Files, Files Shared with Me and a share link are one component, FileBrowser, each
 * configured by a mode. A mode names its title, its browse scope and the place of the sidebar it
 * stands for, and reads, for the folder the URL names, what the browser shows there: the
 * listing, the path, the rights, where uploads go, what search looks through, and so on.
 */
import type { BrowseScope } from '../../model/browse-scope.ts';
import type { ItemView } from '../../model/items.ts';
import type { FolderListing } from '../items/index.ts';
import type { SearchSection } from '../search/index.ts';
import type { Crumb } from './breadcrumbs.ts';
import type { TreeSource } from './browser-state.ts';
import type { ItemRules } from './item-rules.ts';
import type { Sort } from './sorting.ts';

/** The listing on screen as the browser needs it (a query's state, its data once here). */
export interface PlaceListing {
  data?: FolderListing | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error?: unknown;
}

/** Facts under the heading (a link: view only or can edit, until when) and the download of the whole place. */
export interface PlaceAbout {
  /** What the facts are about, for a screen reader ("About this link"). */
  label?: string | undefined;
  facts: string[];
  download?: { item: ItemView; label: string } | undefined;
}

/** A mode's own action in the header (the trash's Empty trash), confirmed in a dialog first. */
export interface PlaceAction {
  label: string;
  /** Why it is unavailable (nothing to do), if it is. */
  blocked?: string | undefined;
  confirm: { title: string; description: string; confirmLabel: string };
  /** Does it; its own toasts say how it went. */
  run: () => Promise<void>;
}

/** What a mode reads for the folder shown. */
export interface BrowserPlace {
  /** The heading when it depends on the place (a link: who shared what); the mode's title otherwise. */
  title?: string | undefined;
  about?: PlaceAbout | undefined;
  /** False: no sidebar (an anonymous link visitor has no places of their own to go to). */
  sidebar?: boolean | undefined;
  listing: PlaceListing;
  crumbs: Crumb[];
  /** Why Upload and New Folder are refused here (undefined: allowed). */
  rights: { uploadBlocked?: string | undefined; newFolderBlocked?: string | undefined };
  /** The folder uploads and new folders go into. */
  target: string | null;
  /** The drop zone's name for that folder. */
  folderName: string;
  /** Where search looks (fetched only while a query is typed). */
  tree: TreeSource;
  /** False: no search box here (a link to one file). */
  searchable?: boolean | undefined;
  /** Where an item lives, said from the path shown and the search tree. */
  locationOf: (tree: FolderListing | undefined, searching: boolean) => (item: ItemView) => string;
  /** The folder Jump to Folder opens for a search result in `folderId`. */
  jumpTarget?: ((tree: FolderListing | undefined, folderId: string | null) => string | null) | undefined;
  /** Fetches the listing (and what it depends on) again; search refreshes itself. */
  refresh: () => void;
  /** A warning above the listing (a share that did not verify). */
  warning?: string | undefined;
  emptyText?: string | undefined;
  /** Where moves stay when it is not My Files (docs/web-files.md). */
  moveRoot?: { rootId: string | null; rootLabel: string } | undefined;
  itemRules?: ItemRules | undefined;
  /**
   * Items elsewhere the rename dialog must not clash with (search results, by their own folder):
   * the search tree's when undefined.
   */
  knownItems?: readonly ItemView[] | undefined;
  /** In the header instead of Upload File (the trash: Empty trash). */
  action?: PlaceAction | undefined;
  /** /trash: puts items back where they were. */
  onRestore?: ((items: ItemView[]) => void) | undefined;
  /** Whether the item menu's Share opens the share dialog here. */
  share: boolean;
  onRemoveShare?: ((item: ItemView) => void) | undefined;
  onBlockSharer?: ((item: ItemView) => void) | undefined;
  /** After the upload dialog closes (what it changed refreshes by itself; a mode may add to it). */
  onUploadClosed?: (() => void) | undefined;
}

/** What every mode gets to read its place with. */
export interface PlaceContext {
  sort: Sort | undefined;
  myUserId: string | undefined;
}

export interface BrowserMode {
  title: string;
  /** The sidebar place this mode stands for. */
  active: 'files' | 'shared' | 'link' | 'trash';
  scope: BrowseScope;
  /** The way back from a folder refused (a share revoked): the button's text. */
  homeLabel?: string | undefined;
  /** The URL's parentId for folder `id` (null: this mode's top). */
  parentParam?: ((id: string | null) => string | undefined) | undefined;
  /** A hook: the same function on every render of one browser. */
  usePlace: (parentId: string | null, context: PlaceContext) => BrowserPlace;
  /** Search goes through this section of the sealed local index when it holds it (docs/web-files.md "Search"). */
  indexedSearch?: SearchSection | undefined;
}
