/**
 * bench/cli (issue 26 part 4, docs/benchmarks.md "bench/cli"), side by side in one run against
 * one server on SQLite + disk:
 * - `sealbox put` and `sealbox get` of a 1 GiB file against curl moving the same number of bytes
 *   to and from the server without encryption (the parts of an upload PUT one after another,
 *   then the blob read back whole): goal, the CLI at least 0.8 of curl's speed;
 * - the WebDAV bridge's resident memory, sampled every 100 ms while rclone syncs a tree (the
 *   1 GiB file and a folder of 10,000 small files, names in several scripts and with spaces) up,
 *   checks it with --download and syncs it down into a fresh folder, compared byte for byte:
 *   goal at most 300 MiB;
 * - PROPFIND depth 1 of a folder of 10,000 items through the bridge, cold (a fresh bridge) and
 *   warm (asked again): goals 2 s and 200 ms.
 * Run: bun bench/cli/run.ts [--mib=1024] [--items=10000] [--small=10000] [--runs=3] [--short]
 */
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PART_BYTES,
  chunkCount,
  ciphertextSize,
  decryptName,
  fromBase64,
  partCount,
  plaintextSize,
  unwrapItemKey,
} from '@sealbox/crypto';
import { batchLength, decryptedBatches } from '../../apps/cli/src/transfers/decrypt-batches.ts';
import { makeCli, startBridge, rcloneRemote } from '../../apps/cli/test/support.ts';
import { createUser } from '../../e2e/support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, folderMetadata, postUpload } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { numberArg, sized } from '../support.ts';

const MIB = 1024 * 1024;
const SIZE = numberArg('mib', sized(1024, 8)) * MIB;
const ITEMS = numberArg('items', sized(10_000, 200));
const SMALL = numberArg('small', sized(10_000, 50));
const RUNS = numberArg('runs', sized(3, 1));
const DAV_PASSWORD = 'bench-bridge';

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const speed = (bytes: number, ms: number) => `${(bytes / MIB / (ms / 1000)).toFixed(0)} MiB/s`;

async function timed(what: string, cmd: string[], env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const child = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`${what} failed (${code}): ${out}${err}`);
  return performance.now() - started;
}

/** A file of `size` random bytes, written 64 MiB at a time. */
async function randomFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w');
  const block = new Uint8Array(64 * MIB);
  for (let at = 0; at < size; at += block.length) {
    for (let i = 0; i < block.length; i += 65_536) crypto.getRandomValues(block.subarray(i, i + 65_536));
    await handle.write(block, 0, Math.min(block.length, size - at));
  }
  await handle.close();
}

