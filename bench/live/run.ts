/**
 * bench/live: live updates (issue 5 targets).
 * 1. Change → other tab: a folder is created through the API, as another tab does, and timed
 *    from the moment the request is sent to the moment a Chromium tab on /files has it in its
 *    DOM (MutationObserver), p50/p95 over N changes. One instance (SQLite + disk, target p95 ≤
 *    100 ms), then two instances on PostgreSQL + S3 with the change through A and the tab on B
 *    (target p95 ≤ 250 ms).
 * 2. Fan-out: S sockets of one user (sharing does not exist yet, so "users who can all see one
 *    folder" are one user's sessions: the server's work per socket is the same) on one instance;
 *    one change, delivery to every socket timed from the request, R rounds (target p95 ≤ 250 ms);
 *    the server's resident memory per idle socket.
 * 3. Burst: 1,000 changes from 32 concurrent clients while one socket listens: /api/health answer
 *    times during the burst, and how long until the socket has all 1,000 events.
 * Run: bun bench/live/run.ts [--changes=40] [--sockets=1000] [--rounds=20] [--no-build] [--no-cluster] [--only-burst] [--short]
 */
import { readFileSync } from 'node:fs';
import {
  buildWebForBench,
  type Listener,
  now,
  numberArg,
  openListener,
  percentile,
  rowSeen,
  settle,
  sized,
  waitUntil,
} from '../support.ts';
import { createUser, type TestUser } from '../../e2e/support/accounts.ts';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { startCluster } from '../../e2e/support/cluster.ts';
import {
  apiCreateFolder,
  apiLogin,
  folderMetadata,
  signInToFiles,
  type ApiFolder,
  type ApiSession,
} from '../../e2e/support/files.ts';
import { startServer, type RunningServer } from '../../e2e/support/server.ts';

const CHANGES = numberArg('changes', sized(40, 3));
const SOCKETS = numberArg('sockets', sized(1000, 20));
const ROUNDS = numberArg('rounds', sized(20, 2));
const BURST = sized(1000, 50);
const BURST_CLIENTS = 32;

const summary = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(values, 95).toFixed(1).padStart(6)} ms  max ${Math.max(
    ...values,
  )
    .toFixed(1)
    .padStart(6)} ms  (n=${values.length})`;
const verdict = (value: number, target: number) => (value <= target ? 'met' : 'NOT met');

/** Sends a prepared folder creation; returns when the request left (t0) and when it answered. */
async function createPrepared(session: ApiSession, metadata: unknown): Promise<number> {
  const body = new FormData();
  body.set('metadata', JSON.stringify(metadata));
  const t0 = now();
  const response = await fetch(`${session.baseUrl}/api/upload`, { method: 'POST', headers: { cookie: session.cookie }, body });
  if (response.status !== 201) throw new Error(`create failed: ${response.status}`);
  return t0;
}

/** Part 1 on one tab: the change goes through `changeVia`, the tab shows `tabOn`. */
async function changeToTab(label: string, changeVia: RunningServer, tabOn: RunningServer, user: TestUser, target: number) {
  const context = await launchBrowser();
  if (!context) throw new Error('Chromium is required for this benchmark');
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signInToFiles(page, tabOn.url, user);
    await page.locator('[data-live="online"]').waitFor({ state: 'attached', timeout: 15_000 });
    const session = await apiLogin(changeVia.url, user);
    const latencies: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const name = `${label} change ${String(i).padStart(3, '0')}`;
      const { metadata } = await folderMetadata(session.rootKey, null, name);
      // The tab starts watching before the change is sent; it reports when the row exists.
      const seen = rowSeen(page, name);
      await Bun.sleep(20);
      const t0 = await createPrepared(session, metadata);
      latencies.push((await seen) - t0);
      // Deleted again, so the folder stays one page long and every new row is on screen.
      const removed = await fetch(`${session.baseUrl}/api/file/${metadata.id}`, {
        method: 'DELETE',
        headers: { cookie: session.cookie },
      });
      if (removed.status !== 204) throw new Error(`delete failed: ${removed.status}`);
      await Bun.sleep(150);
    }
    console.log(
      `  ${label.padEnd(30)} ${summary(latencies)}  target p95 ≤ ${target} ms: ${verdict(percentile(latencies, 95), target)}`,
    );
  } finally {
    await context.close();
  }
}

function rssKiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

async function fanOut(server: RunningServer, user: TestUser, pid: number) {
  const session = await apiLogin(server.url, user);
  // Every socket needs a session of its own; the login hash is derived once and reused.
  const lookup = (await (await fetch(`${server.url}/api/users/search/${user.username}?limit=1`)).json()) as Array<{
    passwordSalt: string;
    kdf: never;
  }>;
  const { deriveLoginPassword } = await import('@sealbox/crypto');
  const hash = await deriveLoginPassword(user.password, lookup[0]!.passwordSalt, lookup[0]!.kdf);
  let started = performance.now();
  const cookies: string[] = [];
  let claimed = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (claimed++ < SOCKETS) {
        const response = await fetch(`${server.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: user.username, password: hash }),
        });
        if (!response.ok) throw new Error(`login failed: ${response.status}`);
        cookies.push(response.headers.getSetCookie()[0]!.split(';')[0]!);
      }
    }),
  );
  console.log(`  setup: ${cookies.length} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  await settle(1000);
  const before = rssKiB(pid);
  started = performance.now();
  const listeners: Listener[] = [];
  for (let i = 0; i < cookies.length; i += 50)
    listeners.push(...(await Promise.all(cookies.slice(i, i + 50).map((c) => openListener(server, c)))));
  console.log(`  ${listeners.length} sockets open in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await settle(2000);
  const after = rssKiB(pid);
  console.log(
    `  server RSS: ${(before / 1024).toFixed(1)} MiB before, ${(after / 1024).toFixed(1)} MiB with ${listeners.length} idle sockets: ${((after - before) / listeners.length).toFixed(1)} KiB per socket`,
  );

  const delays: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { metadata } = await folderMetadata(session.rootKey, null, `fan-out ${round}`);
    const t0 = await createPrepared(session, metadata);
    await waitUntil(() => listeners.every((l) => l.arrivals.has(metadata.id)), 10_000, 'every socket');
    for (const l of listeners) delays.push(l.arrivals.get(metadata.id)! - t0);
    await settle(100);
  }
  console.log(
    `  one change → ${listeners.length} sockets, ${ROUNDS} rounds: ${summary(delays)}  target p95 ≤ 250 ms: ${verdict(percentile(delays, 95), 250)}`,
  );
  for (const l of listeners) l.socket.close();
  return session;
}

