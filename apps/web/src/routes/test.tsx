import { createRoute } from '@tanstack/react-router';
import { protectedPage } from '../features/auth/index.ts';
import { rootRoute } from './root.tsx';

/** docs/product.md "Screens": a protected test page whose content the spec leaves open. */
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
  ...protectedPage(TestPage),
});
