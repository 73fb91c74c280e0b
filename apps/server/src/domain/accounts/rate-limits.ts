import { createHash } from 'node:crypto';
import type { RateLimitCounter } from '../../ports/accounts.ts';
import { RateLimitedError } from '../errors.ts';

/**
 * Every rate limit of the accounts API, in one table. Fixed windows, counted in the database
 * (RateLimitCounter) so they hold across instances. Limits marked "failures" take a hit back
 * when the attempt succeeds: a user who logs in correctly never uses up their account's limit.
 * Limits marked "slows" never refuse: past their max each attempt waits SLOWDOWN_MS.
 * Limits marked "weighed" count the work a call did (`charge`) besides the call itself.
 */
export const RATE_LIMIT_NAMES = [
  'loginIp',
  'loginAccountIp',
  'loginAccountSlow',
  'totpAccount',
  'registerIp',
  'checkIp',
  'lookupIp',
  'searchIp',
  'searchAccount',
  'createItemAccount',
  'shareAccount',
  'linkPasswordIp',
  'linkPasswordLinkIp',
  'linkPasswordLinkSlow',
  'listedItemsActor',
  'sharedEntriesAccount',
] as const;

export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

export interface RateLimit {
  /** Allowed hits per window; Infinity turns the limit off. */
  max: number;
  windowMs: number;
}

export type RateLimits = Record<RateLimitName, RateLimit>;

const MINUTE = 60_000;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  /** Every login attempt from one address (a shared NAT holds many people). */
  loginIp: { max: 100, windowMs: 15 * MINUTE },
  /**
   * Failed passwords for one account name from one address (failures). Per address, so nobody
   * elsewhere can use up the owner's attempts and lock them out.
   */
  loginAccountIp: { max: 10, windowMs: 15 * MINUTE },
  /**
   * Failed passwords for one account name from anywhere (failures, slows): many addresses may
   * guess, but each guess then waits; the owner's right password still gets in, late.
   */
  loginAccountSlow: { max: 20, windowMs: 15 * MINUTE },
  /**
   * Failed TOTP codes of one account (login, confirm, disable): 3 codes of 10^6 are valid. Recovery
   * codes count here too (50 bits each: far safer than the TOTP codes the limit is set for).
   */
  totpAccount: { max: 5, windowMs: 5 * MINUTE },
  registerIp: { max: 30, windowMs: 60 * MINUTE },
  /** Username/email availability, typed with a 700 ms debounce. */
  checkIp: { max: 120, windowMs: MINUTE },
  /** The anonymous login lookup. */
  lookupIp: { max: 60, windowMs: MINUTE },
  searchIp: { max: 120, windowMs: MINUTE },
  searchAccount: { max: 60, windowMs: MINUTE },
  /**
   * Items (folders and files) one account creates, for the files domain. A long window with a
   * high max: a drop of 10,000 small files goes through at full speed, while a script flooding
   * the database is held to about 17 items a second.
   */
  createItemAccount: { max: 10_000, windowMs: 10 * MINUTE },
  /**
   * Shares and links one account creates or changes (POST and PUT /api/share): far more than a
   * person clicks, few enough that nobody can flood another user's "Shared with me".
   */
  shareAccount: { max: 1000, windowMs: 10 * MINUTE },
  /** Every link password attempt from one address, whatever the link. */
  linkPasswordIp: { max: 100, windowMs: 15 * MINUTE },
  /** Wrong passwords for one link from one address (failures): guessing hits 429 here. */
  linkPasswordLinkIp: { max: 10, windowMs: 15 * MINUTE },
  /**
   * Wrong passwords for one link from anywhere (failures, slows): many addresses may guess, but
   * each guess then waits; the visitor with the right password still gets in, late.
   */
  linkPasswordLinkSlow: { max: 20, windowMs: 15 * MINUTE },
  /**
   * Items GET /api/file reads, per user or, for anonymous link holders, per link and address
   * (weighed). The web app's heaviest use: a folder download pages through a 20-level listing
   * 1,000 items at a time, each page reading the levels before it again, so 100,000 items in one
   * folder read about 10 million; a folder of 10,000 items opened every 5 s (the refresh while
   * the socket is down) reads 1.2 million. At ~3.5 us a row the window is ~35 s of the server
   * per caller. docs/operations.md "Accounts: sessions and rate limits".
   */
  listedItemsActor: { max: 10_000_000, windowMs: 10 * MINUTE },
  /** Entries GET /api/shared reads, per account (weighed): 10,000 shares every 5 s fit. */
  sharedEntriesAccount: { max: 2_000_000, windowMs: 10 * MINUTE },
};

export const UNLIMITED: RateLimits = Object.fromEntries(
  RATE_LIMIT_NAMES.map((name) => [name, { max: Number.POSITIVE_INFINITY, windowMs: MINUTE }]),
) as RateLimits;

/** How long an attempt past a "slows" limit waits before it is looked at. */
export const SLOWDOWN_MS = 2000;

export interface RateLimiterDeps {
  rateLimits: RateLimitCounter;
  limits: RateLimits;
  clock: () => number;
  /** Waits past a "slows" limit; tests pass one that returns at once. */
  sleep: (ms: number) => Promise<void>;
}

const SWEEP_EVERY_MS = 10 * MINUTE;

export function createRateLimiter(deps: RateLimiterDeps) {
  let lastSweep = 0;
  // The subject (an IP, a lowercased username) is hashed: the table holds no personal data.
  const keyOf = (name: RateLimitName, subject: string) => createHash('sha256').update(`${name}\0${subject}`).digest('hex');

  /** Counts one attempt; past the max, the seconds until its window ends (else null). */
  async function countAttempt(name: RateLimitName, subject: string, amount = 1): Promise<number | null> {
    const limit = deps.limits[name];
    if (!Number.isFinite(limit.max)) return null;
    const now = deps.clock();
    if (now - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now;
      void deps.rateLimits.sweep(now).catch(() => {});
    }
    const { count, windowEnd } = await deps.rateLimits.hit(keyOf(name, subject), limit.windowMs, now, amount);
    return count > limit.max ? Math.max(1, Math.ceil((windowEnd - now) / 1000)) : null;
  }

  return {
    /** Counts one attempt; throws RATE_LIMITED (with Retry-After) once the window is full. */
    async hit(name: RateLimitName, subject: string): Promise<void> {
      const retryAfter = await countAttempt(name, subject);
      if (retryAfter !== null) throw new RateLimitedError(retryAfter);
    },
    /** Counts one attempt; once the window is full it waits SLOWDOWN_MS instead of refusing. */
    async slow(name: RateLimitName, subject: string): Promise<void> {
      if ((await countAttempt(name, subject)) !== null) await deps.sleep(SLOWDOWN_MS);
    },
    /**
     * Counts the work a call did (items it read) after it ran; never refuses, so the call that
     * spends the budget finishes, and `hit` refuses the next ones until the window ends.
     */
    async charge(name: RateLimitName, subject: string, amount: number): Promise<void> {
      if (amount > 0) await countAttempt(name, subject, amount);
    },
    /** Takes back the hit of an attempt that succeeded. */
    async refund(name: RateLimitName, subject: string): Promise<void> {
      if (!Number.isFinite(deps.limits[name].max)) return;
      await deps.rateLimits.refund(keyOf(name, subject), deps.clock());
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
