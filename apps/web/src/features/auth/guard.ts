import { redirect } from '@tanstack/react-router';
import type { AuthContext } from './session.ts';
import { returnPathOf, type LocationParts } from './redirect.ts';

/** `beforeLoad` of every protected route: signed-out visitors go to /login and come back after. */
export async function requireSignedIn({
  context,
  location,
}: {
  context: { auth: AuthContext };
  location: LocationParts;
}): Promise<void> {
  // On first load, wait for the server's answer rather than trusting (or distrusting) the marker.
  await context.auth.ready?.();
  if (context.auth.isSignedIn()) return;
  throw redirect({ to: '/login', search: { redirect: returnPathOf(location) }, replace: true });
}
