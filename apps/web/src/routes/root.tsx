import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { Toaster } from '@sealbox/ui';
import type { AuthContext } from '../features/auth/session.ts';
import { useAuthSync } from '../features/auth/useAuthSync.ts';
import { useLiveUpdates } from '../features/live/useLiveUpdates.ts';
import { Navbar } from '../features/navigation/Navbar.tsx';
import { NotFoundPage } from './not-found.tsx';

export interface RouterContext {
  auth: AuthContext;
  queryClient: QueryClient;
}

function RootLayout() {
  useAuthSync();
  useLiveUpdates();
  return (
    <div className="app-shell">
      <Navbar />
      <main className="app-main" id="main">
        <Outlet />
      </main>
      <Toaster />
    </div>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
