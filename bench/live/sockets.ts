/**
 * bench/live/sockets.ts: 10,000 live sockets over two instances (issue 27 part 4).
 * Two Sealbox instances on one PostgreSQL database (e2e/support/cluster.ts), half of the sockets
 * on each. The sockets belong to one user's sessions, 32 tabs to a session at most (the server's
 * MAX_SOCKETS_PER_SESSION), so a few hundred sign-ins stand for 10,000 tabs. Each round creates
 * one folder through instance A and times, from the moment the request leaves, the arrival of its
 * event on every socket (p50/p95 per round, then median over the rounds). Memory: each instance's
 * resident memory before and after the sockets open, per socket; and the same for a bare
 * Bun.serve WebSocket server (bare-server.ts) holding as many sockets, Bun's own floor.
 * All the clients are WebSockets in this one Bun process, on the same 2 cores as both servers.
 * The open-file limit is raised here: the bench runs itself again under `ulimit -n` if it is low.
 * Run: bun bench/live/sockets.ts [--sockets=10000] [--rounds=5] [--no-bare] [--short]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUser } from '../../e2e/support/accounts.ts';
import { startCluster } from '../../e2e/support/cluster.ts';
import { apiLogin, folderMetadata } from '../../e2e/support/files.ts';
import type { RunningServer } from '../../e2e/support/server.ts';
import { now, numberArg, percentile, settle, sized } from '../support.ts';

const SOCKETS = numberArg('sockets', sized(10_000, 64));
const ROUNDS = numberArg('rounds', sized(5, 1));
const PER_SESSION = 32;
const TARGET_P95_MS = 100;
const TARGET_KIB = 16;

/** Sockets on both sides, the servers' and this process's, plus room for everything else. */
const FILES_NEEDED = SOCKETS + 2048;

async function openFileLimit(): Promise<number> {
  const out = await new Response(Bun.spawn(['sh', '-c', 'ulimit -n']).stdout).text();
  return out.trim() === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out.trim());
}

if ((await openFileLimit()) < FILES_NEEDED && !process.env.SEALBOX_BENCH_ULIMIT) {
  // Raise the soft limit as far as the hard one allows (65536 or less) and run again.
  const child = Bun.spawn(
    [
      'sh',
      '-c',
      'ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"',
      'sh',
      process.execPath,
      ...process.argv.slice(1),
    ],
    { env: { ...process.env, SEALBOX_BENCH_ULIMIT: '1' }, stdio: ['inherit', 'inherit', 'inherit'] },
  );
  process.exit(await child.exited);
}

function rssKiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

/** CPU time (user + system) a process has used, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/**
 * A socket that notes when a frame naming `watched.id` arrives, without parsing it (10,000 JSON
 * parses per change would be the clients' time, not the server's).
 */
interface Tab {
  socket: WebSocket;
  arrived: number;
}
const watched = { id: '' };

function openTab(url: string, cookie: string | undefined): Promise<Tab> {
  const socket = new WebSocket(url, (cookie ? { headers: { cookie } } : {}) as unknown as string[]);
  const tab: Tab = { socket, arrived: 0 };
  return new Promise<Tab>((resolve, reject) => {
    socket.onmessage = (message) => {
      const text = message.data as string;
      if (text.startsWith('{"type":"hello"')) resolve(tab);
      else if (watched.id !== '' && text.includes(watched.id)) tab.arrived = now();
    };
    socket.onclose = (event) => reject(new Error(`socket closed before hello: ${event.code} ${event.reason}`));
    socket.onerror = () => reject(new Error('socket error before hello'));
  });
}

async function openTabs(count: number, target: (i: number) => { url: string; cookie?: string }): Promise<Tab[]> {
  const tabs: Tab[] = [];
  for (let i = 0; i < count; i += 200) {
    const batch = Array.from({ length: Math.min(200, count - i) }, (_, j) => {
      const { url, cookie } = target(i + j);
      return openTab(url, cookie);
    });
    tabs.push(...(await Promise.all(batch)));
  }
  return tabs;
}