async function burst(server: RunningServer, session: ApiSession, parent: ApiFolder) {
  const listener = await openListener(server, session.cookie);
  const prepared = await Promise.all(
    Array.from({ length: BURST }, (_, i) => folderMetadata(parent.key, parent.id, `burst ${i}`)),
  );
  // Two probes: a static file (is the event loop free?) and /api/health (it queues for the
  // database, which SQLite gives one writer at a time).
  let bursting = true;
  const probe = async (path: string) => {
    const times: number[] = [];
    while (bursting) {
      const t0 = now();
      await (await fetch(`${server.url}${path}`)).arrayBuffer();
      times.push(now() - t0);
      await Bun.sleep(5);
    }
    return times;
  };
  const probes = Promise.all([probe('/favicon.svg'), probe('/api/health')]);
  // As many clients at once as a busy instance sees, each sending its changes back to back.
  const t0 = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: BURST_CLIENTS }, async () => {
      while (next < prepared.length) await createPrepared(session, prepared[next++]!.metadata);
    }),
  );
  const answered = now() - t0;
  await waitUntil(() => prepared.every(({ metadata }) => listener.arrivals.has(metadata.id)), 30_000, 'all burst events');
  const delivered = Math.max(...prepared.map(({ metadata }) => listener.arrivals.get(metadata.id)!)) - t0;
  bursting = false;
  const [staticTimes, health] = await probes;
  listener.socket.close();
  console.log(
    `  ${BURST} changes from ${BURST_CLIENTS} concurrent clients: all answered in ${answered.toFixed(0)} ms, all ${BURST} events on the socket after ${delivered.toFixed(0)} ms`,
  );
  console.log(`  a static file during the burst: ${summary(staticTimes)}`);
  console.log(`  /api/health during the burst:  ${summary(health)}`);
}

async function main() {
  await buildWebForBench();
  console.log(`bench/live: ${CHANGES} changes per tab measurement, ${SOCKETS} sockets × ${ROUNDS} rounds, burst of ${BURST}`);
  const single = await startServer({ env: { RATE_LIMITS: 'off' } });
  try {
    const user = await createUser(single.url, { username: 'benchlive' });
    if (process.argv.includes('--only-burst')) {
      const session = await apiLogin(single.url, user);
      return await burst(single, session, await apiCreateFolder(session, null, 'burst'));
    }
    console.log('\n1. change → other tab (Chromium, rendered row)');
    await changeToTab('one instance (SQLite)', single, single, user, 100);
    if (!process.argv.includes('--no-cluster')) {
      const cluster = await startCluster(2, { RATE_LIMITS: 'off' });
      try {
        const [a, b] = cluster.instances as [RunningServer, RunningServer];
        const clusterUser = await createUser(a.url, { username: 'benchlive2' });
        await changeToTab('A → tab on B (PostgreSQL + S3)', a, b, clusterUser, 250);
      } finally {
        await cluster.stop();
      }
    }

    console.log(`\n2. fan-out to ${SOCKETS} sockets (one instance, SQLite)`);
    const session = await fanOut(single, user, single.pid);

    console.log(`\n3. burst`);
    const parent = await apiCreateFolder(session, null, 'burst');
    await burst(single, session, parent);
  } finally {
    await single.stop();
  }
}

await main();
