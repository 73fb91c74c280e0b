import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactNode, SetStateAction } from 'react';
import { atom, useAtom, useSetAtom } from 'jotai';
import { DRAWER_ID, drawerOpenAtom, drawerSlotAtom } from '../../lib/drawer.ts';
import { Menu, MenuItem, MenuSeparator, Tooltip, UsageBar, cx } from '@sealbox/ui';
import { useAvatarUrl, useLogout, useProfile } from '../auth/index.ts';
import { useTrashSummary } from '../trash/index.ts';
import { formatBytes, reservedPercent, storagePercent } from './format.ts';
import { Icon } from './icons.tsx';
import './buttons.css';
import './sidebar.css';

/** Where the collapsed choice is kept: a UI preference of this browser, like the theme. */
export const SIDEBAR_COLLAPSED_KEY = 'sealbox.sidebarCollapsed';

function storedCollapsed(): boolean {
  try {
    return globalThis.localStorage?.getItem(SIDEBAR_COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
}

const collapsedChoiceAtom = atom(storedCollapsed());

/**
 * Collapsed (70 px) or expanded (250 px) on wide screens; kept while moving between pages and
 * across reloads (docs/product.md "States": the sidebar's state is the user's choice).
 */
export const sidebarCollapsedAtom = atom(
  (get) => get(collapsedChoiceAtom),
  (get, set, next: SetStateAction<boolean>) => {
    const value = typeof next === 'function' ? next(get(collapsedChoiceAtom)) : next;
    set(collapsedChoiceAtom, value);
    try {
      globalThis.localStorage?.setItem(SIDEBAR_COLLAPSED_KEY, value ? '1' : '0');
    } catch {
      // Storage refused (private mode, quota): the choice lasts this page only.
    }
  },
);
/** Open or closed as an overlay (the drawer) under the mobile breakpoint; the navbar's menu button opens it. */
export const sidebarOpenAtom = drawerOpenAtom;

/** The sidebar's places (a link's page shows the sidebar to signed-in visitors only: docs/web-files.md). */
const PLACES = [
  { page: 'files', to: '/files', text: 'My Files', icon: Icon.home },
  { page: 'shared', to: '/shared', text: 'Shared with me', icon: Icon.users },
  { page: 'trash', to: '/trash', text: 'Trash', icon: Icon.trash },
] as const;

export interface SidebarProps {
  /** 'link': the browser in link mode (/share), where a signed-in visitor keeps their own places. */
  active: 'files' | 'shared' | 'link' | 'trash';
  mobile: boolean;
  onNewFolder: () => void;
  /** Why New Folder is disabled here (docs/product.md "Roles"), or undefined when it is allowed. */
  newFolderBlocked?: string | undefined;
}

export function Sidebar({ active, mobile, onNewFolder, newFolderBlocked }: SidebarProps) {
  const [collapsedWide, setCollapsed] = useAtom(sidebarCollapsedAtom);
  const [open, setOpen] = useAtom(sidebarOpenAtom);
  const collapsed = mobile ? false : collapsedWide;
  const close = () => mobile && setOpen(false);
  const setSlot = useSetAtom(drawerSlotAtom);

  const label = (text: string) => (collapsed ? <span className="sb-visually-hidden">{text}</span> : <span>{text}</span>);
  const tip = (text: string) => (collapsed ? text : undefined);

  return (
    <aside
      id={DRAWER_ID}
      className={cx(
        'sidebar',
        collapsed && 'sidebar--collapsed',
        mobile && 'sidebar--overlay',
        mobile && open && 'sidebar--open',
      )}
      aria-label="Files"
      {...(mobile && !open ? { inert: true, 'aria-hidden': true } : {})}
    >
      <div className="sidebar__top">
        {mobile ? (
          <button type="button" className="sidebar__toggle" onClick={() => setOpen(false)} aria-label="Close sidebar">
            {Icon.close(18)}
          </button>
        ) : (
          <button
            type="button"
            className="sidebar__toggle"
            onClick={() => setCollapsed((c) => !c)}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
            aria-controls="files-sidebar"
          >
            {collapsed ? Icon.chevronRight(18) : Icon.chevronLeft(18)}
          </button>
        )}
      </div>

      <Tooltip content={newFolderBlocked ?? tip('New Folder')} side="right">
        <button
          type="button"
          className="sidebar__new"
          onClick={() => {
            close();
            onNewFolder();
          }}
          disabled={newFolderBlocked !== undefined}
        >
          {Icon.folderPlus(20)}
          {label('New Folder')}
        </button>
      </Tooltip>

      <nav className="sidebar__nav" aria-label="Folders">
        <NavLinks active={active} tip={tip} label={label} close={close} />
      </nav>

      {/* The site's menu (the navbar's links), so small screens have one menu button. */}
      {mobile && <div ref={setSlot} className="sidebar__site-menu" />}

      <div className="sidebar__bottom">
        <AccountArea collapsed={collapsed} />
      </div>
    </aside>
  );
}

function NavLinks({
  active,
  tip,
  label,
  close,
}: {
  active: SidebarProps['active'];
  tip: (text: string) => string | undefined;
  label: (text: string) => ReactNode;
  close: () => void;
}) {
  return PLACES.map((place) => (
    <Tooltip key={place.page} content={tip(place.text)} side="right">
      <Link
        to={place.to}
        className={cx('sidebar__link', active === place.page && 'sidebar__link--active')}
        aria-current={active === place.page ? 'page' : undefined}
        onClick={close}
      >
        {place.icon(20)}
        {label(place.text)}
      </Link>
    </Tooltip>
  ));
}

/** Where the storage meter turns warning, then danger colour, and what it says then. */
export const STORAGE_LEVELS = [
  { from: 100, level: 'danger', text: 'Storage full' },
  { from: 95, level: 'danger', text: 'Almost out of space' },
  { from: 80, level: 'warning', text: 'Almost full' },
] as const;

export function storageLevel(percent: number) {
  return STORAGE_LEVELS.find((step) => percent >= step.from);
}

/** Storage meter and account menu of a signed-in user. */
function AccountArea({ collapsed }: { collapsed: boolean }) {
  const profile = useProfile();
  const trashBytes = useTrashSummary({ enabled: profile !== undefined }).data?.bytes ?? 0;
  const avatar = useAvatarUrl(profile);
  const { logout: onLogout } = useLogout();
  const navigate = useNavigate();
  const percent = profile ? storagePercent(profile.usedSpace, profile.totalSpace) : 0;
  const reserved = profile?.reservedSpace ?? 0;
  // Unfinished uploads hold their space too: "full" counts it (docs/protocol.md "Quota").
  const level = storageLevel(profile ? storagePercent(profile.usedSpace + reserved, profile.totalSpace) : 0);
  const said = [
    `${percent}% used`,
    ...(reserved > 0 ? [`${formatBytes(reserved)} reserved by unfinished uploads`] : []),
    ...(trashBytes > 0 ? [`${formatBytes(trashBytes)} in the trash`] : []),
    ...(level ? [level.text.toLowerCase()] : []),
  ].join(', ');
  return (
    <>
      {profile && (
        <div className={cx('storage', level && `storage--${level.level}`)} title={collapsed ? said : undefined}>
          {!collapsed && (
            <div className="storage__text">
              <span>Storage</span>
              <span>{percent}% used</span>
            </div>
          )}
          <UsageBar
            className="storage__bar"
            used={percent}
            reserved={reservedPercent(reserved, profile.totalSpace)}
            label="Storage used"
            valueText={said}
          />
          {level && !collapsed && <div className="storage__level">{level.text}</div>}
          {!collapsed && (
            <div className="storage__sizes">
              {formatBytes(profile.usedSpace)} of {formatBytes(profile.totalSpace)}
            </div>
          )}
          {!collapsed && trashBytes > 0 && (
            <Link to="/trash" className="storage__reserved" title="Counted until the trash is emptied">
              {formatBytes(trashBytes)} in the trash
            </Link>
          )}
          {!collapsed && reserved > 0 && (
            <Link to="/profile" hash="unfinished-title" className="storage__reserved" title="Held by unfinished uploads">
              {formatBytes(reserved)} reserved
            </Link>
          )}
        </div>
      )}
      <Menu
        align="start"
        side="top"
        label="Account"
        trigger={
          <button
            type="button"
            className="sidebar__account"
            aria-label={`Account menu${profile ? ` for ${profile.username}` : ''}`}
          >
            {avatar ? (
              <img src={avatar} alt="" width={32} height={32} className="sidebar__avatar" />
            ) : (
              <span className="sidebar__avatar" />
            )}
            {!collapsed && <span className="sidebar__username">{profile?.username ?? ''}</span>}
          </button>
        }
      >
        <MenuItem icon={Icon.user(16)} onSelect={() => void navigate({ to: '/profile' })}>
          Profile
        </MenuItem>
        <MenuItem icon={Icon.settings(16)} onSelect={() => void navigate({ to: '/profile', hash: 'preferences-title' })}>
          Preferences
        </MenuItem>
        <MenuSeparator />
        <MenuItem icon={Icon.logout(16)} onSelect={() => void onLogout()}>
          Log out
        </MenuItem>
      </Menu>
    </>
  );
}
