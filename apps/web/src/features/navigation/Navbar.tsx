import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, useLocation } from '@tanstack/react-router';
import { useAtom, useAtomValue } from 'jotai';
import { DRAWER_ID, drawerOpenAtom, drawerSlotAtom } from '../../lib/drawer.ts';
import { Button, StrokeIcon, cx } from '@sealbox/ui';
import { signedInAtom, useAvatarUrl, useLogout, useProfile } from '../auth/index.ts';
import { LiveStatusIndicator } from '../live/index.ts';
import { ThemeSwitcher } from './ThemeSwitcher.tsx';
import { useScrolledPast } from './useScrolledPast.ts';
import './navbar.css';

export function Navbar() {
  const signedIn = useAtomValue(signedInAtom);
  const scrolled = useScrolledPast();
  const pathname = useLocation({ select: (location) => location.pathname });
  const [menuOpen, setMenuOpen] = useState(false);
  const { logout: onLogout, loggingOut } = useLogout();
  const profile = useProfile();
  const avatar = useAvatarUrl(profile);
  // A page with a drawer on small screens (the file browser) takes the links into it, and the
  // one menu button opens that drawer.
  const drawerSlot = useAtomValue(drawerSlotAtom);
  const [drawerOpen, setDrawerOpen] = useAtom(drawerOpenAtom);

  // The collapsed menu closes once the user has gone somewhere.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is the trigger
  useEffect(() => setMenuOpen(false), [pathname]);

  const links = (
    <>
      <div className="navbar__links">
        <Link to="/about" className="navbar__link" activeProps={{ 'aria-current': 'page' }}>
          About
        </Link>
        {signedIn && (
          <Link to="/files" className="navbar__link" activeProps={{ 'aria-current': 'page' }}>
            Files
          </Link>
        )}
      </div>
      <div className="navbar__actions">
        <ThemeSwitcher />
        {signedIn ? (
          <>
            <Button asChild variant="ghost" className="navbar__account">
              <Link to="/profile">Profile</Link>
            </Button>
            <Button variant="secondary" className="navbar__account" onClick={() => void onLogout()} disabled={loggingOut}>
              Logout
            </Button>
            <Link
              to="/profile"
              className="navbar__avatar navbar__account"
              aria-label={`Your profile${profile ? `, ${profile.username}` : ''}`}
              title={profile?.username}
            >
              {avatar ? (
                <img src={avatar} alt="" width={34} height={34} />
              ) : (
                <span className="navbar__avatar-placeholder" aria-hidden="true" />
              )}
              <span className="navbar__avatar-name" aria-hidden="true">
                {profile?.username}
              </span>
            </Link>
          </>
        ) : (
          <>
            <Button asChild variant="ghost">
              <Link to="/login">Sign in</Link>
            </Button>
            <Button asChild>
              <Link to="/register">Get Started</Link>
            </Button>
          </>
        )}
      </div>
    </>
  );

  return (
    <header className={cx('navbar', scrolled && 'navbar--scrolled', menuOpen && 'navbar--open')}>
      <nav className="navbar__inner" aria-label="Main">
        <Link to="/" className="navbar__brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Sealbox</span>
        </Link>
        {/* Outside the collapsible menu, so it shows on small screens too. */}
        <LiveStatusIndicator />
        <button
          type="button"
          className="navbar__toggle"
          aria-expanded={drawerSlot ? drawerOpen : menuOpen}
          aria-controls={drawerSlot ? DRAWER_ID : 'navbar-menu'}
          onClick={() => (drawerSlot ? setDrawerOpen(true) : setMenuOpen((open) => !open))}
        >
          <span className="sb-visually-hidden">Menu</span>
          <StrokeIcon size={22} strokeLinejoin={undefined}>
            {menuOpen && !drawerSlot ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </StrokeIcon>
        </button>
        {drawerSlot ? (
          createPortal(<div className="site-menu">{links}</div>, drawerSlot)
        ) : (
          <div id="navbar-menu" className="navbar__menu">
            {links}
          </div>
        )}
      </nav>
    </header>
  );
}
