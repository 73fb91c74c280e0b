/**
 * Memory of the app's tab while something runs: the JS heap in use of the page, of its crypto
 * worker and of the download service worker (CDP Runtime.getHeapUsage on each target, through
 * the browser's DevTools session), and the resident memory (PSS) of every Chromium renderer
 * process (where those three run), sampled every SAMPLE_MS; answers the peaks. Every LIVE_MS a
 * sample is taken right after a garbage collection in each target: what is live then, without
 * what the collector would free when it next runs (a peak of the heap in use is mostly that: the
 * pages of a listing already written out, kept until V8 decides to collect).
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, CDPSession } from 'playwright-core';

const SAMPLE_MS = 200;
const LIVE_MS = 2000;
const MIB = 1024 * 1024;

export interface MemoryPeaks {
  /** Peak JS heap used, bytes, by target: page, worker (crypto), service_worker (download). */
  heap: Record<string, number>;
  /** The three heaps' peak sum (each sample's sum). */
  heapTotal: number;
  /**
   * The peak sum above the first sample's: what the work sampled added to the tab (the search
   * index held in the worker, the listing on screen, are there before it and stay after).
   */
  heapGrowth: number;
  /** Each target's peak above its first sample (page, worker, service_worker). */
  growthBy: Record<string, number>;
  /**
   * The service worker's peak in the first and in the second half of the samples: memory that
   * grows as the bytes stream by shows as a second half above the first.
   */
  serviceWorkerHalves: [number, number];
  /** Peak sum of the renderer processes' proportional resident memory (PSS), bytes. */
  rendererPss: number;
  /** That peak above the first sample's. */
  rendererPssGrowth: number;
  /** The peak of the samples taken right after a collection, above the first (itself after one). */
  liveGrowth: number;
  /** Each target's live peak above its first sample. */
  liveGrowthBy: Record<string, number>;
  /** Live after the work ended (collected once more), above the first sample: what it left held. */
  liveAfter: number;
  samples: number;
}

interface Sample {
  heap: Record<string, number>;
  total: number;
  pss: number;
  /** Taken right after a collection in every target. */
  live: boolean;
}

const peakOf = (samples: Sample[], pick: (s: Sample) => number) => samples.reduce((max, s) => Math.max(max, pick(s)), 0);

function peaksOf(samples: Sample[], after: Sample): MemoryPeaks {
  const types = new Set(samples.flatMap((s) => Object.keys(s.heap)));
  const live = samples.filter((s) => s.live);
  const half = Math.ceil(samples.length / 2);
  const sw = (s: Sample) => s.heap.service_worker ?? 0;
  return {
    heap: Object.fromEntries([...types].map((type) => [type, peakOf(samples, (s) => s.heap[type] ?? 0)])),
    heapTotal: peakOf(samples, (s) => s.total),
    heapGrowth: peakOf(samples, (s) => s.total) - (samples[0]?.total ?? 0),
    growthBy: Object.fromEntries(
      [...types].map((type) => [type, peakOf(samples, (s) => s.heap[type] ?? 0) - (samples[0]?.heap[type] ?? 0)]),
    ),
    serviceWorkerHalves: [peakOf(samples.slice(0, half), sw), peakOf(samples.slice(half), sw)],
    rendererPss: peakOf(samples, (s) => s.pss),
    rendererPssGrowth: peakOf(samples, (s) => s.pss) - (samples[0]?.pss ?? 0),
    liveGrowth: peakOf(live, (s) => s.total) - (samples[0]?.total ?? 0),
    liveGrowthBy: Object.fromEntries(
      [...types].map((type) => [type, peakOf(live, (s) => s.heap[type] ?? 0) - (samples[0]?.heap[type] ?? 0)]),
    ),
    liveAfter: after.total - (samples[0]?.total ?? 0),
    samples: samples.length,
  };
}

/** Proportional set size: shared pages split among the processes sharing them, so a sum counts each once. */
const pssOf = (pid: number) => {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0; // the process ended between the list and the read
  }
};

/** One DevTools target's session through the browser's (flatten: false), for Runtime.getHeapUsage. */
async function attach(browser: CDPSession, targetId: string) {
  const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string };
  let nextId = 1;
  const waiting = new Map<number, (value: { usedSize: number }) => void>();
  browser.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: { usedSize: number } };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? { usedSize: Number.NaN });
    if (message.id !== undefined) waiting.delete(message.id);
  });
  const send = async (method: string, timeoutMs: number) => {
    const id = nextId++;
    // A target that ends meanwhile never answers: it counts as nothing after the timeout.
    const answer = new Promise<{ usedSize: number }>((resolve) => {
      waiting.set(id, resolve);
      setTimeout(() => resolve({ usedSize: 0 }), timeoutMs);
    });
    await browser.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
    return (await answer).usedSize;
  };
  return {
    used: () => send('Runtime.getHeapUsage', 1000),
    collect: async () => {
      await send('HeapProfiler.collectGarbage', 10_000);
    },
  };
}

/** Starts sampling; `stop()` ends it and answers the peaks. */
export async function sampleMemory(context: BrowserContext): Promise<{ stop: () => Promise<MemoryPeaks> }> {
  const browser = await context.browser()!.newBrowserCDPSession();
  // Targets are looked up at each sample: a service worker stopped while idle comes back as a new one.
  const probes = new Map<string, { type: string; used: () => Promise<number>; collect: () => Promise<void> }>();
  const probesNow = async () => {
    const { targetInfos } = (await browser.send('Target.getTargets')) as {
      targetInfos: Array<{ targetId: string; type: string }>;
    };
    const live = targetInfos.filter((t) => ['page', 'worker', 'service_worker'].includes(t.type));
    for (const t of live)
      if (!probes.has(t.targetId)) probes.set(t.targetId, { type: t.type, ...(await attach(browser, t.targetId)) });
    return live.map((t) => probes.get(t.targetId)!);
  };
  // What the tab held before is left as garbage by earlier work (the index's build): collected
  // first, so the first sample, the base of the growth figures, is what stays.
  await Promise.all((await probesNow()).map((p) => p.collect()));
  const samples: Sample[] = [];
  const sample = async (live: boolean) => {
    const probes = await probesNow();
    if (live) await Promise.all(probes.map((p) => p.collect()));
    const used = await Promise.all(probes.map(async (p) => ({ type: p.type, bytes: await p.used() })));
    const heap: Record<string, number> = {};
    for (const { type, bytes } of used) heap[type] = (heap[type] ?? 0) + bytes;
    const { processInfo } = (await browser.send('SystemInfo.getProcessInfo')) as {
      processInfo: Array<{ type: string; id: number }>;
    };
    const pss = processInfo.filter((p) => p.type === 'renderer').reduce((sum, p) => sum + pssOf(p.id), 0);
    const taken = { heap, total: used.reduce((sum, u) => sum + u.bytes, 0), pss, live };
    samples.push(taken);
    return taken;
  };
  let running = true;
  const loop = (async () => {
    let collected = performance.now();
    while (running) {
      const live = samples.length === 0 || performance.now() - collected >= LIVE_MS;
      if (live) collected = performance.now();
      await sample(live);
      await Bun.sleep(SAMPLE_MS);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const after = await sample(true);
      await browser.detach();
      return peaksOf(samples.slice(0, -1), after);
    },
  };
}

export const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
