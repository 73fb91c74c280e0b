import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { QueryClient } from '@tanstack/react-query';
import { auth as defaultAuth, type AuthContext } from './features/auth/index.ts';
import { parseSearch, stringifySearch } from './lib/search-params.ts';
import { aboutRoute } from './routes/about.tsx';
import { ErrorPage } from './routes/error.tsx';
import { filesRoute } from './routes/files.tsx';
import { homeRoute } from './routes/home.tsx';
import { indexRoute } from './routes/index.tsx';
import { loginRoute } from './routes/login.tsx';
import { NotFoundPage } from './routes/not-found.tsx';
import { previewRoute } from './routes/preview.tsx';
import { profileRoute } from './routes/profile.tsx';
import { recoverRoute } from './routes/recover.tsx';
import { registerRoute } from './routes/register.tsx';
import { rootRoute } from './routes/root.tsx';
import { shareRoute } from './routes/share.tsx';
import { sharedRoute } from './routes/shared.tsx';
import { testRoute } from './routes/test.tsx';
import { trashRoute } from './routes/trash.tsx';

/** Every screen of docs/product.md "Screens"; anything else falls to the root's not-found page. */
export const routeTree = rootRoute.addChildren([
  indexRoute,
  homeRoute,
  aboutRoute,
  loginRoute,
  registerRoute,
  recoverRoute,
  filesRoute,
  sharedRoute,
  trashRoute,
  profileRoute,
  shareRoute,
  previewRoute,
  testRoute,
]);

export interface AppRouterOptions {
  auth?: AuthContext;
  queryClient?: QueryClient;
  /** Tests pass a memory history; the app uses the browser's. */
  history?: RouterHistory;
}

export function createAppRouter({ auth = defaultAuth, queryClient = new QueryClient(), history }: AppRouterOptions = {}) {
  return createRouter({
    routeTree,
    context: { auth, queryClient },
    ...(history ? { history } : {}),
    parseSearch,
    stringifySearch,
    // Links load the next screen's data while the pointer rests on them (or they get focus).
    defaultPreload: 'intent',
    // The query cache decides freshness: every load and preload runs the loader, which asks it.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: ErrorPage,
    defaultNotFoundComponent: NotFoundPage,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface HistoryState {
    /** Registration hands the new username to the login form (kept out of the URL). */
    username?: string;
    /** The previewer's own entry, which Back leaves (features/preview/preview-history.ts). */
    preview?: string;
  }
}
