/** The row under the title: where you are (breadcrumbs, refresh) and how it is shown (search, sort, view). */
import type { ReactNode } from 'react';
import { Button, Menu, MenuChoices, cx, type MenuChoice } from '@sealbox/ui';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import type { Crumb } from './breadcrumbs.ts';
import { SORT_KEYS, type BrowserSearch, type SortKey, type ViewMode } from './browser-search.ts';
import { Icon } from './icons.tsx';
import { SORT_LABELS } from '../items/index.ts';
import type { Sort } from './sorting.ts';
import './buttons.css';
import './toolbar.css';

export function BrowserToolbar({ children }: { children: ReactNode }) {
  return <div className="browser__toolbar">{children}</div>;
}

export interface BrowserPathProps {
  crumbs: Crumb[];
  onNavigate: (id: string | null) => void;
  onRefresh: () => void;
  /** Something shown here is being fetched (the refresh icon turns). */
  busy: boolean;
}

export function BrowserPath({ crumbs, onNavigate, onRefresh, busy }: BrowserPathProps) {
  return (
    <div className="browser__path">
      <Breadcrumbs crumbs={crumbs} onNavigate={onNavigate} />
      <Button
        size="sm"
        variant="ghost"
        onClick={onRefresh}
        aria-label="Refresh"
        title="Refresh"
        className={cx('refresh', busy && 'refresh--busy')}
      >
        {Icon.refresh(16)}
      </Button>
    </div>
  );
}

export interface BrowserControlsProps {
  /** The search box's text and its setter; without them the box is disabled. */
  search?: { query: string; onQuery: (query: string) => void };
  view: ViewMode;
  sort: Sort | undefined;
  /** Merges into the URL's search params; undefined values remove a param. */
  onSearchChange: (patch: Partial<BrowserSearch>) => void;
}

export function BrowserControls({ search, view, sort, onSearchChange }: BrowserControlsProps) {
  return (
    <div className="browser__controls">
      <label className="search-box">
        {Icon.search(16)}
        <span className="sb-visually-hidden">Search files</span>
        <input
          type="search"
          placeholder="Search files..."
          value={search?.query ?? ''}
          onChange={(e) => search?.onQuery(e.target.value)}
          disabled={search === undefined}
        />
      </label>
      {view === 'grid' && <SortControl sort={sort} onSearchChange={onSearchChange} />}
      <ViewToggle view={view} onChange={(next) => onSearchChange({ view: next })} />
    </div>
  );
}

const UNSORTED = 'none';
const SORT_CHOICES: MenuChoice<SortKey | typeof UNSORTED>[] = [
  { value: UNSORTED, label: 'Unsorted' },
  ...SORT_KEYS.map((key) => ({ value: key, label: SORT_LABELS[key] })),
];

/** The grid has no column headers: sort by a menu of keys (radix, like the app's other menus) and an order button. */
function SortControl({ sort, onSearchChange }: Pick<BrowserControlsProps, 'sort' | 'onSearchChange'>) {
  const shown = sort ? SORT_LABELS[sort.sortBy] : 'Sort by…';
  return (
    <div className="sort-control">
      <Menu
        align="start"
        label="Sort by"
        trigger={
          <button type="button" className="select-button" aria-label={`Sort by: ${sort ? shown : 'none'}`}>
            <span>{shown}</span>
            {Icon.chevronDown(16)}
          </button>
        }
      >
        <MenuChoices
          value={sort?.sortBy ?? UNSORTED}
          choices={SORT_CHOICES}
          onChange={(value) =>
            onSearchChange(
              value === UNSORTED
                ? { sortBy: undefined, sortOrder: undefined }
                : { sortBy: value, sortOrder: sort?.sortOrder ?? 'asc' },
            )
          }
        />
      </Menu>
      <Button
        size="sm"
        variant="secondary"
        disabled={!sort}
        onClick={() => sort && onSearchChange({ sortBy: sort.sortBy, sortOrder: sort.sortOrder === 'asc' ? 'desc' : 'asc' })}
        aria-label={sort?.sortOrder === 'desc' ? 'Sort descending' : 'Sort ascending'}
        title={sort?.sortOrder === 'desc' ? 'Descending' : 'Ascending'}
      >
        {sort?.sortOrder === 'desc' ? Icon.arrowDown(16) : Icon.arrowUp(16)}
      </Button>
    </div>
  );
}

function ViewToggle({ view, onChange }: { view: ViewMode; onChange: (view: ViewMode) => void }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would bring form semantics and its own frame to two buttons
    <div className="view-toggle" role="group" aria-label="View">
      {(['list', 'grid'] as const).map((mode) => (
        <button
          key={mode}
          type="button"
          className={cx('view-toggle__option', view === mode && 'view-toggle__option--active')}
          aria-pressed={view === mode}
          onClick={() => onChange(mode)}
          title={mode === 'list' ? 'List view' : 'Grid view'}
        >
          {mode === 'list' ? Icon.list(18) : Icon.grid(18)}
          <span className="sb-visually-hidden">{mode === 'list' ? 'List' : 'Grid'}</span>
        </button>
      ))}
    </div>
  );
}
