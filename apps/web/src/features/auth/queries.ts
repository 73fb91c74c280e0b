/** The auth feature's server state: who is signed in, as GET /api/profile answers. */
import { queryOptions } from '@tanstack/react-query';
import { getProfile, type Profile } from './account-api.ts';

export const PROFILE_QUERY_KEY = ['profile'] as const;

/** The signed-in user's profile, or null when the server says there is no session. */
export async function fetchProfile(): Promise<Profile | null> {
  const result = await getProfile();
  if (result.ok) return result.data;
  if (result.status === 401) return null;
  throw new Error(result.message ?? `Could not load your profile (${result.status}).`);
}

export const profileQuery = queryOptions({
  queryKey: PROFILE_QUERY_KEY,
  queryFn: fetchProfile,
  staleTime: 5_000,
  retry: false,
});
