import { createRoute } from '@tanstack/react-router';
import { NeedsSecureContext, RegisterScreen } from '../features/auth/index.ts';
import { rootRoute } from './root.tsx';

function RegisterPage() {
  return (
    <NeedsSecureContext>
      <RegisterScreen />
    </NeedsSecureContext>
  );
}

export const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  component: RegisterPage,
});
