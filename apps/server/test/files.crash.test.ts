import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { PART_BYTES } from '@sealbox/crypto';
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, registrationFor, uniqueName } from './accounts/harness.ts';
import { decrypt, fileMeta, folderMeta, partBytes, patternBytes, postUpload, putPart, uploadFile, type User } from './files/harness.ts';
import { isolatedEnv, spawnMain, type MainProcess } from './support/main-process.ts';
import { waitFor } from './support/services.ts';

/**
 * docs/protocol.md "Crash safety", against the real server: `bun src/main.ts` over a temp
 * DATA_DIR (SQLite + disk), killed with SIGKILL in the middle of uploads and deletes, then
 * started again. After the start-up sweep there must be no visible half-file, no orphan blob
 * and usedSpace must equal the bytes actually stored.
 */

const ORIGIN = 'http://localhost';

let dataDir: string;
let webDir: string;
let server: MainProcess | undefined;

async function start(): Promise<void> {
  server = await spawnMain(isolatedEnv(dataDir, { DATA_DIR: dataDir, WEB_DIST: webDir, PUBLIC_ORIGIN: ORIGIN, LOG_LEVEL: 'info' }));
}

async function kill(): Promise<void> {
  if (!server) return;
  server.child.kill('SIGKILL');
  await server.child.exited;
  server = undefined;
}

async function restart(): Promise<void> {
  await kill();
  await start();
}

