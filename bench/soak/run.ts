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
 * Run: bun bench/soak/run.ts [--minutes=10] [--users=50] [--think-ms=800] [--short]
 */
import { readFileSync } from 'node:fs';
import { createUser } from '../../e2e/support/accounts.ts';
import { apiLogin, folderMetadata } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { postItem } from './actions.ts';
import { checkFiles, checkStorage } from './checks.ts';
import { check, openSocket, tally, useServer } from './client.ts';
import { chooseAction } from './mix.ts';
import { printReport, type RssSample } from './report.ts';
import { MINUTES, THINK_MS, USERS } from './settings.ts';
import { type SoakUser, users } from './users.ts';

const rssSamples: RssSample[] = [];
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

console.log(`soak: ${USERS} users for ${MINUTES} min, think ${THINK_MS} ms (mean) between requests, one instance on 127.0.0.1`);
const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn', HOST: '127.0.0.1' } });
const baseUrl = server.url;
useServer(baseUrl);
try {
  const made = await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      await Bun.sleep(i * 150);
      const account = await createUser(baseUrl);
      const session = await apiLogin(baseUrl, account);
      const { metadata, key } = await folderMetadata(session.rootKey, null, 'soak');
      const created = await postItem(session.cookie, metadata);
      if (created?.status !== 201) throw new Error(`root folder: ${created?.status}`);
      const user: SoakUser = {
        index: i,
        session,
        root: { id: metadata.id, key },
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

  const files = await checkFiles(baseUrl, users);
  const storage = checkStorage(server.dataDir);
  printReport({
    seconds,
    actions,
    users: USERS,
    events: users.reduce((sum, u) => sum + u.events, 0),
    files,
    storage,
    rssSamples,
  });
  const { lost, corrupted } = files;
  const { quotaOff, orphans, missing } = storage;
  process.exitCode =
    tally.fiveHundreds.length > 0 || lost > 0 || corrupted > 0 || quotaOff > 0 || orphans > 0 || missing > 0 ? 1 : 0;
} finally {
  for (const user of users) user.socket?.close();
  await server.stop();
}
