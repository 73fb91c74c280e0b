/** bench/soak's command line (run.ts lists the flags) and the number of files each user keeps. */
import { sized } from '../support.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return fallback;
  const raw = process.argv[i]!.includes('=') ? process.argv[i]!.split('=')[1] : process.argv[i + 1];
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} expects a positive number`);
  return value;
}

// Short: 3 s of mixing, with think times a quarter as long, so it still draws from the whole mix.
export const MINUTES = arg('minutes', sized(10, 0.05));
export const USERS = arg('users', sized(50, 4));
export const THINK_MS = arg('think-ms', sized(800, 200));
export const LARGE_PER_USER = 2;
export const SMALL_PER_USER = 60;
