/**
 * docs/product.md "Screens" search over the whole tree: matches with where they are, and a jump to
 * their folder.
 */
import { Button, Spinner, cx } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import { EmptyState } from './FolderContents.tsx';
import { displayName } from './format.ts';
import { Icon } from './icons.tsx';
import { UnverifiedMark } from './ItemViews.tsx';
import './buttons.css';
import './empty-states.css';
import './item-views.css';
import './search-results.css';

export interface SearchResultsProps {
  pending: boolean;
  results: ItemView[];
  /** "My Files / a / b" of an item. */
  locationOf: (item: ItemView) => string;
  onJump: (folderId: string | null) => void;
  /** Opens a file of the results (the previewer, without previous/next); folders only jump. */
  onOpen?: ((item: ItemView) => void) | undefined;
  /** How many matched in all, when more than `results` (the search index brings back the first 1,000). */
  total?: number | undefined;
}

export function SearchResults({ pending, results, locationOf, onJump, onOpen, total }: SearchResultsProps) {
  if (pending) {
    return (
      <div className="browser__loading">
        <Spinner label="Searching your files" />
      </div>
    );
  }
  if (results.length === 0) return <EmptyState title="No files found" />;
  const more = total !== undefined && total > results.length;
  return (
    <>
      {more && (
        <p className="search-results__more" role="status">
          The first {results.length.toLocaleString('en')} of {total.toLocaleString('en')} matches: type more to narrow it down.
        </p>
      )}
      <ul className="sb-boxed-list search-results" aria-label="Search results">
        {results.map((item) => (
          <li key={item.id} className="search-result">
            <span className={cx('item-icon')} aria-hidden="true">
              {item.isDirectory ? Icon.folder() : Icon.file()}
            </span>
            <span className="search-result__text">
              {onOpen && !item.isDirectory && item.decrypted ? (
                <button type="button" className="search-result__name link-button" onClick={() => onOpen(item)}>
                  {displayName(item)}
                </button>
              ) : (
                <span className="search-result__name">{displayName(item)}</span>
              )}
              <span className="search-result__where">{locationOf(item)}</span>
            </span>
            {item.untrusted ? <UnverifiedMark /> : null}
            <Button size="sm" variant="secondary" onClick={() => onJump(item.parentId)}>
              Jump to Folder
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}
