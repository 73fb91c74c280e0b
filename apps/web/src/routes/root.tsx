import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { Toaster } from '@sealbox/ui';
import { useAuthSync, type AuthContext } from '../features/auth/index.ts';
import { ConnectionBanner, useLiveUpdates } from '../features/live/index.ts';
import { Navbar } from '../features/navigation/index.ts';
import { TransfersHost } from '../features/transfers/index.ts';
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
      <ConnectionBanner />
      <main className="app-main" id="main">
        <Outlet />
      </main>
      <TransfersHost />
      <Toaster />
    </div>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