/** Talks to whichever server process is running now; the session survives restarts. */
const remote = {
  handle(request: Request): Promise<Response> {
    if (!server) throw new Error('no server');
    const url = new URL(request.url);
    return fetch(`${server.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      // @ts-expect-error Bun supports streaming request bodies
      duplex: 'half',
    });
  },
};

async function signUp(): Promise<User> {
  const username = uniqueName('c');
  const browser = new Browser(remote);
  const registration = await registrationFor(username);
  const created = await browser.post('/api/register', registration);
  expect(created.status).toBe(201);
  expect((await browser.post('/api/login', { username, password: registration.password })).status).toBe(200);
  return { browser, id: created.body.id, rootKey: crypto.getRandomValues(new Uint8Array(32)) };
}

/** The on-disk truth, read beside the running server (WAL allows a second reader). */
function inspect(userId: string) {
  const db = new Database(join(dataDir, 'sealbox.db'), { readonly: true });
  try {
    const user = db.query('select used_space, reserved_space from users where id = ?').get(userId) as { used_space: number; reserved_space: number };
    const stored = db
      .query('select coalesce(sum(p.size), 0) as total from item_parts p join items i on i.id = p.item_id where i.owner_id = ?')
      .get(userId) as { total: number };
    const reservedByUploads = db
      .query('select coalesce(sum(u.reserved_remaining), 0) as total from uploads u join items i on i.id = u.item_id where i.owner_id = ?')
      .get(userId) as { total: number };
    const named = (db.query('select blob_key from item_parts').all() as Array<{ blob_key: string }>).map((r) => r.blob_key).sort();
    const items = db.query('select id, state from items').all() as Array<{ id: string; state: string }>;
    return { used: user.used_space, reserved: user.reserved_space, stored: stored.total, reservedByUploads: reservedByUploads.total, named, items };
  } finally {
    db.close();
  }
}

async function blobFiles(): Promise<{ keys: string[]; temp: string[] }> {
  const root = join(dataDir, 'blobs');
  const keys: string[] = [];
  for (const shard of await readdir(root).catch(() => [] as string[])) {
    if (shard === '.tmp') continue;
    for (const name of await readdir(join(root, shard))) if (name.startsWith('part-')) keys.push(name);
  }
  return { keys: keys.sort(), temp: await readdir(join(root, '.tmp')).catch(() => []) };
}

async function checkInvariants(userId: string) {
  const truth = inspect(userId);
  const { keys, temp } = await blobFiles();
  expect(temp).toEqual([]);
  expect(keys).toEqual(truth.named);
  expect(truth.used).toBe(truth.stored);
  expect(truth.reserved).toBe(truth.reservedByUploads);
  return truth;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sealbox-crash-'));
  webDir = join(dataDir, 'web');
  await mkdir(webDir, { recursive: true });
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Sealbox</title>');
  await start();
});

afterAll(async () => {
  await kill();
  await rm(dataDir, { recursive: true, force: true });
});

describe('kill -9 during transfers', () => {
  test('mid-part, between parts and before complete: no half-file, no orphan, exact usedSpace', async () => {
    const user = await signUp();
    const file = await fileMeta(user.rootKey, null, patternBytes(2 * PART_BYTES + 4321, 17));
    const created = await postUpload(user.browser, file.meta);
    expect(created.status).toBe(201);
    const { uploadId } = created.body;
    expect((await putPart(user.browser, uploadId, 0, partBytes(file.cipher, 0))).status).toBe(204);

    // Mid-part: half of part 1 is on the wire (and in a temp file) when the server dies.
    const part1 = partBytes(file.cipher, 1);
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(part1.subarray(0, part1.byteLength / 2));
        await stalled;
        controller.close();
      },
    });
    const pending = fetch(`${server!.url}/api/upload/${uploadId}/part/1`, {
      method: 'PUT',
      headers: { cookie: `sealbox_session=${user.browser.cookie}`, origin: ORIGIN, 'content-type': 'application/octet-stream' },
      body,
      // @ts-expect-error Bun supports streaming request bodies
      duplex: 'half',
    }).catch((error: unknown) => error);
    const tempBytes = async () => {
      const dir = join(dataDir, 'blobs', '.tmp');
      const names = await readdir(dir).catch(() => [] as string[]);
      let total = 0;
      for (const name of names) total += (await stat(join(dir, name)).catch(() => ({ size: 0 }))).size;
      return total;
    };
    await waitFor(async () => (await tempBytes()) > 1024 * 1024, 10_000, 'half a part to reach a temp file');
    // And a blob renamed into place whose row never committed (a crash between the two).
    await writeFile(join(dataDir, 'blobs', 'pa', `part-${(Date.now() - 5000).toString(36)}-${'ef'.repeat(16)}`), patternBytes(64));
    await restart();
    release();
    await pending;

    let truth = await checkInvariants(user.id);
    expect(truth.used).toBe(PART_BYTES);
    expect(truth.items).toContainEqual({ id: file.id, state: 'uploading' });
    expect((await user.browser.get('/api/file')).body.files).toEqual([]);
    expect((await user.browser.get(`/api/upload/${uploadId}`)).body.received).toEqual([0]);
    expect((await user.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(409);

    // Between parts: part 1 committed, then the server dies.
    expect((await putPart(user.browser, uploadId, 1, part1)).status).toBe(204);
    await restart();
    truth = await checkInvariants(user.id);
    expect(truth.used).toBe(2 * PART_BYTES);
    expect((await user.browser.get(`/api/upload/${uploadId}`)).body.received).toEqual([0, 1]);

    // Before complete: every part is in, the item is still invisible after the crash.
    expect((await putPart(user.browser, uploadId, 2, partBytes(file.cipher, 2))).status).toBe(204);
    await restart();
    truth = await checkInvariants(user.id);
    expect(truth.used).toBe(file.cipher.byteLength);
    expect((await user.browser.get('/api/file')).body.files).toEqual([]);
    expect((await user.browser.post(`/api/upload/${uploadId}/complete`)).status).toBe(200);
    const response = await user.browser.request('GET', `/api/file/data/${file.id}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes).toEqual(file.cipher);
    expect(await decrypt(file, bytes)).toEqual(file.plain);
    await checkInvariants(user.id);
  }, 90_000);

  test('kill -9 while deleting a folder: all of it or none of it, and no orphans', async () => {
    const user = await signUp();
    for (const delayMs of [0, 1, 3, 8, 20]) {
      const folder = await folderMeta(user.rootKey, null);
      expect((await postUpload(user.browser, folder.meta)).status).toBe(201);
      const files = [
        await fileMeta(folder.key, folder.id, patternBytes(PART_BYTES + 1000, delayMs + 1)),
        await fileMeta(folder.key, folder.id, patternBytes(70_000, delayMs + 2)),
      ];
      for (const f of files) await uploadFile(user, f);
      const request = user.browser.request('DELETE', `/api/file/${folder.id}`).catch((error: unknown) => error);
      await Bun.sleep(delayMs);
      await restart();
      await request;
      const truth = await checkInvariants(user.id);
      const listing = await user.browser.get('/api/file?depth=2');
      const ids = listing.body.files.map((f: { id: string }) => f.id);
      if (ids.includes(folder.id)) {
        // The delete never committed: everything is still there and readable.
        for (const f of files) {
          expect(ids).toContain(f.id);
          const got = new Uint8Array(await (await user.browser.request('GET', `/api/file/data/${f.id}`)).arrayBuffer());
          expect(got).toEqual(f.cipher);
        }
        expect((await user.browser.delete(`/api/file/${folder.id}`)).status).toBe(204);
      } else {
        for (const f of files) expect(ids).not.toContain(f.id);
        expect(truth.items.some((i) => [folder.id, ...files.map((f) => f.id)].includes(i.id))).toBe(false);
      }
      const after = await checkInvariants(user.id);
      expect(after.used).toBe(0);
    }
  }, 120_000);
});
