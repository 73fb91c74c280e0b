/** bench/transfer's command line (run.ts lists the flags), the targets it checks and the app's sizes it mirrors. */
import { numberArg, sized } from '../support.ts';

export const MIB = 1024 * 1024;
// The short size still makes a multi-part upload (one part goes with the metadata instead).
export const SIZE = numberArg('mib', sized(1024, 16)) * MIB;
export const SKIP_DOWNLOAD = process.argv.includes('--skip-download');
/** --threads: the renderer's CPU seconds split by thread name as well. */
export const THREADS = process.argv.includes('--threads');
export const RATIO_TARGET = 0.7;
/** Issue 13: download and save against a service worker that passes the ciphertext through, same run. */
export const PASSTHROUGH_TARGET = 0.9;
/** Issue 27 part 5: the app's upload against a probe that only streams, encrypts and sends, same run. */
export const UPLOAD_PROBE_TARGET = 0.9;
/** App and passthrough downloads, alternated; the target applies to the median ratio of the pairs. */
export const PAIRS = numberArg('pairs', sized(3, 1));
export const MEMORY_LIMIT = 256 * MIB;
export const CHUNK = 262_144;
export const PART_BYTES = 32 * (CHUNK + 16);
export const cipherSize = (p: number) => p + 16 * Math.max(1, Math.ceil(p / CHUNK));
