import type { ReactNode } from 'react';
import { Link, createRoute } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { Button, StrokeIcon } from '@sealbox/ui';
import { signedInAtom } from '../features/auth/index.ts';
import { rootRoute } from './root.tsx';
import './home.css';

/** The page's illustrations: larger and with a lighter stroke than the app's control icons. */
const homeIcon = (drawing: ReactNode) => (
  <StrokeIcon size={28} strokeWidth={1.7}>
    {drawing}
  </StrokeIcon>
);

const KEY_ICON = homeIcon(
  <>
    <circle cx="8" cy="15" r="4" />
    <path d="m10.8 12.2 8.2-8.2M16 7l2 2M14 9l2 2" />
  </>,
);
const LOCK_ICON = homeIcon(
  <>
    <rect x="4" y="10" width="16" height="11" rx="2" />
    <path d="M8 10V7a4 4 0 0 1 8 0v3M12 14v3" />
  </>,
);
const SHARE_ICON = homeIcon(
  <>
    <circle cx="6" cy="12" r="2.5" />
    <circle cx="18" cy="6" r="2.5" />
    <circle cx="18" cy="18" r="2.5" />
    <path d="m8.3 10.8 7.4-3.6M8.3 13.2l7.4 3.6" />
  </>,
);
const SERVER_ICON = homeIcon(
  <>
    <rect x="3" y="4" width="18" height="7" rx="1.5" />
    <rect x="3" y="13" width="18" height="7" rx="1.5" />
    <path d="M7 7.5h.01M7 16.5h.01M11 7.5h6M11 16.5h6" />
  </>,
);

function Step({ n, icon, title, children }: { n: number; icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="home-step">
      <div className="home-step__icon">{icon}</div>
      <h3>
        <span className="home-step__n">{n}.</span> {title}
      </h3>
      <p>{children}</p>
    </li>
  );
}

function HomePage() {
  const signedIn = useAtomValue(signedInAtom);
  const actions = signedIn ? (
    <Button asChild size="lg">
      <Link to="/files">Open My Files</Link>
    </Button>
  ) : (
    <>
      <Button asChild size="lg">
        <Link to="/register">Get Started</Link>
      </Button>
      <Button asChild size="lg" variant="secondary">
        <Link to="/login">Sign in</Link>
      </Button>
    </>
  );

  return (
    <div className="home">
      <section className="hero">
        <p className="hero__eyebrow">End-to-end encrypted drive you can host yourself</p>
        <h1 className="hero__title">Your files, sealed before they leave your device.</h1>
        <p className="hero__lead">
          Sealbox encrypts names, types and contents in your browser. The server only ever stores what it cannot read, and that
          server can be your own.
        </p>
        <div className="hero__actions">{actions}</div>
      </section>

      <section className="home-section" aria-labelledby="how-title">
        <h2 id="how-title">How the encryption works, in plain words</h2>
        <ol className="home-steps">
          <Step n={1} icon={KEY_ICON} title="Your password stays with you">
            When you sign in, your browser turns your password into a one-way hash and only that is sent. Your private keys travel
            sealed, and only your password opens them, on your device.
          </Step>
          <Step n={2} icon={LOCK_ICON} title="Everything is locked before upload">
            Each file and folder gets its own random key. Contents, file names and types are encrypted with it before a single
            byte is uploaded, and any tampering is detected when you open them.
          </Step>
          <Step n={3} icon={SHARE_ICON} title="Sharing hands over keys, not trust">
            Sharing with someone wraps the file’s key for them alone. A share link carries its key after the <code>#</code>, the
            part of an address browsers never send to a server.
          </Step>
        </ol>
      </section>

      <section className="home-section home-compare" aria-labelledby="sees-title">
        <h2 id="sees-title">What the server can and cannot see</h2>
        <div className="home-compare__grid">
          <div className="home-compare__col">
            <h3>It stores</h3>
            <ul>
              <li>Encrypted blobs of the sizes you upload</li>
              <li>Your username and, if you give one, an email address</li>
              <li>Who shares which item with whom</li>
            </ul>
          </div>
          <div className="home-compare__col home-compare__col--never">
            <h3>It never sees</h3>
            <ul>
              <li>Your password or your private keys</li>
              <li>File contents, file names or file types</li>
              <li>The key inside a share link</li>
            </ul>
          </div>
        </div>
      </section>

      <section className="home-section home-host" aria-labelledby="host-title">
        <div className="home-host__icon">{SERVER_ICON}</div>
        <div>
          <h2 id="host-title">Yours to host</h2>
          <p>
            Sealbox runs on your own machine with a single command: an embedded database and local disk are all it needs. When you
            outgrow one machine, point it at PostgreSQL and any S3-compatible store and run as many instances as you like. Your
            data stays on hardware you choose, and the encryption formats are documented so nothing is locked in.
          </p>
        </div>
      </section>

      <section className="home-cta" aria-labelledby="cta-title">
        <h2 id="cta-title">{signedIn ? 'Your files are waiting.' : 'Start with an account in under a minute.'}</h2>
        <p className="muted">No email address needed. Your keys are created in this browser.</p>
        <div className="hero__actions">{actions}</div>
        <p className="muted">
          Curious first? <Link to="/about">Read more about Sealbox</Link>.
        </p>
      </section>
    </div>
  );
}

export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/home',
  component: HomePage,
});
