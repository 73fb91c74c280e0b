/**
 * The frame every browser screen shares (docs/product.md "Screens"): the sidebar (an overlay under
 * the mobile breakpoint) beside the main column. Routes fill it with the parts they show.
 */
import { useEffect, type ReactNode } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Button, TooltipProvider, cx } from '@sealbox/ui';
import { Icon } from './icons.tsx';
import { PendingChanges } from './PendingChanges.tsx';
import { Sidebar, sidebarCollapsedAtom, sidebarOpenAtom, type SidebarProps } from './Sidebar.tsx';
import { MOBILE_BREAKPOINT, useViewportWidth } from './useViewportWidth.ts';
import type { ViewMode } from './browser-search.ts';
import './browser-frame.css';

export interface BrowserFrameProps extends Omit<SidebarProps, 'mobile'> {
  /** The folder shown: the overlay sidebar closes when it changes. */
  folderId: string | null;
  children: ReactNode;
}

export function BrowserFrame({ folderId, children, ...sidebar }: BrowserFrameProps) {
  const mobile = useViewportWidth() < MOBILE_BREAKPOINT;
  const collapsed = useAtomValue(sidebarCollapsedAtom);
  const [sidebarOpen, setSidebarOpen] = useAtom(sidebarOpenAtom);

  // The overlay sidebar closes on navigation and when the screen grows past the breakpoint.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the folder, the active link and the breakpoint are triggers
  useEffect(() => setSidebarOpen(false), [folderId, sidebar.active, mobile, setSidebarOpen]);
  useEffect(() => {
    if (!(mobile && sidebarOpen)) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setSidebarOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mobile, sidebarOpen, setSidebarOpen]);

  const sidebarShift = mobile ? 'browser--mobile' : collapsed ? 'browser--collapsed' : 'browser--expanded';
  return (
    <TooltipProvider>
      <div className={cx('browser', sidebarShift)}>
        <Sidebar {...sidebar} mobile={mobile} />
        {mobile && sidebarOpen && <div className="browser__scrim" onClick={() => setSidebarOpen(false)} aria-hidden="true" />}
        {children}
      </div>
    </TooltipProvider>
  );
}

/** The main column: header, toolbar, body and pagination, named by the header's title. */
export function BrowserMain({ children }: { children: ReactNode }) {
  return (
    <section className="browser__main" aria-labelledby="browser-title">
      <PendingChanges />
      {children}
    </section>
  );
}

/** The title and the screen's main action (on small screens the navbar's menu button opens the sidebar). */
export function BrowserHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="browser__header">
      <div className="browser__heading">
        <h1 id="browser-title">{title}</h1>
      </div>
      {children}
    </header>
  );
}

/**
 * Upload File, shown only where the user may upload: a viewer gets no greyed-out button, whose reason a phone
 * could not show (docs/web-files.md "Phone and browser conventions").
 */
export function UploadButton({ blocked, onClick }: { blocked: string | undefined; onClick: () => void }) {
  if (blocked !== undefined) return null;
  return (
    <Button onClick={onClick}>
      {Icon.upload(18)}
      Upload File
    </Button>
  );
}

/** Where the listing, the search results or an empty state go. */
export function BrowserBody({ view, children }: { view: ViewMode; children: ReactNode }) {
  return <div className={`browser__body browser__body--${view}`}>{children}</div>;
}
