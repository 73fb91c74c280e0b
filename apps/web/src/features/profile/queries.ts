/**
 * The profile feature's server state: the account's sessions, the unfinished uploads in its
 * tree, its TOTP recovery codes left and when its recovery phrase was made (the profile itself
 * is the auth feature's).
 */
import { queryOptions } from '@tanstack/react-query';
import { getRecoveryStatus, getTotpStatus, listSessions } from '../auth/index.ts';
import { fetchUnfinishedUploads } from './unfinished-api.ts';

export const SESSIONS_QUERY_KEY = ['sessions'] as const;
/** Every page size of the list; `quota.changed` (an upload started or ended) makes them stale. */
export const UNFINISHED_UPLOADS_QUERY_KEY = ['unfinished-uploads'] as const;

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

/** Shown 100 at a time ("Show more" asks for more, up to the server's 1,000). */
export const UNFINISHED_PAGE = 100;

/**
 * The newest `limit` unfinished uploads in the user's tree. Parts arrive without an event (only
 * starts and ends publish quota.changed), so while any are listed their progress is read again
 * every 10 s.
 */
export function unfinishedUploadsQueryOptions(limit = UNFINISHED_PAGE) {
  return queryOptions({
    queryKey: [...UNFINISHED_UPLOADS_QUERY_KEY, limit],
    queryFn: () => fetchUnfinishedUploads(limit),
    refetchInterval: (query) => ((query.state.data?.uploads.length ?? 0) > 0 ? 10_000 : false),
    retry: false,
  });
}

/** How many TOTP recovery codes are left; `profile.changed` (codes made or TOTP turned off) makes it stale. */
export const TOTP_STATUS_QUERY_KEY = ['profile', 'totp'] as const;

export function totpStatusQueryOptions() {
  return queryOptions({
    queryKey: TOTP_STATUS_QUERY_KEY,
    queryFn: async () => {
      const answer = await getTotpStatus();
      if (!answer.ok) throw new Error(answer.message ?? 'Could not load your recovery codes.');
      return answer.data.recoveryCodesLeft;
    },
    retry: false,
  });
}

/** When the account's recovery phrase was made; null for none. */
export const RECOVERY_STATUS_KEY = ['profile', 'recovery'] as const;

export function recoveryStatusQueryOptions() {
  return queryOptions({
    queryKey: RECOVERY_STATUS_KEY,
    queryFn: async () => {
      const answer = await getRecoveryStatus();
      if (!answer.ok) throw new Error(answer.message ?? 'Could not load your recovery phrase status.');
      return answer.data.createdAt;
    },
    retry: false,
  });
}
