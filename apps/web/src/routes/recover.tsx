import { createRoute } from '@tanstack/react-router';
import { NeedsSecureContext, RecoverScreen } from '../features/auth/index.ts';
import { rootRoute } from './root.tsx';

/** Forgot password: recover with the 24-word phrase (docs/web-accounts.md "Recovery phrase"). */
export const recoverRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/recover',
  component: () => (
    <NeedsSecureContext>
      <RecoverScreen />
    </NeedsSecureContext>
  ),
});
