import { render } from '@testing-library/react';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { clearSession, setSession, type AuthContext } from '../features/auth/index.ts';
import { createAppRouter } from '../router.tsx';

/** Renders the whole app at `url` on a memory history, with sign-in state faked. */
export function renderApp(url: string, { signedIn = false, auth }: { signedIn?: boolean; auth?: AuthContext } = {}) {
  // The queries that retry on their own (a folder's listing, twice) do so at once: with no server
  // every request fails, and react-query's 1 s and 2 s waits between tries only made a test slow.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, retryDelay: 0 } } });
  // The app's own session state follows (protected pages render only while it says signed in).
  if (signedIn) fakeSignIn();
  else clearSession();
  const router = createAppRouter({
    queryClient,
    auth: auth ?? { isSignedIn: () => signedIn },
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, ...view };
}

export function fakeSignIn(): void {
  setSession({ userId: 'test-user', username: 'tester' });
}
