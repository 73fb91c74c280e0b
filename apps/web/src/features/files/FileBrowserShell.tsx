import type { ReactNode } from 'react';
import { Button } from '@sealbox/ui';
import type { BrowserSearch, ViewMode } from './browser-search.ts';

export interface FileBrowserShellProps {
  title: string;
  search: BrowserSearch;
  onViewChange: (view: ViewMode) => void;
  children?: ReactNode;
}

/** The frame the file browser issue fills in: heading, view toggle, content. */
export function FileBrowserShell({ title, search, onViewChange, children }: FileBrowserShellProps) {
  const view = search.view ?? 'list';
  return (
    <section className="browser">
      <header className="browser__header">
        <h1>{title}</h1>
        <div className="browser__views" role="group" aria-label="View">
          {(['list', 'grid'] as const).map((mode) => (
            <Button
              key={mode}
              size="sm"
              variant={view === mode ? 'primary' : 'secondary'}
              aria-pressed={view === mode}
              onClick={() => onViewChange(mode)}
            >
              {mode === 'list' ? 'List' : 'Grid'}
            </Button>
          ))}
        </div>
      </header>
      <div className={`browser__body browser__body--${view}`}>{children}</div>
    </section>
  );
}
