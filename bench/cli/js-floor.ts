/**
 * The unavoidable part of a `sealbox get` for any client that must see the bytes in JavaScript
 * (to decrypt them), with no decryption: a fresh Bun process fetching GET /api/file/data/{id}
 * through the body's reader, gathering 4 MiB and writing each with one writev, as download.ts
 * does. Spawned by run.ts with URL, COOKIE and OUT in the environment; prints nothing.
 */
import { open } from 'node:fs/promises';

const BATCH = 4 * 1024 * 1024;
const { URL: url, COOKIE: cookie, OUT: out } = process.env;
if (!url || !cookie || !out) throw new Error('js-floor.ts needs URL, COOKIE and OUT');
const response = await fetch(url, { headers: { cookie } });
if (!response.ok || !response.body) throw new Error(`fetch: ${response.status}`);
const reader = response.body.getReader();
const file = await open(out, 'wx', 0o600);
let pending: Uint8Array[] = [];
let size = 0;
let at = 0;
let writing: Promise<unknown> = Promise.resolve();
for (let read = await reader.read(); !read.done; read = await reader.read()) {
  pending.push(read.value);
  size += read.value.length;
  if (size < BATCH) continue;
  await writing;
  writing = file.writev(pending, at);
  at += size;
  [pending, size] = [[], 0];
}
await writing;
if (size > 0) await file.writev(pending, at);
await file.close();
