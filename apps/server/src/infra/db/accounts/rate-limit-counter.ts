import { sql } from 'kysely';
import type { RateLimitCounter } from '../../../ports/accounts.ts';
import type { Db } from '../../../ports/db.ts';

/**
 * One upsert per hit, atomic on both dialects (INSERT ... ON CONFLICT DO UPDATE ... RETURNING),
 * so concurrent requests on any number of instances are all counted. A row whose window has
 * passed is reset in place by the next hit instead of piling up rows.
 */
export function createRateLimitCounter(db: Db): RateLimitCounter {
  const k = db.kysely;
  return {
    async hit(key, windowMs, now, amount = 1) {
      const windowStart = now - (now % windowMs);
      const windowEnd = windowStart + windowMs;
      const row = await k
        .insertInto('rate_limits')
        .values({ key, window_start: windowStart, window_end: windowEnd, count: amount })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql<number>`case when rate_limits.window_start = ${windowStart} then rate_limits.count + ${amount} else ${amount} end`,
            window_start: windowStart,
            window_end: windowEnd,
          }),
        )
        .returning(['count', 'window_end'])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), windowEnd: Number(row.window_end) };
    },

    async refund(key, now) {
      await k
        .updateTable('rate_limits')
        .set({ count: sql<number>`count - 1` })
        .where('key', '=', key)
        .where('window_end', '>', now)
        .where('count', '>', 0)
        .execute();
    },

    async sweep(now) {
      const result = await k.deleteFrom('rate_limits').where('window_end', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
