/**
 * CPU time of the processes this bench started (Chromium's browser, zygote and renderer, with all
 * their threads, WebCrypto's included), from /proc: on a machine loaded by others, a cell's CPU
 * time per byte moves far less than its wall-clock rate, so it tells which cell does more work.
 */
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function stat(pid: string): { ppid: number; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * Milliseconds of CPU used so far by every live descendant of this process (not by itself); 0
 * without /proc (the CPU columns then say n/a).
 */
export function childrenCpuMs(): number {
  const procs = new Map<number, { ppid: number; ticks: number }>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (s) procs.set(Number(name), s);
  }
  const ours = new Set([process.pid]);
  let ticks = 0;
  // Parents have lower pids than their children almost always; repeat until nothing is added.
  for (let added = true; added; ) {
    added = false;
    for (const [pid, s] of procs) {
      if (ours.has(pid) || !ours.has(s.ppid)) continue;
      ours.add(pid);
      ticks += s.ticks;
      added = true;
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
