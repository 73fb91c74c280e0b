/**
 * The frame every browser screen shares (docs/product.md "Screens"): the sidebar (an overlay under
 * the mobile breakpoint) beside the main column. Routes fill it with the parts they show.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Button, Dialog, Tooltip, TooltipProvider, cx } from '@sealbox/ui';
import { Icon } from './icons.tsx';
import { PendingChanges } from './PendingChanges.tsx';
import { Sidebar, sidebarCollapsedAtom, sidebarOpenAtom, type SidebarProps } from './Sidebar.tsx';
import { MOBILE_BREAKPOINT, useViewportWidth } from './useViewportWidth.ts';
import type { ItemView } from '../../model/items.ts';
import type { PlaceAbout, PlaceAction } from './browser-mode.ts';
import type { ViewMode } from './browser-search.ts';
import './browser-frame.css';

export interface BrowserFrameProps extends Omit<SidebarProps, 'mobile'> {
  /** The folder shown: the overlay sidebar closes when it changes. */
  folderId: string | null;
  /** False: the main column alone (an anonymous link visitor has no places of their own). */
  withSidebar?: boolean;
  children: ReactNode;
}

export function BrowserFrame({ folderId, withSidebar = true, children, ...sidebar }: BrowserFrameProps) {
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

  const sidebarShift = mobile
    ? 'browser--mobile'
    : !withSidebar
      ? 'browser--bare'
      : collapsed
        ? 'browser--collapsed'
        : 'browser--expanded';
  return (
    <TooltipProvider>
      <div className={cx('browser', sidebarShift)}>
        {withSidebar && <Sidebar {...sidebar} mobile={mobile} />}
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

/**
 * The title and the screen's main action (on small screens the navbar's menu button opens the
 * sidebar); `about`, where the place says more of itself (a link's terms), under the title.
 */
export function BrowserHeader({ title, about, children }: { title: string; about?: ReactNode; children?: ReactNode }) {
  return (
    <header className="browser__header">
      <div className="browser__heading">
        <h1 id="browser-title">{title}</h1>
        {about}
      </div>
      <div className="browser__actions">{children}</div>
    </header>
  );
}

/** A place's facts as short tags, and the download of all of it (a link's "Download all"). */
export function PlaceFacts({ about, onDownload }: { about: PlaceAbout; onDownload: (item: ItemView) => void }) {
  const { download } = about;
  return (
    <div className="browser__about">
      <ul className="browser__facts" aria-label={about.label ?? 'About this link'}>
        {about.facts.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      {download && (
        <Button variant="secondary" size="sm" onClick={() => onDownload(download.item)}>
          {Icon.download(16)}
          {download.label}
        </Button>
      )}
    </div>
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

/** A mode's own action in the header (the trash's Empty trash), asked about first: it cannot be undone. */
export function PlaceActionButton({ action }: { action: PlaceAction }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await action.run();
      setOpen(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Tooltip content={action.blocked}>
        <Button variant="danger" onClick={() => setOpen(true)} disabled={action.blocked !== undefined}>
          {Icon.trash(18)}
          {action.label}
        </Button>
      </Tooltip>
      <Dialog
        open={open}
        onOpenChange={(next) => !next && !busy && setOpen(false)}
        title={action.confirm.title}
        description={action.confirm.description}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy} data-autofocus>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void run()} disabled={busy}>
              {action.confirm.confirmLabel}
            </Button>
          </>
        }
      />
    </>
  );
}

/** New Folder in the header, where there is no sidebar to hold it; shown only where folders may be made. */
export function NewFolderButton({ blocked, onClick }: { blocked: string | undefined; onClick: () => void }) {
  if (blocked !== undefined) return null;
  return (
    <Button variant="secondary" onClick={onClick}>
      {Icon.folderPlus(18)}
      New Folder
    </Button>
  );
}

/** Where the listing, the search results or an empty state go. */
export function BrowserBody({ view, children }: { view: ViewMode; children: ReactNode }) {
  return <div className={`browser__body browser__body--${view}`}>{children}</div>;
}