async function closeTabs(tabs: Tab[]) {
  const closed = tabs.map((t) =>
    t.socket.readyState === WebSocket.CLOSED
      ? Promise.resolve()
      : new Promise<void>((r) => t.socket.addEventListener('close', () => r())),
  );
  for (const t of tabs) t.socket.close();
  // At most 10 s, and no longer than the closes take: a pending sleep would hold the process
  // open for its whole 10 s after the last figure.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000)));
  await Promise.race([Promise.all(closed), limit]);
  clearTimeout(timer);
}

/** Bun.serve alone, as many idle sockets: the floor of what an idle socket costs in Bun. */
async function bareFloor(count: number): Promise<number> {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'bare-server.ts'), String(port)], { stdout: 'pipe' });
  try {
    const reader = child.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    await settle(1000);
    const before = rssKiB(child.pid);
    const tabs = await openTabs(count, () => ({ url: `ws://127.0.0.1:${port}/` }));
    await settle(2000);
    const after = rssKiB(child.pid);
    const perSocket = (after - before) / tabs.length;
    console.log(
      `  bare Bun.serve, ${tabs.length} idle sockets: RSS ${(before / 1024).toFixed(1)} → ${(after / 1024).toFixed(1)} MiB, ${perSocket.toFixed(1)} KiB per socket`,
    );
    // The same process writing one frame to all of them, as an instance's hub does (no database,
    // no second instance): Bun's own floor for one instance's share of the fan-out.
    const delays: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of tabs) t.arrived = 0;
      watched.id = crypto.randomUUID();
      const t0 = now();
      tabs[0]!.socket.send(watched.id);
      const deadline = Date.now() + 30_000;
      while (tabs.some((t) => t.arrived === 0)) {
        if (Date.now() > deadline) throw new Error('bare fan-out: a socket missed the frame');
        await Bun.sleep(2);
      }
      delays.push(Math.max(...tabs.map((t) => t.arrived - t0)));
      await settle(300);
    }
    watched.id = '';
    console.log(
      `  bare Bun.serve, one frame to all ${tabs.length} sockets, ${ROUNDS} rounds: last socket median ${ms(percentile(delays, 50))}, max ${ms(Math.max(...delays))}`,
    );
    await closeTabs(tabs);
    return perSocket;
  } finally {
    child.kill();
    await child.exited;
  }
}

