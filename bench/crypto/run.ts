/**
 * bench/crypto: encrypt and decrypt throughput of the chunked format in Chromium (1 and 2 Web
 * Workers) and in Bun, per chunk size, beside `openssl speed -evp aes-256-gcm` on one core,
 * measured in the same run; then the real streams against the raw chunk calls at CHUNK, interleaved
 * round by round (medians), the figure of issue 13, with the decrypt probes (probes.ts) and the CPU
 * that Chromium spent per GB in each cell (cpu.ts).
 * Run: bun bench/crypto/run.ts [--bytes=MiB] [--rounds=5] [--streams-only] [--short]
 */
import { launchBrowser } from '../../e2e/support/browser.ts';
import { serveWorkerPage } from '../../e2e/support/worker-page.ts';
import { CHUNK } from '../../packages/crypto/src/index.ts';
import { PIPELINE_DEPTH } from '../../packages/crypto/src/content-streams.ts';
import { SHORT, sized } from '../support.ts';
import { childrenCpuMs } from './cpu.ts';
import { measure, type MeasureRequest, type MeasureResult } from './measure.ts';

const MiB = 1024 * 1024;
const arg = process.argv.find((a) => a.startsWith('--bytes='));
const TOTAL = (arg ? Number(arg.slice(8)) : sized(256, 8)) * MiB;
/** Bytes run untimed before a cell, split over two workers: each gets at least a 4 MiB chunk. */
const WARM_UP = sized(16, 8) * MiB;
const SIZES = [64 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024];
const TARGET = 0.4;
/** Issue 13: the real stream against the raw chunk calls at CHUNK, same run, same worker count. */
const STREAM_TARGET = 0.9;
const repArg = process.argv.find((a) => a.startsWith('--rounds='));
const ROUNDS = repArg ? Number(repArg.slice(9)) : sized(5, 1);
const ONLY_STREAMS = process.argv.includes('--streams-only');

const gbps = (r: MeasureResult) => r.bytes / (r.ms / 1000) / 1e9;
const label = (size: number) => (size >= MiB ? `${size / MiB} MiB` : `${size / 1024} KiB`);

function opensslSpeed(bytes: number): number {
  const out = Bun.spawnSync(
    ['openssl', 'speed', '-evp', 'aes-256-gcm', '-seconds', SHORT ? '1' : '2', '-bytes', String(bytes), '-mr'],
    {
      stderr: 'pipe',
    },
  );
  const line = out.stdout
    .toString()
    .split('\n')
    .find((l) => l.startsWith('+F:'));
  if (!line) throw new Error('openssl speed printed no result');
  return Number(line.split(':').pop()) / 1e9;
}

type CallWorker = (i: number, m: MeasureRequest) => Promise<MeasureResult>;

