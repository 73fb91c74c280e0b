/**
 * bench/preview: a ~1 GiB mp4 previewed from /files in Chromium against the real server (issue 13,
 * "Streaming and seeking"). The video is made here with ffmpeg (Debian's package): a 30 s
 * 1280x720 H.264/AAC segment at 8 Mbit/s (test pattern plus noise, so it does not compress
 * away), repeated with the concat demuxer (`-c copy`, moov at the front) to just under 1 GiB,
 * and kept in $TMPDIR/sealbox-bench-preview for later runs. It is encrypted in Bun with the real
 * crypto package and uploaded through the part protocol, as the browser does.
 *
 * Measured, each open in a fresh previewer (the service worker already active; the first,
 * "cold" open also registers it):
 * - first frame: from the click on the file's name to the video's `loadeddata`, and the
 *   ciphertext fetched until then;
 * - play: from pressing Play (Space) to `playing`;
 * - seek to 50 %: from setting the position (and playing) to `playing` at the new position, and
 *   the ciphertext fetched for it.
 * "Fetched" is the sum of the Range lengths of the service worker's GET /api/file/data/{id}
 * calls (what it asked the server for; an aborted fetch counts whole), seen by the browser
 * context. Targets: <= 8 MiB and <= 1 s each.
 *
 * Run: bun bench/preview/run.ts [--runs=3] [--no-build] [--short]   (SEALBOX_E2E_WEB_DIST: another build)
 * --short opens the e2e suites' small clip (e2e/fixtures/preview-clip.mp4) once, no ffmpeg needed.
 */
import { mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PART_BYTES, ciphertextSize, createEncryptStream } from '@sealbox/crypto';
import type { Page, Request } from 'playwright-core';
import { fileMetadata, ok, postUpload, type ApiFolder, type ApiSession } from '../../e2e/support/files.ts';
import { numberArg, SHORT, settle, sized } from '../support.ts';
import { withOpenFolder } from './open-bench.ts';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const RUNS = numberArg('runs', sized(3, 1));
const TARGET_BYTES = 8 * MIB;
const TARGET_MS = 1000;
const NAME = 'big-video.mp4';

const work = join(tmpdir(), 'sealbox-bench-preview');

async function run(cmd: string[]): Promise<void> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe' });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`${cmd[0]} failed (${code}):\n${err}`);
}

async function exists(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

/** The ~1 GiB video (made once, then reused); under --short the e2e suites' clip. */
async function makeVideo(): Promise<{ path: string; size: number; made: boolean; seconds: number }> {
  if (SHORT) {
    const clip = new URL('../../e2e/fixtures/preview-clip.mp4', import.meta.url).pathname;
    return { path: clip, size: await exists(clip), made: false, seconds: 0 };
  }
  await mkdir(work, { recursive: true });
  const path = join(work, 'video-1g.mp4');
  const known = await exists(path);
  if (known > 0) return { path, size: known, made: false, seconds: 0 };
  if (!Bun.which('ffmpeg')) throw new Error('ffmpeg is needed to make the video: apt-get install -y ffmpeg');
  const started = performance.now();
  const segment = join(work, 'segment.mp4');
  // biome-ignore format: ffmpeg arguments read best in pairs
  await run([
    'ffmpeg', '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=30',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=30',
    '-vf', 'noise=alls=8:allf=t',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-b:v', '8M', '-maxrate', '8M', '-bufsize', '8M', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0',
    '-c:a', 'aac', '-b:a', '96k', segment,
  ]);
  const segmentSize = await exists(segment);
  // Leave room for the container's own growth: the result must stay within MAX_FILE_BYTES (1 GiB).
  const copies = Math.floor((GIB - 8 * MIB) / segmentSize);
  const list = join(work, 'list.txt');
  await Bun.write(list, `${Array.from({ length: copies }, () => `file '${segment}'`).join('\n')}\n`);
  // biome-ignore format: ffmpeg arguments read best in pairs
  await run([
    'ffmpeg', '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'concat', '-safe', '0', '-i', list,
    '-c', 'copy', '-movflags', '+faststart', path,
  ]);
  return { path, size: await exists(path), made: true, seconds: (performance.now() - started) / 1000 };
}

/** Encrypts the file in Bun and sends it in parts (3 in flight), as the browser's upload does. */
async function uploadLarge(session: ApiSession, parent: ApiFolder, path: string, mimeType: string): Promise<string> {
  const plainSize = await exists(path);
  const { metadata, key, fileNonce } = await fileMetadata(parent.key, parent.id, NAME, mimeType, ciphertextSize(plainSize));
  const headers = { cookie: session.cookie };
  const created = await postUpload(session, metadata, 'upload');
  const uploadId = String(created.uploadId);
  const inFlight = new Set<Promise<void>>();
  const send = (n: number, body: Uint8Array) => {
    const sent = fetch(`${session.baseUrl}/api/upload/${uploadId}/part/${n}`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: body as Uint8Array<ArrayBuffer>,
    })
      .then((r) => ok(r, `part ${n}`))
      .then(() => {
        inFlight.delete(sent);
      });
    inFlight.add(sent);
  };
  const reader = Bun.file(path).stream().pipeThrough(createEncryptStream(key, fileNonce)).getReader();
  let part = new Uint8Array(PART_BYTES);
  let fill = 0;
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let offset = 0;
    while (offset < value.length) {
      const take = Math.min(PART_BYTES - fill, value.length - offset);
      part.set(value.subarray(offset, offset + take), fill);
      fill += take;
      offset += take;
      if (fill === PART_BYTES) {
        while (inFlight.size >= 3) await Promise.race(inFlight);
        send(n++, part);
        part = new Uint8Array(PART_BYTES);
        fill = 0;
      }
    }
  }
  if (fill > 0) send(n++, part.subarray(0, fill));
  await Promise.all(inFlight);
  await ok(await fetch(`${session.baseUrl}/api/upload/${uploadId}/complete`, { method: 'POST', headers }), 'complete');
  return metadata.id;
}

