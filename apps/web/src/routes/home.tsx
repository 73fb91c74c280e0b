import { Link, createRoute } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { Button } from '@sealbox/ui';
import { signedInAtom } from '../features/auth/session.ts';
import { rootRoute } from './root.tsx';

function HomePage() {
  const signedIn = useAtomValue(signedInAtom);
  return (
    <section className="hero">
      <h1 className="hero__title">Your files, sealed before they leave your device.</h1>
      <p className="hero__lead">
        Sealbox encrypts names, types and contents in your browser. The server only ever stores what it cannot read.
      </p>
      <div className="hero__actions">
        {signedIn ? (
          <Button asChild size="lg">
            <Link to="/files">Open My Files</Link>
          </Button>
        ) : (
          <>
            <Button asChild size="lg">
              <Link to="/register">Get Started</Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/about">How it works</Link>
            </Button>
          </>
        )}
      </div>
    </section>
  );
}

export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/home',
  component: HomePage,
});