async function main() {
  const server = await startServer({
    env: {
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      MAX_FILE_BYTES: String(4 * 1024 * MIB),
      DEFAULT_QUOTA_BYTES: String(100 * 1024 * MIB),
    },
  });
  const dir = await mkdtemp(join(tmpdir(), 'sealbox-bench-cli-'));
  try {
    const user = await createUser(server.url);
    const session = await apiLogin(server.url, user);
    const cli = await makeCli(user.password);
    await cli.run(['login', server.url, user.username]);
    const big = join(dir, 'big.bin');
    await randomFile(big, SIZE);
    console.log(`bench/cli: ${SIZE / MIB} MiB file, ${ITEMS} items, ${SMALL} small files (${new Date().toISOString()})`);

    // 1. put / get against curl on the same bytes, RUNS rounds, each tool in turn in each round
    // (what ran just before, e.g. the kernel writing back a gigabyte, weighs on both alike).
    const cliEnv = { SEALBOX_CONFIG_DIR: cli.dir, SEALBOX_PASSWORD: user.password };
    const main = new URL('../../apps/cli/src/main.ts', import.meta.url).pathname;
    const cipherSize = ciphertextSize(SIZE);
    const parts = partCount(cipherSize);
    const folder = await apiCreateFolder(session, null, 'curl');
    const times = {
      put: [] as number[],
      curlUp: [] as number[],
      get: [] as number[],
      curlDown: [] as number[],
      ceiling: [] as number[],
      bunDown: [] as number[],
      jsFloor: [] as number[],
      httpFloor: [] as number[],
    };
    for (let round = 0; round < RUNS; round++) {
      times.put.push(await timed('sealbox put', [process.execPath, main, 'put', big, `/big-${round}.bin`], cliEnv));
      // curl's upload: the same part protocol, raw bytes of the ciphertext's size, no encryption.
      const { metadata } = await folderMetadata(folder.key, folder.id, `raw-${round}.bin`);
      const raw = { ...metadata, isDirectory: false, fileNonce: 'AAAAAAAAAAAAAAAA', size: cipherSize };
      const started = await postUpload(session, raw, 'start raw upload');
      const partFile = join(dir, 'part');
      let curlUp = 0;
      const source = await open(big, 'r');
      for (let n = 0; n < parts; n++) {
        const length = Math.min(PART_BYTES, cipherSize - n * PART_BYTES);
        const bytes = new Uint8Array(length);
        await source.read(bytes, 0, length, n * PART_BYTES);
        await writeFile(partFile, bytes);
        const url = `${server.url}/api/upload/${started.uploadId}/part/${n}`;
        const headers = ['-H', `cookie: ${session.cookie}`, '-H', 'content-type: application/octet-stream'];
        curlUp += await timed('curl put', ['curl', '-sf', '-X', 'PUT', ...headers, '--data-binary', `@${partFile}`, url]);
      }
      await source.close();
      times.curlUp.push(curlUp);
      const completed = await fetch(`${server.url}/api/upload/${started.uploadId}/complete`, {
        method: 'POST',
        headers: { cookie: session.cookie },
      });
      if (!completed.ok) throw new Error(`complete: ${completed.status}`);
      times.ceiling.push(await decryptCeiling(session, `big-${round}.bin`));
      const back = join(dir, 'back.bin');
      times.get.push(await timed('sealbox get', [process.execPath, main, 'get', `/big-${round}.bin`, back], cliEnv));
      const rawBack = join(dir, 'raw-back.bin');
      const dataUrl = `${server.url}/api/file/data/${started.id}`;
      times.curlDown.push(await timed('curl get', ['curl', '-sf', '-H', `cookie: ${session.cookie}`, '-o', rawBack, dataUrl]));
      await rm(rawBack);
      // The same bytes to the same disk by a fresh Bun process, nothing else: the floor of any Bun client.
      const bunGet =
        'await Bun.write(process.env.OUT, await fetch(process.env.URL, { headers: { cookie: process.env.COOKIE } }))';
      const bunEnv = { OUT: rawBack, URL: dataUrl, COOKIE: session.cookie };
      times.bunDown.push(await timed('bun get', [process.execPath, '-e', bunGet], bunEnv));
      await rm(rawBack);
      // The same through JavaScript's hands (what decrypting needs), still without decrypting.
      const floor = new URL('./js-floor.ts', import.meta.url).pathname;
      times.jsFloor.push(await timed('bun get through js', [process.execPath, floor, 'fetch'], bunEnv));
      await rm(rawBack);
      times.httpFloor.push(await timed('bun get through node:http', [process.execPath, floor, 'http'], bunEnv));
      await rm(back);
      await rm(rawBack);
    }
    const med = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const line = (what: string, ours: number[], theirs: number[], bytesOurs: number, bytesTheirs: number) =>
      console.log(
        `${what}: sealbox ${secs(med(ours))} (${speed(bytesOurs, med(ours))}), curl ${secs(med(theirs))} (${speed(bytesTheirs, med(theirs))}): ` +
          `ratio ${(med(theirs) / med(ours)).toFixed(2)} (goal 0.8); rounds sealbox ${ours.map(secs).join(', ')}, curl ${theirs.map(secs).join(', ')}`,
      );
    line('put', times.put, times.curlUp, SIZE, cipherSize);
    line('get', times.get, times.curlDown, SIZE, cipherSize);
    console.log(
      `get ceiling (fetch + decrypt in process, nothing else): ${secs(med(times.ceiling))} (${speed(SIZE, med(times.ceiling))}); ` +
        `curl / ceiling ${(med(times.curlDown) / med(times.ceiling)).toFixed(2)}, sealbox get / ceiling ${(med(times.ceiling) / med(times.get)).toFixed(2)}`,
    );
    console.log(
      `a fresh bun process fetching the same bytes to disk, no crypto: ${secs(med(times.bunDown))} (${speed(cipherSize, med(times.bunDown))}); ` +
        `curl / bun ${(med(times.curlDown) / med(times.bunDown)).toFixed(2)}, bun / sealbox get ${(med(times.bunDown) / med(times.get)).toFixed(2)}; ` +
        `rounds ${times.bunDown.map(secs).join(', ')}`,
    );
    const best = Math.min(med(times.jsFloor), med(times.httpFloor));
    console.log(
      `the same through JavaScript to disk, no crypto (js-floor.ts): fetch's reader ${secs(med(times.jsFloor))}, ` +
        `node:http ${secs(med(times.httpFloor))}; curl / the faster ${(med(times.curlDown) / best).toFixed(2)} ` +
        `(the most any client reading the bytes in JavaScript reaches here), sealbox get / it ${(best / med(times.get)).toFixed(2)}; ` +
        `rounds fetch ${times.jsFloor.map(secs).join(', ')}, node:http ${times.httpFloor.map(secs).join(', ')}`,
    );

    // 2. The bridge's memory while rclone syncs the big file and many small ones up and down.
    const tree = join(dir, 'tree');
    await mkdir(join(tree, 'small'), { recursive: true });
    const scripts = ['été', '日本語', 'Привет', 'مرحبا', 'plain'];
    for (let i = 0; i < SMALL; i++)
      await writeFile(join(tree, 'small', `f ${i} ${scripts[i % scripts.length]}.txt`), `small file ${i}\n`.repeat(20));
    await Bun.write(join(tree, 'big.bin'), Bun.file(big));
    const { child: bridge, url } = await startBridge(cli, user.password, DAV_PASSWORD);
    let peak = 0;
    const sampler = setInterval(async () => {
      const status = await Bun.file(`/proc/${bridge.pid}/status`)
        .text()
        .catch(() => '');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
    }, 100);
    const remote = await rcloneRemote(url, DAV_PASSWORD, dir);
    const peaks: Record<string, number> = {};
    const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      peak = 0;
      const result = await work();
      peaks[name] = peak;
      return result;
    };
    const up = await phase('up', () => timed('rclone sync up', ['rclone', 'sync', tree, 'sb:Tree', '--transfers', '4'], remote));
    // rclone check exits non-zero on any difference; --download compares the bytes themselves.
    const check = await phase('check', () => timed('rclone check', ['rclone', 'check', tree, 'sb:Tree', '--download'], remote));
    const back = join(dir, 'tree-back');
    const down = await phase('down', () => timed('rclone sync down', ['rclone', 'sync', 'sb:Tree', back], remote));
    clearInterval(sampler);
    peak = Math.max(...Object.values(peaks));
    await timed('diff of the tree and the one synced down', ['diff', '-r', '-q', tree, back]);
    console.log(
      `rclone (${SIZE / MIB} MiB + ${SMALL} small files): sync up ${secs(up)} (${(up / SMALL).toFixed(1)} ms a file, the big one included), ` +
        `check --download ${secs(check)} (0 differences), down ${secs(down)}, diff -r: identical; ` +
        `bridge peak resident memory ${(peak / MIB).toFixed(0)} MiB (goal 300 MiB; up ${(peaks.up! / MIB).toFixed(0)}, ` +
        `check ${(peaks.check! / MIB).toFixed(0)}, down ${(peaks.down! / MIB).toFixed(0)})`,
    );
    bridge.kill('SIGTERM');
    await bridge.exited;

    // 3. PROPFIND of a folder of ITEMS items, cold (a new bridge) and warm.
    const large = await apiCreateFolder(session, null, 'Large');
    await apiCreateFolders(
      session,
      large,
      Array.from({ length: ITEMS }, (_, i) => `item ${String(i).padStart(5, '0')}`),
    );
    const { child: fresh, url: freshUrl } = await startBridge(cli, user.password, DAV_PASSWORD);
    const auth = { authorization: `Basic ${Buffer.from(`sealbox:${DAV_PASSWORD}`).toString('base64')}`, depth: '1' };
    const propfind = async () => {
      const t = performance.now();
      const body = await (await fetch(`${freshUrl}/Large/`, { method: 'PROPFIND', headers: auth })).text();
      const count = body.split('<D:response>').length - 1;
      if (count !== ITEMS + 1) throw new Error(`PROPFIND listed ${count}`);
      return performance.now() - t;
    };
    const cold = await propfind();
    const warm = [await propfind(), await propfind(), await propfind()].sort((a, b) => a - b)[1]!;
    console.log(`PROPFIND of ${ITEMS} items: cold ${cold.toFixed(0)} ms (goal 2000), warm ${warm.toFixed(0)} ms (goal 200)`);
    fresh.kill('SIGTERM');
    await fresh.exited;
  } finally {
    await rm(dir, { recursive: true, force: true });
    await server.stop();
  }
}