async function main() {
  const server = await serveWorkerPage(new URL('./worker.ts', import.meta.url).pathname);
  const context = await launchBrowser();
  if (!context) throw new Error('Chromium is required for this benchmark');
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);

  /** GB/s, and the CPU milliseconds Chromium's processes spent per GB meanwhile. */
  async function measured(workers: number, req: MeasureRequest): Promise<{ rate: number; cpu: number }> {
    const share = { ...req, bytes: Math.round(req.bytes / workers) };
    const cpuBefore = childrenCpuMs();
    const r = await page.evaluate(
      async ({ n, m }) => {
        const call = (window as unknown as { callWorker: CallWorker }).callWorker;
        const start = performance.now();
        const results = await Promise.all(Array.from({ length: n }, (_, i) => call(i, m)));
        return { bytes: results.reduce((s, x) => s + x.bytes, 0), ms: performance.now() - start };
      },
      { n: workers, m: share },
    );
    return { rate: gbps(r), cpu: (childrenCpuMs() - cpuBefore) / (r.bytes / 1e9) };
  }
  const browser = async (workers: number, req: MeasureRequest) => (await measured(workers, req)).rate;

  const rows: string[][] = [];
  let best2 = { ratio: 0, size: 0 };
  let atChunk = 0;
  const runs: Array<{ mode: MeasureRequest['mode']; size: number }> = [
    ...SIZES.map((size) => ({ mode: 'chunks' as const, size })),
    { mode: 'stream', size: CHUNK },
  ];
  for (const { mode, size } of ONLY_STREAMS ? [] : runs) {
    const ssl = opensslSpeed(size);
    for (const direction of ['encrypt', 'decrypt'] as const) {
      const req: MeasureRequest = { mode, direction, chunkSize: size, bytes: TOTAL, depth: PIPELINE_DEPTH };
      await browser(2, { ...req, bytes: WARM_UP }); // warm both workers
      const b1 = await browser(1, req);
      const b2 = await browser(2, req);
      const bun = gbps(await measure(req));
      const ratio = b2 / ssl;
      if (mode === 'chunks' && ratio > best2.ratio) best2 = { ratio, size };
      if (mode === 'stream') atChunk = Math.min(atChunk || Infinity, ratio);
      const name = mode === 'stream' ? `stream ${label(size)}` : label(size);
      rows.push(
        [name, direction, ssl, b1, b2, bun, b1 / ssl, ratio, bun / ssl].map((x) => (typeof x === 'number' ? x.toFixed(2) : x)),
      );
    }
  }

  // Streams against raw chunk calls: same chunk size, same calls in flight, same input bytes,
  // alternated round by round so that load on the machine hits both alike. The decrypt rows also
  // run the probes in each round (docs/benchmarks.md "The streams read their source"): the stream
  // with a no-op for AES-GCM (what the stream adds), the raw calls fed from the same source with the
  // least reading work (what reading these pieces costs any stream), and the raw calls one at a
  // time (what concurrency buys).
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const fix = (xs: Array<string | number>) => xs.map((x) => (typeof x === 'number' ? x.toFixed(2) : x));
  const versus: string[][] = [];
  const probeRows: string[][] = [];
  const cpuRows: string[][] = [];
  let decryptRatio = Infinity;
  let ceiling = Infinity;
  const feeds = [
    { direction: 'decrypt' as const, pieceSize: 0, name: 'network', probe: true },
    { direction: 'decrypt' as const, pieceSize: 65536, name: '64 KiB', probe: true },
    { direction: 'decrypt' as const, pieceSize: 0, name: 'blob', blobSource: true },
    { direction: 'encrypt' as const, pieceSize: 65536, name: '64 KiB' },
  ];
  for (const { direction, pieceSize, name, blobSource, probe } of feeds) {
    for (const workers of [1, 2]) {
      const base: MeasureRequest = {
        mode: 'chunks',
        direction,
        chunkSize: CHUNK,
        bytes: TOTAL,
        depth: PIPELINE_DEPTH,
        pieceSize,
        ...(blobSource ? { blobSource } : {}),
      };
      const probes: MeasureRequest[] = probe
        ? [
            { ...base, mode: 'stream', probe: 'plumbing' },
            { ...base, mode: 'stream', probe: 'fed' },
            { ...base, depth: 1 },
          ]
        : [];
      const raw: number[] = [];
      const stream: number[] = [];
      const ratios: number[] = [];
      const probed = probes.map(() => [] as number[]);
      // CPU ms per GB of raw, stream and each probe, round by round.
      const cpu = Array.from({ length: 2 + probes.length }, () => [] as number[]);
      for (const warm of [base, { ...base, mode: 'stream' as const }, ...probes]) await browser(2, { ...warm, bytes: WARM_UP });
      for (let r = 0; r < ROUNDS; r++) {
        const a = await measured(workers, base);
        const b = await measured(workers, { ...base, mode: 'stream' });
        raw.push(a.rate);
        stream.push(b.rate);
        ratios.push(b.rate / a.rate);
        cpu[0]!.push(a.cpu);
        cpu[1]!.push(b.cpu);
        for (const [i, req] of probes.entries()) {
          const p = await measured(workers, req);
          probed[i]!.push(p.rate);
          cpu[i + 2]!.push(p.cpu);
        }
      }
      const ratio = median(ratios);
      // The blob row also times the browser's reading of the Blob, which the raw loop does not.
      if (direction === 'decrypt' && !blobSource) decryptRatio = Math.min(decryptRatio, ratio);
      versus.push(
        fix([direction, name, `${workers}`, median(raw), median(stream), ratio, Math.min(...ratios), Math.max(...ratios)]),
      );
      if (!probe) continue;
      const [plumbing, fed, serial] = probed as [number[], number[], number[]];
      // If the stream's own work cannot overlap the calls', its time is the raw time plus the
      // plumbing's: stream/raw = plumbing / (raw + plumbing), in rates.
      const bound = median(plumbing.map((p, r) => p / (raw[r]! + p)));
      const floor = median(fed.map((f, r) => f / raw[r]!));
      ceiling = Math.min(ceiling, floor);
      probeRows.push(
        fix([
          name,
          `${workers}`,
          median(plumbing),
          bound,
          median(stream.map((s, r) => s / raw[r]!)),
          floor,
          median(serial.map((d, r) => d / raw[r]!)),
        ]),
      );
      const [rawCpu, streamCpu, plumbingCpu, fedCpu] = cpu.map(median) as [number, number, number, number];
      const ms = (x: number) => x.toFixed(0);
      cpuRows.push([
        name,
        `${workers}`,
        ms(rawCpu),
        ms(streamCpu),
        ms(fedCpu),
        ms(plumbingCpu),
        // A short run's cells may end inside one clock tick (10 ms).
        ...[streamCpu, fedCpu].map((c) => (c > 0 ? (rawCpu / c).toFixed(2) : 'n/a')),
      ]);
    }
  }
  await context.close();
  await server.stop();

  const head = ['chunk', 'op', 'openssl GB/s', 'chromium 1w', 'chromium 2w', 'bun', '1w/ssl', '2w/ssl', 'bun/ssl'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(
    `\nbench/crypto: ${TOTAL / MiB} MiB per cell, ${PIPELINE_DEPTH} AES-GCM calls in flight per worker; openssl = one core, same run\n`,
  );
  if (!ONLY_STREAMS) {
    console.log(fmt(head));
    for (const r of rows) console.log(fmt(r));
    console.log(`\nbest chunk size for 2 Chromium workers: ${label(best2.size)} (${best2.ratio.toFixed(2)} of one OpenSSL core)`);
    console.log(
      `real streams at CHUNK=${label(CHUNK)}, 2 workers: ${atChunk.toFixed(2)} of one OpenSSL core; target >= ${TARGET}: ${atChunk >= TARGET ? 'met' : 'NOT met'}\n`,
    );
  }
  const vHead = ['op', 'stream input', 'workers', 'raw chunks GB/s', 'stream GB/s', 'stream/raw', 'min', 'max'];
  const vWidths = vHead.map((h, i) => Math.max(h.length, ...versus.map((r) => r[i]!.length)));
  const vFmt = (r: string[]) => r.map((c, i) => c.padStart(vWidths[i]!)).join('  ');
  console.log(`real streams vs raw chunk calls at CHUNK=${label(CHUNK)} in Chromium, ${ROUNDS} rounds alternated, medians`);
  console.log(vFmt(vHead));
  for (const r of versus) console.log(vFmt(r));
  console.log(
    `decrypt stream / raw chunk decrypt (worst of both inputs, 1 and 2 workers): ${decryptRatio.toFixed(2)}; target >= ${STREAM_TARGET}: ${decryptRatio >= STREAM_TARGET ? 'met' : 'NOT met'}`,
  );
  const pHead = ['stream input', 'workers', 'plumbing GB/s', 'bound', 'stream/raw', 'fed/raw', 'depth 1/raw'];
  const pWidths = pHead.map((h, i) => Math.max(h.length, ...probeRows.map((r) => r[i]!.length)));
  const pFmt = (r: string[]) => r.map((c, i) => c.padStart(pWidths[i]!)).join('  ');
  console.log('\ndecrypt probes, same rounds, medians of per-round ratios to raw:');
  console.log(' plumbing = the stream with a no-op for AES-GCM; bound = stream/raw if that work adds to the');
  console.log(" raw calls' time; fed = raw calls fed from the same source, least reading work; depth 1 = one call at a time");
  console.log(pFmt(pHead));
  for (const r of probeRows) console.log(pFmt(r));
  console.log(`fed / raw (worst): ${ceiling.toFixed(2)}, the ceiling of any stream reading these sources`);
  const cHead = ['stream input', 'workers', 'raw', 'stream', 'fed', 'plumbing', 'raw/stream', 'raw/fed'];
  const cWidths = cHead.map((h, i) => Math.max(h.length, ...cpuRows.map((r) => r[i]!.length)));
  const cFmt = (r: string[]) => r.map((c, i) => c.padStart(cWidths[i]!)).join('  ');
  console.log("\nCPU ms per GB of Chromium's processes (all threads), medians; the ratios are what a CPU-bound run would show");
  console.log(cFmt(cHead));
  for (const r of cpuRows) console.log(cFmt(r));
}

await main();
