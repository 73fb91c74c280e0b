import { createRoute } from '@tanstack/react-router';
import { LoginScreen, NeedsSecureContext, safeRedirectPath } from '../features/auth/index.ts';
import { rootRoute } from './root.tsx';

export interface LoginSearch {
  /** In-app path (with query and hash) to return to after signing in. */
  redirect?: string;
}

function LoginPage() {
  const { redirect } = loginRoute.useSearch();
  return (
    <NeedsSecureContext>
      <LoginScreen redirect={redirect} />
    </NeedsSecureContext>
  );
}

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (raw: Record<string, unknown>): LoginSearch => {
    const redirect = safeRedirectPath(raw.redirect);
    return redirect ? { redirect } : {};
  },
  component: LoginPage,
});
