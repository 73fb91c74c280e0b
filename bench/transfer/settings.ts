/** bench/transfer's command line (run.ts lists the flags), the targets it checks and the app's sizes it mirrors. */

export const MIB = 1024 * 1024;
const mibArg = process.argv.find((a) => a.startsWith('--mib='));
export const SIZE = (mibArg ? Number(mibArg.slice(6)) : 1024) * MIB;
export const SKIP_DOWNLOAD = process.argv.includes('--skip-download');
export const NO_BUILD = process.argv.includes('--no-build');
/** --threads: the renderer's CPU seconds split by thread name as well. */
export const THREADS = process.argv.includes('--threads');
export const RATIO_TARGET = 0.7;
/** Issue 13: download and save against a service worker that passes the ciphertext through, same run. */
export const PASSTHROUGH_TARGET = 0.9;
const pairsArg = process.argv.find((a) => a.startsWith('--pairs='));
/** App and passthrough downloads, alternated; the target applies to the median ratio of the pairs. */
export const PAIRS = pairsArg ? Number(pairsArg.slice(8)) : 3;
export const MEMORY_LIMIT = 256 * MIB;
export const CHUNK = 262_144;
export const PART_BYTES = 32 * (CHUNK + 16);
export const cipherSize = (p: number) => p + 16 * Math.max(1, Math.ceil(p / CHUNK));
