/** The profile feature's server state: the account's sessions (the profile itself is the auth feature's). */
import { queryOptions } from '@tanstack/react-query';
import { listSessions } from '../auth/index.ts';

export const SESSIONS_QUERY_KEY = ['sessions'] as const;

/** Browsers signed in to the account: this device first, then the most recently seen. */
export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: async () => {
      const answer = await listSessions();
      if (!answer.ok) throw new Error(answer.message ?? 'Could not load your sessions.');
      return [...answer.data].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt);
    },
    retry: false,
  });
}
