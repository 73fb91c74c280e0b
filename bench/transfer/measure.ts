/**
 * What each transfer costs beside its time, read from Linux /proc for this process's descendants
 * (the server and our Chromium): renderer memory by kind, sampled while it runs, and CPU seconds
 * by process kind.
 */
import { readdir } from 'node:fs/promises';
import { THREADS } from './settings.ts';
import { settle } from '../support.ts';

/** This process's descendants (the server, Chromium and all its processes). */
async function ourProcesses(): Promise<Array<{ pid: number; args: string }>> {
  const out = await new Response(Bun.spawn(['ps', '-eo', 'pid=,ppid=,args='], { stdout: 'pipe' }).stdout).text();
  const rows = out
    .trim()
    .split('\n')
    .map((line) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
      return m ? { pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! } : undefined;
    })
    .filter((r) => r !== undefined);
  const ours = new Set([process.pid]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of rows) {
      if (ours.has(r.pid) || !ours.has(r.ppid)) continue;
      ours.add(r.pid);
      changed = true;
    }
  }
  return rows.filter((r) => r.pid !== process.pid && ours.has(r.pid));
}

/** Renderer memory by kind, summed over our Chromium's renderer processes (Linux /proc). */
export interface Memory {
  /** Heap and other private memory: what the page itself holds. */
  anon: number;
  /** Shared memory: Chromium's data pipes carrying file and network bytes between processes. */
  shmem: number;
  rss: number;
  /**
   * Private memory of Chromium's other processes (browser, network service, ...): where a Blob's
   * bytes live, so memory moved out of the renderer shows up here rather than vanishing.
   */
  others: number;
}

export async function rendererMemory(): Promise<Memory> {
  const total: Memory = { anon: 0, shmem: 0, rss: 0, others: 0 };
  for (const r of await ourProcesses()) {
    if (r.args.includes('apps/server') || !r.args.includes('chromium')) continue;
    const status = await Bun.file(`/proc/${r.pid}/status`)
      .text()
      .catch(() => '');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    if (!r.args.includes('--type=renderer')) {
      total.others += kib('RssAnon');
      continue;
    }
    total.anon += kib('RssAnon');
    total.shmem += kib('RssShmem');
    total.rss += kib('VmRSS');
  }
  return total;
}

/** CPU seconds of our child processes so far, by kind (server, Chromium browser / renderer / network ...). */
export async function cpuByKind(): Promise<Record<string, number>> {
  const tick = 100; // USER_HZ
  const total: Record<string, number> = {};
  for (const r of await ourProcesses()) {
    const kind = r.args.includes('apps/server')
      ? 'server'
      : r.args.includes('chromium')
        ? /--utility-sub-type=network/.test(r.args)
          ? 'network'
          : (/--type=(\S+)/.exec(r.args)?.[1] ?? 'browser')
        : 'other';
    const stat = await Bun.file(`/proc/${r.pid}/stat`)
      .text()
      .catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total[kind] = (total[kind] ?? 0) + (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / tick;
    if (THREADS && kind === 'renderer') {
      // Per-thread split of the renderer (main thread, the crypto worker, WebCrypto's pool, ...).
      for (const tid of await readdir(`/proc/${r.pid}/task`).catch(() => [] as string[])) {
        const t = await Bun.file(`/proc/${r.pid}/task/${tid}/stat`)
          .text()
          .catch(() => '');
        const name = /\((.*)\)/.exec(t)?.[1]?.replace(/[\d/]+$/, '') ?? '?';
        const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
        const key = `renderer:${name}`;
        total[key] = (total[key] ?? 0) + (Number(f[11] ?? 0) + Number(f[12] ?? 0)) / tick;
      }
    }
  }
  return total;
}

/** One measured transfer: what `work` answered, its duration, CPU seconds by kind and each kind's peak growth. */
export interface Measured<T> {
  ms: number;
  growth: Memory;
  cpu: Record<string, number>;
  value: T;
}

/** Runs `work` while sampling renderer memory; returns its duration and each kind's peak growth. */
export async function measured<T>(work: () => Promise<T>): Promise<Measured<T>> {
  await settle(500);
  const base = await rendererMemory();
  const cpuBase = await cpuByKind();
  const peak = { ...base };
  let running = true;
  const sampler = (async () => {
    while (running) {
      const now = await rendererMemory();
      for (const key of ['anon', 'shmem', 'rss', 'others'] as const) peak[key] = Math.max(peak[key], now[key]);
      await Bun.sleep(200);
    }
  })();
  const start = performance.now();
  try {
    const value = await work();
    const ms = performance.now() - start;
    const growth = {
      anon: peak.anon - base.anon,
      shmem: peak.shmem - base.shmem,
      rss: peak.rss - base.rss,
      others: peak.others - base.others,
    };
    const cpu: Record<string, number> = {};
    for (const [kind, seconds] of Object.entries(await cpuByKind())) cpu[kind] = seconds - (cpuBase[kind] ?? 0);
    return { ms, growth, cpu, value };
  } finally {
    running = false;
    await sampler;
  }
}
