import { useEffect } from 'react';
import { useLocation, useRouter } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { setUnauthorizedHandler } from '../../lib/api.ts';
import { isLoggingOut, signOutLocally, syncProfile } from './auth-state.ts';
import { returnPathOf } from './redirect.ts';
import { isSignedIn } from './session.ts';

/** Paths whose 401 means "wrong credentials" or "already gone", not "your session ended". */
const CREDENTIAL_PATHS = new Set(['/api/login', '/api/logout', '/api/profile']);
/** A share link's info or password check: its 401 asks for the link's password, not a session. */
const LINK_PATH = /^\/api\/shared\/[A-Za-z0-9_-]{22}$/;

export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/**
 * Mounted once in the root layout: checks the profile on every path change and reacts to a
 * session that ends while the app is open (ended from another device, expired, keys gone).
 */
export function useAuthSync(): void {
  const router = useRouter();
  const queryClient = useQueryClient();
  const pathname = useLocation({ select: (location) => location.pathname });

  useEffect(() => {
    const goToLogin = () => {
      const location = router.state.location;
      if (location.pathname === '/login') return;
      toast(SESSION_ENDED, 'info');
      void router.navigate({ to: '/login', search: { redirect: returnPathOf(location) }, replace: true });
    };
    const endedElsewhere = () => {
      if (!isSignedIn() || isLoggingOut()) return;
      void signOutLocally(queryClient).then(goToLogin);
    };
    setUnauthorizedHandler((answer) => {
      if (!CREDENTIAL_PATHS.has(answer.path) && !LINK_PATH.test(answer.path)) endedElsewhere();
    });
    sessionLostListener = goToLogin;
    sessionEndedListener = endedElsewhere;
    return () => {
      setUnauthorizedHandler(undefined);
      sessionLostListener = undefined;
      sessionEndedListener = undefined;
    };
  }, [router, queryClient]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every path change checks the profile again
  useEffect(() => {
    void syncProfile(queryClient, { reuseWithinMs: 1000 }).then((result) => {
      if (result === 'lost') sessionLostListener?.();
    });
  }, [pathname, queryClient]);
}

let sessionLostListener: (() => void) | undefined;
let sessionEndedListener: (() => void) | undefined;

/** The live socket heard that this tab's session ended (another tab or device ended it). */
export function reportSessionEnded(): void {
  sessionEndedListener?.();
}