async function signIn(server: RunningServer, username: string, password: string, count: number): Promise<string[]> {
  // The login hash is derived once (as the client does) and sent for every session.
  const lookup = (await (await fetch(`${server.url}/api/users/search/${username}?limit=1`)).json()) as Array<{
    passwordSalt: string;
    kdf: never;
  }>;
  const { deriveLoginPassword } = await import('@sealbox/crypto');
  const hash = await deriveLoginPassword(password, lookup[0]!.passwordSalt, lookup[0]!.kdf);
  const cookies: string[] = [];
  let claimed = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (claimed++ < count) {
        const response = await fetch(`${server.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: hash }),
        });
        if (!response.ok) throw new Error(`login failed: ${response.status}`);
        cookies.push(response.headers.getSetCookie()[0]!.split(';')[0]!);
      }
    }),
  );
  return cookies;
}

async function main() {
  console.log(
    `bench/live/sockets: ${SOCKETS} sockets over two instances (PostgreSQL), ${ROUNDS} rounds; open-file limit ${await openFileLimit()}`,
  );
  console.log('  clients: all sockets in this one Bun process, sharing the 2 cores with both servers');
  const bare = process.argv.includes('--no-bare') ? undefined : await bareFloor(SOCKETS / 2);

  const cluster = await startCluster(2, { RATE_LIMITS: 'off' });
  try {
    const [a, b] = cluster.instances as [RunningServer, RunningServer];
    const user = await createUser(a.url, { username: 'benchsockets' });
    const session = await apiLogin(a.url, user);
    let started = performance.now();
    const cookies = await signIn(a, user.username, user.password, Math.ceil(SOCKETS / PER_SESSION));
    console.log(`  setup: ${cookies.length} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    await settle(1000);
    const before = [rssKiB(a.pid), rssKiB(b.pid)];
    started = performance.now();
    const wsUrl = [a, b].map((s) => `${s.url.replace('http', 'ws')}/api/ws`);
    // Socket i: instance i % 2, session ⌊i / 32⌋ (16 tabs of a session on each instance).
    const tabs = await openTabs(SOCKETS, (i) => ({ url: wsUrl[i % 2]!, cookie: cookies[Math.floor(i / PER_SESSION)]! }));
    console.log(`  ${tabs.length} sockets open in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await settle(3000);
    const after = [rssKiB(a.pid), rssKiB(b.pid)];
    const perSocket = after.map((kib, i) => (kib - before[i]!) / (tabs.length / 2));
    for (const [i, name] of ['A', 'B'].entries()) {
      console.log(
        `  instance ${name}: RSS ${(before[i]! / 1024).toFixed(1)} → ${(after[i]! / 1024).toFixed(1)} MiB with ${tabs.length / 2} idle sockets: ${perSocket[i]!.toFixed(1)} KiB per socket`,
      );
    }

    const roundP50: number[] = [];
    const roundP95: number[] = [];
    const all: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { metadata } = await folderMetadata(session.rootKey, null, `sockets round ${round}`);
      for (const t of tabs) t.arrived = 0;
      watched.id = metadata.id;
      const body = new FormData();
      body.set('metadata', JSON.stringify(metadata));
      const cpu0 = [cpuMs(a.pid), cpuMs(b.pid), ownCpuMs()];
      const t0 = now();
      const response = await fetch(`${a.url}/api/upload`, { method: 'POST', headers: { cookie: session.cookie }, body });
      if (response.status !== 201) throw new Error(`create failed: ${response.status}`);
      const answered = now() - t0;
      const deadline = Date.now() + 30_000;
      while (tabs.some((t) => t.arrived === 0)) {
        if (Date.now() > deadline)
          throw new Error(`round ${round}: ${tabs.filter((t) => t.arrived === 0).length} sockets missed the event`);
        await Bun.sleep(5);
      }
      const cpu = [cpuMs(a.pid), cpuMs(b.pid), ownCpuMs()].map((v, i) => (v - cpu0[i]!).toFixed(0));
      const delays = tabs.map((t) => t.arrived - t0);
      const [onA, onB] = [delays.filter((_, i) => i % 2 === 0), delays.filter((_, i) => i % 2 === 1)];
      roundP50.push(percentile(delays, 50));
      roundP95.push(percentile(delays, 95));
      all.push(...delays);
      // Where the time goes: the change's answer, then each instance's first and last socket.
      const span = (d: number[]) => `${Math.min(...d).toFixed(0)}-${Math.max(...d).toFixed(0)}`;
      console.log(
        `  round ${round + 1}: p50 ${ms(percentile(delays, 50))}  p95 ${ms(percentile(delays, 95))}  last ${ms(Math.max(...delays))}  (answered ${answered.toFixed(0)} ms; on A first-last ${span(onA)} ms, on B ${span(onB)} ms; CPU ms A ${cpu[0]}, B ${cpu[1]}, clients ${cpu[2]})`,
      );
      await settle(500);
    }
    const medianP95 = percentile(roundP95, 50);
    console.log(
      `  one change → ${tabs.length} sockets, ${ROUNDS} rounds: median of rounds p50 ${ms(percentile(roundP50, 50))}, p95 ${ms(medianP95)}; all deliveries p95 ${ms(percentile(all, 95))}  target p95 ≤ ${TARGET_P95_MS} ms: ${verdict(medianP95 <= TARGET_P95_MS)}`,
    );
    console.log(
      `  idle socket: A ${perSocket[0]!.toFixed(1)} KiB, B ${perSocket[1]!.toFixed(1)} KiB${bare === undefined ? '' : ` (bare Bun.serve ${bare.toFixed(1)} KiB)`}  target ≤ ${TARGET_KIB} KiB: ${verdict(Math.max(...perSocket) <= TARGET_KIB)}`,
    );
    await closeTabs(tabs);
  } finally {
    await cluster.stop();
  }
}

await main();
