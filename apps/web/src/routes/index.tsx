import { createRoute, redirect } from '@tanstack/react-router';
import { rootRoute } from './root.tsx';

/** docs/product.md "Screens": '/' only decides where to go. */
export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async ({ context }) => {
    await context.auth.ready?.();
    throw redirect({ to: context.auth.isSignedIn() ? '/files' : '/home', replace: true });
  },
});