interface Open {
  firstFrameMs: number;
  firstFrameBytes: number;
  playMs: number;
  seekMs: number;
  seekBytes: number;
  /** The video's length in seconds, as the previewer's element reads it. */
  duration: number;
}

/** Opens the video in the previewer and measures (see the header). */
async function measureOpen(page: Page, fetched: { bytes: number }): Promise<Open> {
  await page.evaluate(() => {
    const marks: Record<string, number> = {};
    (window as unknown as { __marks: typeof marks }).__marks = marks;
    const mark = (name: string) => () => {
      marks[name] ??= performance.now();
    };
    document.addEventListener('click', mark('click'), { capture: true, once: true });
    document.addEventListener('loadeddata', mark('loadeddata'), true);
  });
  fetched.bytes = 0;
  await page.locator('.browser__body').getByRole('button', { name: NAME, exact: true }).click();
  await page.waitForFunction(
    () => (window as unknown as { __marks: Record<string, number> }).__marks.loadeddata !== undefined,
    null,
    {
      timeout: 60_000,
      polling: 5,
    },
  );
  const firstFrameBytes = fetched.bytes;
  const first = await page.evaluate(() => {
    const marks = (window as unknown as { __marks: Record<string, number> }).__marks;
    return marks.loadeddata! - marks.click!;
  });

  // Play from the start.
  const playMs = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const video = document.querySelector<HTMLVideoElement>('dialog.preview video')!;
        const start = performance.now();
        video.addEventListener('playing', () => resolve(performance.now() - start), { once: true });
        video.addEventListener('error', () => reject(new Error('video error')), { once: true });
        window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true, cancelable: true }));
      }),
  );
  await page.evaluate(() => document.querySelector<HTMLVideoElement>('dialog.preview video')!.pause());
  await settle(300);

  // Seek to 50 % and play from there.
  fetched.bytes = 0;
  const seek = await page.evaluate(
    () =>
      new Promise<{ ms: number; at: number; duration: number }>((resolve, reject) => {
        const video = document.querySelector<HTMLVideoElement>('dialog.preview video')!;
        const target = video.duration / 2;
        const start = performance.now();
        const done = () => {
          if (video.currentTime < target - 1) return;
          video.removeEventListener('playing', done);
          resolve({ ms: performance.now() - start, at: video.currentTime / video.duration, duration: video.duration });
        };
        video.addEventListener('playing', done);
        video.addEventListener('error', () => reject(new Error('video error')), { once: true });
        video.currentTime = target;
        video.play().catch(reject);
      }),
  );
  const seekBytes = fetched.bytes;
  if (Math.abs(seek.at - 0.5) > 0.01) throw new Error(`played from ${seek.at} instead of 0.5`);
  await page.keyboard.press('Escape');
  await page.locator('dialog.preview[open]').waitFor({ state: 'detached' });
  return { firstFrameMs: first, firstFrameBytes, playMs, seekMs: seek.ms, seekBytes, duration: seek.duration };
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(2)} MiB`;
const ms = (value: number) => `${Math.round(value)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const video = await makeVideo();
  const upload = async (session: ApiSession, folder: ApiFolder) => {
    const started = performance.now();
    const id = await uploadLarge(session, folder, video.path, 'video/mp4');
    return { id, seconds: (performance.now() - started) / 1000 };
  };
  await withOpenFolder(NAME, upload, async ({ context, page, uploaded }) => {
    const fetched = { bytes: 0 };
    context.on('request', (request: Request) => {
      if (!request.url().includes(`/api/file/data/${uploaded.id}`)) return;
      const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers().range ?? '');
      // A fetch without a Range would be the whole blob: count it so.
      fetched.bytes += match ? Number(match[2]) - Number(match[1]) + 1 : video.size;
    });

    const opens: Open[] = [];
    for (let i = 0; i < RUNS + 1; i++) opens.push(await measureOpen(page, fetched));
    const [cold, ...warm] = opens as [Open, ...Open[]];
    const kind = SHORT ? 'the e2e clip' : 'H.264 1280x720 8 Mbit/s + AAC';

    const lines = [
      `bench/preview: ${mib(video.size)} mp4 (${kind}, ${(cold.duration / 60).toFixed(1)} min), ciphertext ${mib(ciphertextSize(video.size))}; Chromium ${context.browser()?.version() ?? ''}`,
      `  video ${video.made ? `made in ${video.seconds.toFixed(1)} s` : SHORT ? 'from e2e/fixtures' : 'reused'}; encrypted and uploaded in parts from Bun in ${uploaded.seconds.toFixed(1)} s`,
      `  first open (registers the service worker): first frame ${ms(cold.firstFrameMs)}, fetched ${mib(cold.firstFrameBytes)}; play ${ms(cold.playMs)}; seek to 50 % and play ${ms(cold.seekMs)}, fetched ${mib(cold.seekBytes)}`,
      ...warm.map(
        (o, i) =>
          `  open ${i + 2}: first frame ${ms(o.firstFrameMs)}, fetched ${mib(o.firstFrameBytes)}; play ${ms(o.playMs)}; seek to 50 % and play ${ms(o.seekMs)}, fetched ${mib(o.seekBytes)}`,
      ),
    ];
    const worst = {
      firstFrameMs: Math.max(...opens.map((o) => o.firstFrameMs)),
      firstFrameBytes: Math.max(...opens.map((o) => o.firstFrameBytes)),
      seekMs: Math.max(...opens.map((o) => o.seekMs)),
      seekBytes: Math.max(...opens.map((o) => o.seekBytes)),
    };
    const pass = (value: number, target: number) => (value <= target ? 'PASS' : 'FAIL');
    lines.push(
      `  median of opens 2-${RUNS + 1}: first frame ${ms(median(warm.map((o) => o.firstFrameMs)))} / ${mib(median(warm.map((o) => o.firstFrameBytes)))}; seek ${ms(median(warm.map((o) => o.seekMs)))} / ${mib(median(warm.map((o) => o.seekBytes)))}`,
      `  targets (worst of all ${opens.length} opens): first frame <= 1 s ${pass(worst.firstFrameMs, TARGET_MS)} (${ms(worst.firstFrameMs)}), <= 8 MiB ${pass(worst.firstFrameBytes, TARGET_BYTES)} (${mib(worst.firstFrameBytes)}); seek <= 1 s ${pass(worst.seekMs, TARGET_MS)} (${ms(worst.seekMs)}), <= 8 MiB ${pass(worst.seekBytes, TARGET_BYTES)} (${mib(worst.seekBytes)})`,
    );
    console.log(lines.join('\n'));
  });
}

await main();
