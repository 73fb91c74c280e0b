/**
 * The unavoidable part of a `sealbox get` for any client that must see the bytes in JavaScript
 * (to decrypt them), with no decryption: a fresh Bun process reading GET /api/file/data/{id} and
 * writing it to disk in 4 MiB batches with one writev each, as download.ts does. Two ways of
 * reading, the two the runtime offers: `fetch` (the body's reader, as the CLI reads) and
 * `node:http` (its 'data' events). Spawned by run.ts with the way as its argument and URL, COOKIE
 * and OUT in the environment; prints nothing.
 */
import { open } from 'node:fs/promises';
import { request } from 'node:http';

const BATCH = 4 * 1024 * 1024;
const { URL: url, COOKIE: cookie, OUT: out } = process.env;
if (!url || !cookie || !out) throw new Error('js-floor.ts needs URL, COOKIE and OUT');
const file = await open(out, 'wx', 0o600);
let pending: Uint8Array[] = [];
let size = 0;
let at = 0;
let writing: Promise<unknown> = Promise.resolve();

/** Takes a piece; once a batch is gathered, waits for the write before and starts this one. */
async function take(piece: Uint8Array): Promise<void> {
  pending.push(piece);
  size += piece.length;
  if (size < BATCH) return;
  await writing;
  writing = file.writev(pending, at);
  at += size;
  [pending, size] = [[], 0];
}

if (process.argv[2] === 'http') {
  await new Promise<void>((resolve, reject) => {
    request(url, { headers: { cookie } }, (response) => {
      response.on('data', (piece: Buffer) => {
        response.pause();
        take(piece).then(() => response.resume(), reject);
      });
      response.on('end', resolve);
      response.on('error', reject);
    }).end();
  });
} else {
  const response = await fetch(url, { headers: { cookie } });
  if (!response.ok || !response.body) throw new Error(`fetch: ${response.status}`);
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) await take(read.value);
}
await writing;
if (size > 0) await file.writev(pending, at);
await file.close();
