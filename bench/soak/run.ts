/**
 * bench/soak (issue 15): one instance (SQLite + disk, `bun apps/server/src/main.ts` on
 * 127.0.0.1), U simulated users for N minutes. Each user is a Bun client speaking the protocol
 * with the real crypto package (no browser): signed in and unlocked as the web app does, one
 * live socket held open, and one request at a time with a think time between, picked from a
 * realistic mix: list folders, make folders, upload small files (one request) and large ones
 * (in parts), download with Range (one chunk, decrypted and checked), rename, move (the key
 * re-wrapped under the new folder), share with another user (a real signed grant) and list
 * what was shared, open a link (a visitor without a session reads through it), delete, and
 * reopen the socket. Concurrency is bounded by U (one request per user in flight).
 *
 * At the end every file is downloaded whole, decrypted and compared with what was uploaded,
 * and the database is read for usedSpace against the bytes stored and blobs against rows.
 * Prints: 5xx count, lost and corrupted files, p50/p99 latency per route, the server's RSS
 * every 10 s.
 *
 * Run: bun bench/soak/run.ts [--minutes=10] [--users=50] [--think-ms=800]
 */
import { Database } from 'bun:sqlite';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CHUNK,
  chunkCipherRange,
  chunkCount,
  createDecryptStream,
  createEncryptStream,
  decryptChunkAt,
  encryptMime,
  encryptName,
  newFileNonce,
  newItemId,
  newItemKey,
  partCount,
  partRange,
  signGrant,
  toBase64,
  wrapItemKey,
  wrapKeyForUser,
} from '@sealbox/crypto';
import { createUser } from '../../e2e/support/accounts.ts';
import { apiLogin, type ApiFolder, type ApiSession } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { percentile } from '../support.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return fallback;
  const raw = process.argv[i]!.includes('=') ? process.argv[i]!.split('=')[1] : process.argv[i + 1];
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} expects a positive number`);
  return value;
}

const MINUTES = arg('minutes', 10);
const USERS = arg('users', 50);
const THINK_MS = arg('think-ms', 800);
const LARGE_PER_USER = 2;
const SMALL_PER_USER = 60;

/* ------------------------------------------------------------------ measurements */

const latencies = new Map<string, number[]>();
const statuses = new Map<number, number>();
const fiveHundreds: string[] = [];
let networkErrors = 0;
let checkFailures = 0;
const failures: string[] = [];

/** "PUT /api/upload/:id/part/:n" from a concrete path. */
function routeOf(method: string, path: string): string {
  const bare = path.split('?')[0]!;
  const route = bare
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id')
    .replace(/\/part\/\d+/, '/part/:n')
    .replace(/\/api\/shared\/[A-Za-z0-9_-]{16,}$/, '/api/shared/:linkId');
  const linkRead = path.includes('linkId=') ? ' (link)' : '';
  return `${method} ${route}${linkRead}`;
}

async function call(
  method: string,
  path: string,
  init: { cookie?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<Response | null> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] = 'application/json';
  }
  const t0 = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body ?? null,
      signal: AbortSignal.timeout(60_000),
    });
    // Time to the whole answer, body included.
    const bytes = new Uint8Array(await response.arrayBuffer());
    const ms = performance.now() - t0;
    const route = routeOf(method, path);
    if (!latencies.has(route)) latencies.set(route, []);
    latencies.get(route)!.push(ms);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500) fiveHundreds.push(`${route} ${response.status} ${new TextDecoder().decode(bytes).slice(0, 200)}`);
    return new Response(response.status === 204 || response.status === 304 ? null : bytes, {
      status: response.status,
      headers: response.headers,
    });
  } catch (error) {
    networkErrors += 1;
    failures.push(`${method} ${path}: ${String(error)}`);
    return null;
  }
}

function check(condition: boolean, what: string): boolean {
  if (!condition) {
    checkFailures += 1;
    if (failures.length < 50) failures.push(what);
  }
  return condition;
}

/* ------------------------------------------------------------------ content */

/** Plaintext byte i of a file made from `seed`: regenerated for any range, never stored. */
function plain(seed: number, from: number, to: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(to - from);
  for (let i = from; i < to; i++) out[i - from] = (seed * 131 + i * 7 + (i >>> 9)) & 255;
  return out;
}

async function encrypt(key: Uint8Array, nonce: Uint8Array, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(createEncryptStream(key, nonce))).arrayBuffer(),
  );
}

interface SoakFile {
  id: string;
  key: Uint8Array;
  nonce: Uint8Array;
  seed: number;
  size: number;
  parentId: string;
  large: boolean;
}

interface SoakUser {
  index: number;
  session: ApiSession;
  root: ApiFolder;
  folders: ApiFolder[];
  files: SoakFile[];
  socket: WebSocket | undefined;
  events: number;
  shared: Set<string>;
  links: Array<{ linkId: string; fileId: string }>;
}

/* ------------------------------------------------------------------ actions */

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
let seeds = 1;

async function makeFolder(user: SoakUser): Promise<void> {
  const parent = pick([user.root, ...user.folders]);
  if (user.folders.length >= 25) return list(user);
  const id = newItemId();
  const key = newItemKey();
  const metadata = {
    id,
    parentId: parent.id,
    isDirectory: true,
    ...(await encryptName(key, id, `folder ${user.folders.length}`)),
    ...(await wrapItemKey(parent.key, id, key)),
  };
  const form = new FormData();
  form.set('metadata', JSON.stringify(metadata));
  const response = await call('POST', '/api/upload', { cookie: user.session.cookie, body: form });
  if (response && check(response.status === 201, `mkdir ${response.status}`)) user.folders.push({ id, key });
}

async function fileMetadata(parent: ApiFolder, size: number) {
  const id = newItemId();
  const key = newItemKey();
  const nonce = newFileNonce();
  const seed = seeds++;
  const cipher = await encrypt(key, nonce, plain(seed, 0, size));
  const metadata = {
    id,
    parentId: parent.id,
    isDirectory: false,
    ...(await encryptName(key, id, `file ${seed}.bin`)),
    ...(await encryptMime(key, id, 'application/octet-stream')),
    ...(await wrapItemKey(parent.key, id, key)),
    fileNonce: toBase64(nonce),
    size: cipher.byteLength,
  };
  return { file: { id, key, nonce, seed, size, parentId: parent.id, large: false } as SoakFile, cipher, metadata };
}

async function uploadSmall(user: SoakUser): Promise<void> {
  if (user.files.filter((f) => !f.large).length >= SMALL_PER_USER) return remove(user, false);
  const parent = pick([user.root, ...user.folders]);
  const { file, cipher, metadata } = await fileMetadata(parent, 1 + Math.floor(Math.random() * 300_000));
  const form = new FormData();
  form.set('metadata', JSON.stringify(metadata));
  form.set('file', new File([cipher], 'blob'));
  const response = await call('POST', '/api/upload', { cookie: user.session.cookie, body: form });
  if (response && check(response.status === 201, `upload small ${response.status}`)) user.files.push(file);
}

async function uploadLarge(user: SoakUser): Promise<void> {
  if (user.files.filter((f) => f.large).length >= LARGE_PER_USER) return remove(user, true);
  const parent = pick([user.root, ...user.folders]);
  // 1.2 to 2.5 parts: 10 to 21 MiB of ciphertext.
  const { file, cipher, metadata } = await fileMetadata(parent, Math.floor((1.2 + Math.random() * 1.3) * 8 * 1024 * 1024));
  file.large = true;
  const form = new FormData();
  form.set('metadata', JSON.stringify(metadata));
  const created = await call('POST', '/api/upload', { cookie: user.session.cookie, body: form });
  if (!created || !check(created.status === 201, `upload large ${created.status}`)) return;
  const { uploadId } = (await created.json()) as { uploadId: string };
  for (let n = 0; n < partCount(cipher.byteLength); n++) {
    const { start, end } = partRange(n, cipher.byteLength);
    const sent = await call('PUT', `/api/upload/${uploadId}/part/${n}`, {
      cookie: user.session.cookie,
      body: cipher.subarray(start, end),
      headers: { 'content-type': 'application/octet-stream' },
    });
    if (!sent || !check(sent.status === 204, `part ${n} ${sent?.status}`)) return;
    await Bun.sleep(50);
  }
  const done = await call('POST', `/api/upload/${uploadId}/complete`, { cookie: user.session.cookie });
  if (done && check(done.status === 200, `complete ${done.status}`)) user.files.push(file);
}

async function list(user: SoakUser): Promise<void> {
  const folder = pick([user.root, ...user.folders]);
  const response = await call('GET', `/api/file?parentId=${folder.id}`, { cookie: user.session.cookie });
  if (response) check(response.status === 200, `list ${response.status}`);
}

/** One chunk by Range, decrypted on its own (as the media player reads): checks the bytes. */
async function rangeRead(user: SoakUser, through?: { linkId: string; cookie?: string }, given?: SoakFile): Promise<void> {
  const file = given ?? (user.files.length > 0 ? pick(user.files) : undefined);
  if (!file) return uploadSmall(user);
  const index = Math.floor(Math.random() * chunkCount(file.size));
  const { start, end } = chunkCipherRange(index, file.size);
  const path = through ? `/api/file/data/${file.id}?linkId=${through.linkId}` : `/api/file/data/${file.id}`;
  const response = await call('GET', path, {
    ...(through ? (through.cookie ? { cookie: through.cookie } : {}) : { cookie: user.session.cookie }),
    headers: { range: `bytes=${start}-${end - 1}` },
  });
  if (!response || !check(response.status === 206, `range ${response?.status}`)) return;
  const cipher = new Uint8Array(await response.arrayBuffer());
  try {
    const got = await decryptChunkAt(file.key, file.nonce, index, cipher, file.size);
    const want = plain(file.seed, index * CHUNK, Math.min(file.size, (index + 1) * CHUNK));
    check(Buffer.compare(got, want) === 0, `range ${file.id} chunk ${index}: wrong bytes`);
  } catch (error) {
    check(false, `range ${file.id} chunk ${index}: ${String(error)}`);
  }
}

async function rename(user: SoakUser): Promise<void> {
  const item: { id: string; key: Uint8Array } | undefined = pick([...user.files, ...user.folders]);
  if (!item) return makeFolder(user);
  const sealed = await encryptName(item.key, item.id, `renamed ${Date.now()}`);
  const response = await call('PUT', `/api/file/${item.id}`, {
    cookie: user.session.cookie,
    json: { type: 'rename', encryptedName: sealed.encryptedFileName, nameNonce: sealed.nameNonce },
  });
  if (response) check(response.status === 200, `rename ${response.status}`);
}

async function move(user: SoakUser): Promise<void> {
  const file = user.files.length > 0 ? pick(user.files) : undefined;
  if (!file) return uploadSmall(user);
  const target = pick([user.root, ...user.folders].filter((f) => f.id !== file.parentId));
  if (!target) return list(user);
  const wrapped = await wrapItemKey(target.key, file.id, file.key);
  const response = await call('PUT', `/api/file/${file.id}`, {
    cookie: user.session.cookie,
    json: { type: 'move', parentId: target.id, ...wrapped },
  });
  if (response && check(response.status === 200, `move ${response.status}`)) file.parentId = target.id;
}

async function share(user: SoakUser): Promise<void> {
  const recipient = users[(user.index + 1 + Math.floor(Math.random() * (users.length - 1))) % users.length]!;
  const item = user.folders.find((f) => !user.shared.has(`${f.id}:${recipient.session.userId}`));
  if (!item) {
    const response = await call('GET', '/api/shared', { cookie: user.session.cookie });
    if (response) check(response.status === 200, `shared ${response.status}`);
    return;
  }
  const lookup = await call('GET', `/api/user/${recipient.session.userId}`, { cookie: user.session.cookie });
  if (!lookup || !check(lookup.status === 200, `user ${lookup?.status}`)) return;
  const { publicKey } = (await lookup.json()) as { publicKey: string };
  const encryptedKey = await wrapKeyForUser(publicKey, item.key);
  const signature = await signGrant(user.session.keys.signingPrivateKey, {
    sharerId: user.session.userId,
    recipientId: recipient.session.userId,
    itemId: item.id,
    encryptedKey,
    edit: false,
  });
  const response = await call('POST', '/api/share', {
    cookie: user.session.cookie,
    json: { type: 'user', id: item.id, userId: recipient.session.userId, encryptedKey, signature, edit: false },
  });
  if (response && check(response.status === 201, `share ${response.status}`))
    user.shared.add(`${item.id}:${recipient.session.userId}`);
  // The recipient's tab fetches what is shared with them.
  const theirs = await call('GET', '/api/shared', { cookie: recipient.session.cookie });
  if (theirs) check(theirs.status === 200, `shared ${theirs.status}`);
}

async function openLink(user: SoakUser): Promise<void> {
  const file = user.files.find((f) => !f.large);
  if (!file) return uploadSmall(user);
  let linkId = user.links.length >= 5 ? pick(user.links).linkId : undefined;
  const password = 'soak link pass';
  if (!linkId) {
    const made = await call('POST', '/api/share', {
      cookie: user.session.cookie,
      json: { type: 'link', id: file.id, expires: 0, password, edit: false },
    });
    if (!made || !check(made.status === 201, `link ${made.status}`)) return;
    linkId = ((await made.json()) as { linkId: string }).linkId;
    user.links.push({ linkId, fileId: file.id });
  }
  // A visitor: the link's info, the password, then one Range read of the file it names.
  const info = await call('GET', `/api/shared/${linkId}`);
  if (!info) return;
  check(info.status === 401 || info.status === 404, `link info without proof ${info.status}`);
  if (info.status === 404) return;
  const opened = await call('POST', `/api/shared/${linkId}`, { json: { password } });
  if (!opened || !check(opened.status === 200, `open link ${opened.status}`)) return;
  const cookie = opened.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { itemId } = (await opened.json()) as { itemId: string };
  const target = user.files.find((f) => f.id === itemId);
  if (target) await rangeRead(user, { linkId, cookie }, target);
}

async function remove(user: SoakUser, large: boolean): Promise<void> {
  const file = user.files.find((f) => f.large === large);
  if (!file) return;
  const response = await call('DELETE', `/api/file/${file.id}`, { cookie: user.session.cookie });
  if (response && check(response.status === 204, `delete ${response.status}`)) {
    user.files = user.files.filter((f) => f !== file);
    // Its links went with it.
    user.links = user.links.filter((link) => link.fileId !== file.id);
  }
}

function openSocket(user: SoakUser): Promise<void> {
  user.socket?.close();
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/ws`, {
      headers: { cookie: user.session.cookie },
    } as unknown as string[]);
    const timer = setTimeout(() => {
      check(false, 'socket: no hello in 10 s');
      resolve();
    }, 10_000);
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as { type: string };
      if (data.type === 'hello') {
        clearTimeout(timer);
        const route = 'WS /api/ws (hello)';
        if (!latencies.has(route)) latencies.set(route, []);
        latencies.get(route)!.push(performance.now() - t0);
        resolve();
      } else user.events += 1;
    };
    socket.onerror = () => networkErrors++;
    user.socket = socket;
  });
}