/**
 * The unavoidable part of a get, timed alone: the file's data fetched and every chunk decrypted
 * with the CLI's own decryptedBatches, in this process, written nowhere; no process start, no
 * password, no listing walk.
 */
async function decryptCeiling(session: Awaited<ReturnType<typeof apiLogin>>, name: string): Promise<number> {
  const listing = await (
    await fetch(`${session.baseUrl}/api/file?depth=1&limit=1000&offset=0`, { headers: { cookie: session.cookie } })
  ).json();
  for (const item of listing.files) {
    const key = await unwrapItemKey(session.rootKey, item.id, item.encryptedKey, item.keyNonce);
    if ((await decryptName(key, item.id, item.encryptedFileName, item.nameNonce)) !== name) continue;
    const plainSize = plaintextSize(item.size);
    const started = performance.now();
    const cryptoKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
    const response = await fetch(`${session.baseUrl}/api/file/data/${item.id}`, { headers: { cookie: session.cookie } });
    let bytes = 0;
    const chunks = { from: 0, to: chunkCount(plainSize) };
    for await (const batch of decryptedBatches(response.body!, cryptoKey, fromBase64(item.fileNonce), chunks, plainSize))
      bytes += batchLength(batch);
    if (bytes !== plainSize) throw new Error('ceiling probe: wrong length');
    return performance.now() - started;
  }
  throw new Error(`ceiling probe: no ${name}`);
}

await main();
