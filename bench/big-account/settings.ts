/**
 * Sizes and goals of bench/big-account (docs/benchmarks.md "bench/big-account"). The big account
 * and the small one are made with the same shape; each goal is first the ratio of the big one's
 * figure to the small one's in the same run (machines differ 2x), then an absolute figure.
 */
import { numberArg, SHORT, sized } from '../support.ts';

export { SHORT };

/** What one account holds (docs/benchmarks.md "bench/big-account": the shape). */
export interface AccountSize {
  label: string;
  /** Items in the tree, all told (folders and files, the largest and zip folders included). */
  items: number;
  /** Items in the largest folder ("Largest"), a fifth of them small files. */
  largest: number;
  /** Small files in the folder downloaded as a zip ("Zip me"). */
  zipFiles: number;
  /** Items other users share with this account (what /shared lists). */
  shares: number;
}

const BIG: AccountSize = sized(
  { label: 'big', items: 100_000, largest: 10_000, zipFiles: 10_000, shares: 1_000 },
  { label: 'big', items: 800, largest: 200, zipFiles: 40, shares: 8 },
);

/**
 * The small account of the same run. Its zip folder is a tenth of the big one's, not a hundredth:
 * the zip's goal compares 10,000 files with 1,000, so the whole account is 1,000 items plus those.
 */
const SMALL: AccountSize = sized(
  { label: 'small', items: 2_000, largest: 100, zipFiles: 1_000, shares: 10 },
  { label: 'small', items: 100, largest: 20, zipFiles: 4, shares: 2 },
);

/**
 * `--only=shared`: the sign-in and /shared's list only, on accounts whose trees are small (a
 * minute to make instead of five) and whose shares are as many as ever: /shared lists only the
 * shares, never the tree.
 */
export const ONLY_SHARED = process.argv.includes('--only=shared');
const SMALL_TREE = { items: 100, largest: 20, zipFiles: 4 };
const treeOf = (size: AccountSize): AccountSize => (ONLY_SHARED ? { ...size, ...SMALL_TREE } : size);

export const SIZES = {
  big: { ...treeOf(BIG), items: numberArg('items', treeOf(BIG).items) },
  small: { ...treeOf(SMALL), items: numberArg('small-items', treeOf(SMALL).items) },
};

/** Timed runs of each measure (median and p95 over them). */
export const RUNS = numberArg('runs', sized(5, 1));

/** Requests in flight while the accounts are made (the server is one Bun process; 2 cores). */
export const CONCURRENCY = numberArg('concurrency', 24);

/** Planted across both trees; a search for it must find exactly these. */
export const NEEDLE = 'budget';
export const NEEDLES = 10;

/** Each measure's goals: the big/small ratio at the median, and the big account's absolute median. */
export interface Goal {
  ratio: number;
  /** Milliseconds, or (for the zip's memory) bytes; undefined: no absolute goal. */
  absolute?: number;
}

export const GOALS = {
  /** Sign-in click → the first page of /files rendered (the password's argon2id, ~0.3 s, included). */
  signIn: { ratio: 1.3, absolute: 1500 },
  /** Click on the largest folder → its first page rendered (issue 27 part 1). */
  largest: { ratio: 1.3, absolute: 400 },
  /** Query typed → the first results shown (issue 27 part 2). */
  search: { ratio: 1.5, absolute: 1000 },
  /** Time per file of the zip (the zip is linear in its files: the ratio is per file). */
  zipPerFile: { ratio: 1.3 },
  /** The zip's whole time for the big account's folder. */
  zip: { ratio: Number.POSITIVE_INFINITY, absolute: 60_000 },
  /** Memory the zip adds to the tab: constant, whatever the number of files. */
  zipMemory: { ratio: 1.5 },
  /** The tab's peak during the zip, with what it held before (the index): shown, no goal. */
  zipHeld: { ratio: Number.POSITIVE_INFINITY },
  /** Sign-in's answer from the server → the storage meter's figure shown. */
  meter: { ratio: 1.3, absolute: 1000 },
  /** Click on Files Shared with Me → its list rendered (its first page). */
  shared: { ratio: 1.3, absolute: 1000 },
  /** Click on Files Shared with Me → every share open (the hint gone): no goal, shown for what it costs. */
  sharedWhole: { ratio: Number.POSITIVE_INFINITY },
} satisfies Record<string, Goal>;
