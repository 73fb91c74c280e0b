import { createRoute } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { Card } from '@sealbox/ui';
import { requireSignedIn } from '../features/auth/guard.ts';
import { sessionAtom } from '../features/auth/session.ts';
import { rootRoute } from './root.tsx';

function ProfilePage() {
  const session = useAtomValue(sessionAtom);
  return (
    <section className="page">
      <h1>Profile</h1>
      <Card>
        <p>Signed in as {session?.username}</p>
      </Card>
    </section>
  );
}

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  beforeLoad: requireSignedIn,
  component: ProfilePage,
});
