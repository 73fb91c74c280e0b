import { createRoute } from '@tanstack/react-router';
import { RegisterScreen } from '../features/auth/index.ts';
import { rootRoute } from './root.tsx';

export const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  component: RegisterScreen,
});
