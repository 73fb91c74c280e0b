import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../features/auth/guard.ts';
import { signedInOnly } from '../features/auth/signed-in-only.tsx';
import { rootRoute } from './root.tsx';

/** SPEC.md 2: a protected test page whose content the spec leaves open. */
function TestPage() {
  return (
    <section className="page">
      <h1>Test</h1>
    </section>
  );
}

export const testRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/test',
  beforeLoad: requireSignedIn,
  component: signedInOnly(TestPage),
});
