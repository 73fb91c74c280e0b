import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { applyThemePreference, readThemePreference } from '@sealbox/ui';
import '@sealbox/ui/tokens.css';
import '@sealbox/ui/components.css';
import './app.css';
import { createAuth } from './features/auth/index.ts';
import { createAppRouter } from './router.tsx';

// Before the first render, so a stored light/dark choice does not flash the OS theme.
applyThemePreference(readThemePreference());

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 5_000 } },
});
const router = createAppRouter({ queryClient, auth: createAuth(queryClient) });

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