const MIX: Array<[number, (user: SoakUser) => Promise<void>]> = [
  [30, list],
  [14, uploadSmall],
  [2, uploadLarge],
  [16, (user) => rangeRead(user)],
  [8, rename],
  [6, move],
  [5, makeFolder],
  [4, share],
  [6, openLink],
  [3, (user) => remove(user, false)],
  [3, openSocket],
];
const WEIGHT = MIX.reduce((sum, [w]) => sum + w, 0);
const chooseAction = () => {
  let r = Math.random() * WEIGHT;
  for (const [w, action] of MIX) {
    r -= w;
    if (r < 0) return action;
  }
  return list;
};

/* ------------------------------------------------------------------ run */

const rssSamples: Array<{ at: number; mib: number }> = [];
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

console.log(`soak: ${USERS} users for ${MINUTES} min, think ${THINK_MS} ms (mean) between requests, one instance on 127.0.0.1`);
const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn', HOST: '127.0.0.1' } });
const baseUrl = server.url;
const users: SoakUser[] = [];
try {
  const made = await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      await Bun.sleep(i * 150);
      const account = await createUser(baseUrl);
      const session = await apiLogin(baseUrl, account);
      const id = newItemId();
      const key = newItemKey();
      const form = new FormData();
      form.set(
        'metadata',
        JSON.stringify({
          id,
          parentId: null,
          isDirectory: true,
          ...(await encryptName(key, id, 'soak')),
          ...(await wrapItemKey(session.rootKey, id, key)),
        }),
      );
      const created = await call('POST', '/api/upload', { cookie: session.cookie, body: form });
      if (created?.status !== 201) throw new Error(`root folder: ${created?.status}`);
      const user: SoakUser = {
        index: i,
        session,
        root: { id, key },
        folders: [],
        files: [],
        socket: undefined,
        events: 0,
        shared: new Set(),
        links: [],
      };
      return user;
    }),
  );
  users.push(...made);
  for (const user of users) await openSocket(user);
  console.log(`${USERS} users signed in and unlocked, sockets open; mixing for ${MINUTES} min`);

  const started = Date.now();
  const end = started + MINUTES * 60_000;
  const sample = () => rssSamples.push({ at: Math.round((Date.now() - started) / 1000), mib: rssOf(server.pid) });
  sample();
  const sampler = setInterval(sample, 10_000);
  let actions = 0;
  await Promise.all(
    users.map(async (user) => {
      while (Date.now() < end) {
        await Bun.sleep(Math.random() * 2 * THINK_MS);
        try {
          await chooseAction()(user);
        } catch (error) {
          check(false, `action threw: ${String(error)}`);
        }
        actions += 1;
      }
    }),
  );
  clearInterval(sampler);
  sample();
  const seconds = (Date.now() - started) / 1000;

  // Every file back, whole, decrypted and compared.
  let files = 0;
  let lost = 0;
  let corrupted = 0;
  for (const user of users) {
    for (const file of user.files) {
      files += 1;
      const response = await fetch(`${baseUrl}/api/file/data/${file.id}`, { headers: { cookie: user.session.cookie } });
      if (response.status !== 200) {
        lost += 1;
        await response.arrayBuffer();
        continue;
      }
      try {
        const out = await new Response(response.body!.pipeThrough(createDecryptStream(file.key, file.nonce))).arrayBuffer();
        if (Buffer.compare(new Uint8Array(out), plain(file.seed, 0, file.size)) !== 0) corrupted += 1;
      } catch {
        corrupted += 1;
      }
    }
  }

  // The database's word on quotas and blobs, read beside the server (WAL).
  const db = new Database(join(server.dataDir, 'sealbox.db'), { readonly: true });
  const quotaOff = db
    .query(
      `select count(*) as n from users u where u.used_space != (select coalesce(sum(p.size), 0) from item_parts p join items i on i.id = p.item_id where i.owner_id = u.id)`,
    )
    .get() as { n: number };
  const named = new Set(
    (db.query('select blob_key from item_parts').all() as Array<{ blob_key: string }>).map((r) => r.blob_key),
  );
  db.close();
  const blobRoot = join(server.dataDir, 'blobs');
  let orphans = 0;
  let missing = named.size;
  for (const shard of readdirSync(blobRoot)) {
    if (shard === '.tmp') continue;
    for (const key of readdirSync(join(blobRoot, shard))) {
      if (named.has(key)) missing -= 1;
      else orphans += 1;
    }
  }

  const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\nran ${seconds.toFixed(0)} s: ${actions} actions, ${requests} HTTP requests (${(requests / seconds).toFixed(1)}/s)`,
  );
  console.log(
    `statuses: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join('  ')}`,
  );
  console.log(`5xx: ${fiveHundreds.length}   network errors: ${networkErrors}   failed checks: ${checkFailures}`);
  for (const line of [...new Set(fiveHundreds)].slice(0, 10)) console.log(`  5xx: ${line}`);
  for (const line of failures.slice(0, 10)) console.log(`  failed: ${line}`);
  console.log(`files at the end: ${files}, re-downloaded whole and decrypted: lost ${lost}, corrupted ${corrupted}`);
  console.log(`usedSpace != bytes stored: ${quotaOff.n} users; blobs without a row: ${orphans}; rows without a blob: ${missing}`);
  console.log(`live events received on the ${USERS} sockets: ${users.reduce((sum, u) => sum + u.events, 0)}`);
  console.log('\nlatency per route (ms, whole answer):');
  console.log(`${'route'.padEnd(40)} ${'n'.padStart(6)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`);
  for (const [route, values] of [...latencies].sort((a, b) => a[0].localeCompare(b[0]))) {
    console.log(
      `${route.padEnd(40)} ${String(values.length).padStart(6)} ${percentile(values, 50).toFixed(1).padStart(8)} ${percentile(
        values,
        99,
      )
        .toFixed(1)
        .padStart(8)} ${Math.max(...values)
        .toFixed(1)
        .padStart(8)}`,
    );
  }
  console.log('\nserver RSS (MiB) every 10 s:');
  console.log(rssSamples.map((s) => `${s.at}s ${s.mib.toFixed(0)}`).join(', '));
  const third = Math.max(1, Math.floor(rssSamples.length / 3));
  const mean = (xs: typeof rssSamples) => xs.reduce((sum, s) => sum + s.mib, 0) / xs.length;
  const middle = mean(rssSamples.slice(third, 2 * third));
  const last = mean(rssSamples.slice(-third));
  console.log(
    `RSS mean, middle third ${middle.toFixed(0)} MiB, last third ${last.toFixed(0)} MiB (${(((last - middle) / middle) * 100).toFixed(1)}%); max ${Math.max(...rssSamples.map((s) => s.mib)).toFixed(0)} MiB`,
  );
  process.exitCode = fiveHundreds.length > 0 || lost > 0 || corrupted > 0 || quotaOff.n > 0 || orphans > 0 || missing > 0 ? 1 : 0;
} finally {
  for (const user of users) user.socket?.close();
  await server.stop();
}
