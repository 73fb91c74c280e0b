import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { toast } from '@sealbox/ui';
import { logout } from './auth-state.ts';

/**
 * The one logout action (navbar, file browser sidebar): leave the signed-in screens first, so
 * their queries stop before the session ends instead of refetching into a 401, then end the
 * session on the server and forget every key in this browser (docs/product.md "Screens": on
 * success, /home).
 */
export function useLogout(): { logout: () => Promise<void>; loggingOut: boolean } {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [loggingOut, setLoggingOut] = useState(false);
  const run = async () => {
    setLoggingOut(true);
    try {
      await logout(queryClient, () => navigate({ to: '/home' }));
    } catch {
      toast('Logout failed. Please try again.', 'error');
    } finally {
      setLoggingOut(false);
    }
  };
  return { logout: run, loggingOut };
}
